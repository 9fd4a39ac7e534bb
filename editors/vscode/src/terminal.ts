import * as vscode from 'vscode';
import { keepTail, looksLikeTraceback, terminalToText } from './traceback';

// Shell-integration API (stable since VS Code 1.93). engines.vscode is ^1.91, so it is
// declared here and looked up at run time; on older hosts capture is simply off.
interface ShellExecution {
  read(): AsyncIterable<string>;
  readonly commandLine?: { readonly value: string };
}
interface ShellExecutionStartEvent {
  readonly terminal: vscode.Terminal;
  readonly execution: ShellExecution;
}
interface ShellExecutionEndEvent {
  readonly terminal: vscode.Terminal;
  readonly execution: ShellExecution;
  readonly exitCode: number | undefined;
}
interface ShellIntegrationWindow {
  readonly onDidStartTerminalShellExecution?: vscode.Event<ShellExecutionStartEvent>;
  readonly onDidEndTerminalShellExecution?: vscode.Event<ShellExecutionEndEvent>;
}
interface TerminalWithShellIntegration {
  readonly shellIntegration?: { readonly cwd?: vscode.Uri };
}

const MAX_CHARS = 1_000_000;
// `jaxerr-ls run` (what Run Current File uses) reports its own failures through .jaxerr/
const SELF_REPORTING = /\bjaxerr(-ls|_ls)\b.*\brun\b/;
const DRAIN_MS = 1_500;

interface Capture {
  chunks: string[];
  size: number;
  done: Promise<void>;
}

export type TracebackSink = (text: string, root: string | undefined, terminal: vscode.Terminal) => void;

/**
 * Collects the output of each command run in an integrated terminal; when one ends with a
 * non-zero exit code and printed a traceback, hands the text to `sink`.
 */
export class TerminalCapture implements vscode.Disposable {
  private readonly captures = new Map<ShellExecution, Capture>();
  private readonly disposables: vscode.Disposable[] = [];
  readonly available: boolean;

  constructor(
    private readonly enabled: () => boolean,
    private readonly sink: TracebackSink,
    private readonly log: (msg: string) => void,
  ) {
    const w = vscode.window as unknown as ShellIntegrationWindow;
    this.available = !!(w.onDidStartTerminalShellExecution && w.onDidEndTerminalShellExecution);
    if (w.onDidStartTerminalShellExecution && w.onDidEndTerminalShellExecution) {
      this.disposables.push(
        w.onDidStartTerminalShellExecution((e) => this.onStart(e)),
        w.onDidEndTerminalShellExecution((e) => void this.onEnd(e)),
      );
    }
  }

  private onStart(e: ShellExecutionStartEvent): void {
    if (!this.enabled() || SELF_REPORTING.test(e.execution.commandLine?.value ?? '')) {
      return;
    }
    // read() only yields data written after its first call: call it right away.
    const stream = e.execution.read();
    const cap: Capture = { chunks: [], size: 0, done: Promise.resolve() };
    cap.done = (async () => {
      for await (const data of stream) {
        cap.chunks.push(data);
        cap.size += data.length;
        if (cap.size > 2 * MAX_CHARS) {
          const joined = keepTail(cap.chunks.join(''), MAX_CHARS);
          cap.chunks = [joined];
          cap.size = joined.length;
        }
      }
    })().catch((err: unknown) => this.log(`terminal capture: read failed: ${String(err)}`));
    this.captures.set(e.execution, cap);
  }

  private async onEnd(e: ShellExecutionEndEvent): Promise<void> {
    const cap = this.captures.get(e.execution);
    this.captures.delete(e.execution);
    if (!cap || e.exitCode === 0 || !this.enabled() || SELF_REPORTING.test(e.execution.commandLine?.value ?? '')) {
      return;
    }
    // the stream may still hold the last chunks when the end event fires
    await Promise.race([cap.done, new Promise((r) => setTimeout(r, DRAIN_MS))]);
    const text = keepTail(terminalToText(cap.chunks.join('')), MAX_CHARS);
    if (!looksLikeTraceback(text)) {
      return;
    }
    const cwd = (e.terminal as unknown as TerminalWithShellIntegration).shellIntegration?.cwd;
    const folder = (cwd && vscode.workspace.getWorkspaceFolder(cwd)) ?? vscode.workspace.workspaceFolders?.[0];
    this.log(`terminal capture: command exited with ${e.exitCode ?? 'unknown status'} and printed a traceback`);
    this.sink(text, folder?.uri.fsPath, e.terminal);
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    this.captures.clear();
  }
}
