// Editor-side handling of notebook error outputs: what a saved or fresh error output holds, as
// the text the server parses. No knowledge of JAX lives here.

/** VS Code's mime type for error outputs (what the ipynb support and the Jupyter extension write). */
export const ERROR_MIME = 'application/vnd.code.notebook.error';

/** One output item as the notebook API gives it. */
export interface OutputItem {
  mime: string;
  data: Uint8Array;
}

/**
 * The traceback text of each error item: its `stack` (the kernel's traceback lines, with ANSI
 * colours) when there is one, else `name: message`. Items that are not errors, or do not parse,
 * give nothing.
 */
export function errorTexts(items: readonly OutputItem[]): string[] {
  const out: string[] = [];
  for (const item of items) {
    if (item.mime !== ERROR_MIME) {
      continue;
    }
    let error: { name?: unknown; message?: unknown; stack?: unknown };
    try {
      error = JSON.parse(new TextDecoder().decode(item.data)) as typeof error;
    } catch {
      continue;
    }
    if (typeof error.stack === 'string' && error.stack.trim()) {
      out.push(error.stack);
    } else if (typeof error.name === 'string' || typeof error.message === 'string') {
      out.push(`${String(error.name ?? 'Error')}: ${String(error.message ?? '')}`);
    }
  }
  return out;
}
