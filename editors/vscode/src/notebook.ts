import * as vscode from 'vscode';
import { errorTexts } from './notebookOutputs';

export const NOTEBOOK_TYPE = 'jupyter-notebook';
const SETTLE_MS = 300; // outputs stream in: send once they have settled

/** Sends one notebook's error outputs (all of them, joined) with the URI of the cell that printed the first. */
export type SendOutputs = (text: string, cell: string, notebook: vscode.NotebookDocument) => Promise<void>;

/**
 * Turns the error outputs of Jupyter notebooks into diagnostics: those saved in a notebook when it
 * opens, and new ones as cells run (or lose their outputs). Each notebook is sent as a whole with
 * a cell hint, so the server replaces what that notebook said before and nothing else.
 */
export class NotebookErrors implements vscode.Disposable {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly sent = new Map<string, string>(); // notebook URI -> last text sent
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly send: SendOutputs,
    private readonly log: (message: string) => void,
  ) {
    this.disposables.push(
      vscode.workspace.onDidOpenNotebookDocument((nb) => this.schedule(nb)),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        if (e.cellChanges.some((c) => c.outputs !== undefined) || e.contentChanges.length > 0) {
          this.schedule(e.notebook);
        }
      }),
      vscode.workspace.onDidCloseNotebookDocument((nb) => {
        const key = nb.uri.toString();
        this.sent.delete(key);
        const timer = this.timers.get(key);
        if (timer) {
          clearTimeout(timer);
          this.timers.delete(key);
        }
      }),
    );
    for (const nb of vscode.workspace.notebookDocuments) {
      this.schedule(nb);
    }
  }

  private schedule(nb: vscode.NotebookDocument): void {
    if (nb.notebookType !== NOTEBOOK_TYPE) {
      return;
    }
    const key = nb.uri.toString();
    const pending = this.timers.get(key);
    if (pending) {
      clearTimeout(pending);
    }
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.flush(nb);
      }, SETTLE_MS),
    );
  }

  private async flush(nb: vscode.NotebookDocument): Promise<void> {
    if (nb.isClosed) {
      return;
    }
    const key = nb.uri.toString();
    const texts: string[] = [];
    let first: vscode.NotebookCell | undefined;
    for (const cell of nb.getCells()) {
      if (cell.kind !== vscode.NotebookCellKind.Code) {
        continue;
      }
      const found = cell.outputs.flatMap((o) => errorTexts(o.items));
      if (found.length > 0) {
        first ??= cell;
        texts.push(...found);
      }
    }
    const text = texts.join('\n\n');
    if (text === (this.sent.get(key) ?? '')) {
      return; // nothing new (and never send an empty text for a notebook that had no errors)
    }
    const hint = first ?? nb.getCells()[0];
    if (!hint) {
      return;
    }
    this.sent.set(key, text);
    this.log(`notebook ${vscode.workspace.asRelativePath(nb.uri)}: ${texts.length} error output(s)`);
    try {
      await this.send(text, hint.document.uri.toString(), nb);
    } catch (e) {
      this.sent.delete(key);
      this.log(`notebook outputs not explained: ${String(e)}`);
    }
  }

  dispose(): void {
    for (const timer of this.timers.values()) {
      clearTimeout(timer);
    }
    this.timers.clear();
    this.disposables.forEach((d) => d.dispose());
  }
}
