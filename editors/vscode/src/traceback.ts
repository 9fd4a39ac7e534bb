// Editor-side text handling only: turning raw terminal output into plain text and
// deciding whether it is worth sending to the server. No knowledge of JAX lives here.

// CSI (colours, cursor moves), OSC (titles, shell-integration marks; BEL or ST
// terminated), and the remaining two-byte escapes.
const CSI = /\x1b\[[0-?]*[ -/]*[@-~]/g;
const OSC = /\x1b\][\s\S]*?(?:\x07|\x1b\\)/g;
const ESC2 = /\x1b[@-Z\\-_]/g;
const C1_CSI = /\x9b[0-?]*[ -/]*[@-~]/g;

/** Raw terminal data (escape sequences, CRLF, `\r` redraws) to plain text lines. */
export function terminalToText(raw: string): string {
  const noEsc = raw.replace(OSC, '').replace(CSI, '').replace(C1_CSI, '').replace(ESC2, '');
  return noEsc
    .replace(/\r+\n/g, '\n')
    .split('\n')
    // a bare `\r` returns to column 0 (progress bars): what stays visible is the last write
    .map((line) => {
      const parts = line.split('\r');
      return parts[parts.length - 1] ?? '';
    })
    .join('\n');
}

const MARKERS: RegExp[] = [
  /Traceback \(most recent call last\)/, // CPython, IPython, JAX
  /^\s*File "[^"\n]+", line \d+/m, // a frame line without the header (trimmed logs)
  /^E\s+[A-Za-z_][\w.]*(Error|Exception)\b/m, // pytest's short report
];

/** True when the text contains something the server could parse as a Python traceback. */
export function looksLikeTraceback(text: string): boolean {
  return MARKERS.some((re) => re.test(text));
}

/** Keep at most `limit` characters, cutting from the front (the end holds the traceback). */
export function keepTail(text: string, limit: number): string {
  if (text.length <= limit) {
    return text;
  }
  const cut = text.slice(text.length - limit);
  const nl = cut.indexOf('\n');
  return nl >= 0 ? cut.slice(nl + 1) : cut;
}
