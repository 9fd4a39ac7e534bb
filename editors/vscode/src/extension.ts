import * as path from 'path';
import * as vscode from 'vscode';
import { onPythonInterpreterChanged } from './interpreter';
import { NotebookErrors } from './notebook';
import { ServerManager } from './server';
import { TerminalCapture } from './terminal';

/** One element of what the server's `jaxerr.explainTraceback` returns (see `jaxerr-ls explain --json`). */
interface Explained {
  exception?: string;
  message?: string;
  entry?: { id?: string; title?: string } | null;
  location?: { path?: string; cell?: number; line?: number; in_workspace?: boolean } | null;
}

const SERVER_EXPLAIN = 'jaxerr.explainTraceback';
const SERVER_CLEAR = 'jaxerr.clearDiagnostics';
const TERMINAL_NAME = 'JAX Errors';

let manager: ServerManager | undefined;

function workspaceRoot(uri?: vscode.Uri): string | undefined {
  const u = uri ?? vscode.window.activeTextEditor?.document.uri;
  const folder = (u && vscode.workspace.getWorkspaceFolder(u)) ?? vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.fsPath;
}

function firstLine(s: string | undefined): string {
  return (s ?? '').split('\n')[0] ?? '';
}

async function explain(
  m: ServerManager,
  text: string,
  origin: string,
  opts: { quiet?: boolean; root?: string } = {},
): Promise<void> {
  const quiet = opts.quiet ?? false;
  if (!text.trim()) {
    void vscode.window.showInformationMessage(`JAX Errors: the ${origin} is empty.`);
    return;
  }
  const root = opts.root ?? workspaceRoot();
  let result: Explained[] | undefined;
  try {
    result = await m.executeCommand<Explained[]>(SERVER_EXPLAIN, [{ text, root: root ?? null }]);
  } catch (e) {
    m.output.error(`${SERVER_EXPLAIN} failed: ${String(e)}`);
    void vscode.window.showErrorMessage(`JAX Errors: explaining the traceback failed: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  if (!result) {
    return;
  }
  m.output.info(`explained ${result.length} traceback(s) from the ${origin}`);
  if (quiet) {
    return;
  }
  if (result.length === 0) {
    void vscode.window.showInformationMessage(`JAX Errors: no Python traceback found in the ${origin}.`);
    return;
  }
  const last = result[result.length - 1] as Explained;
  const loc = last.location;
  const inCell = loc?.cell !== undefined ? `, cell ${(loc?.cell ?? 0) + 1}, line ` : ':';
  const where = loc?.path && loc.line ? ` at ${path.basename(loc.path)}${inCell}${loc.line}` : '';
  const what = `${last.exception ?? 'Error'}: ${firstLine(last.message)}`.slice(0, 200);
  const title = last.entry?.title ? ` (${last.entry.title})` : '';
  const buttons = loc?.path && loc.line ? ['Go to Line'] : [];
  const pick = await vscode.window.showInformationMessage(`JAX Errors: ${what}${title}${where}`, ...buttons);
  if (pick && loc?.path && loc.line && loc.cell !== undefined) {
    const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(loc.path));
    const cell = new vscode.NotebookRange(loc.cell, loc.cell + 1);
    await vscode.window.showNotebookDocument(notebook, { selections: [cell] });
  } else if (pick && loc?.path && loc.line) {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(loc.path));
    const pos = new vscode.Position(Math.max(0, loc.line - 1), 0);
    await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos) });
  }
}

async function selectionText(): Promise<{ text: string; origin: string }> {
  const editor = vscode.window.activeTextEditor;
  if (editor && !editor.selection.isEmpty) {
    return { text: editor.document.getText(editor.selection), origin: 'selection' };
  }
  // the terminal's selection is reachable only through the clipboard
  if (vscode.window.activeTerminal) {
    const saved = await vscode.env.clipboard.readText();
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
    const text = await vscode.env.clipboard.readText();
    await vscode.env.clipboard.writeText(saved);
    if (text.trim()) {
      return { text, origin: 'terminal selection' };
    }
  }
  return { text: '', origin: 'selection' };
}

function quote(arg: string): string {
  if (process.platform === 'win32') {
    return `"${arg.replace(/"/g, '`"')}"`;
  }
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

async function runCurrentFile(m: ServerManager): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'python') {
    void vscode.window.showInformationMessage('JAX Errors: open a Python file to run it.');
    return;
  }
  const doc = editor.document;
  if (doc.isUntitled) {
    void vscode.window.showInformationMessage('JAX Errors: save the file before running it.');
    return;
  }
  if (doc.isDirty) {
    await doc.save();
  }
  await m.start();
  const py = m.python?.command;
  if (!py) {
    return;
  }
  const root = workspaceRoot(doc.uri) ?? path.dirname(doc.uri.fsPath);
  let terminal = vscode.window.terminals.find((t) => t.name === TERMINAL_NAME && t.exitStatus === undefined);
  if (!terminal) {
    terminal = vscode.window.createTerminal({ name: TERMINAL_NAME, cwd: root });
  }
  terminal.show(true);
  const call = process.platform === 'win32' ? '& ' : '';
  const args = ['-m', 'jaxerr_ls', 'run', '--root', root, '--', py, doc.uri.fsPath].map(quote).join(' ');
  terminal.sendText(`${call}${quote(py)} ${args}`, true);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('JAX Errors', { log: true });
  const m = new ServerManager(context, output);
  manager = m;
  context.subscriptions.push(output, m);

  const captureEnabled = (): boolean => vscode.workspace.getConfiguration('jaxerr').get<boolean>('captureTerminal', true);
  const capture = new TerminalCapture(
    captureEnabled,
    (text, root) => void explain(m, text, 'terminal', { quiet: true, root }),
    (msg) => output.info(msg),
  );
  if (!capture.available) {
    output.info('terminal capture: this VS Code has no shell-integration API (needs 1.93+)');
  }
  context.subscriptions.push(capture);

  context.subscriptions.push(
    vscode.commands.registerCommand('jaxerr.client.explainClipboard', async () =>
      explain(m, await vscode.env.clipboard.readText(), 'clipboard'),
    ),
    vscode.commands.registerCommand('jaxerr.client.explainSelection', async () => {
      const { text, origin } = await selectionText();
      await explain(m, text, origin);
    }),
    vscode.commands.registerCommand('jaxerr.client.clearDiagnostics', async () => {
      await m.executeCommand(SERVER_CLEAR, []);
    }),
    vscode.commands.registerCommand('jaxerr.client.runFile', () => runCurrentFile(m)),
    vscode.commands.registerCommand('jaxerr.client.restart', () => m.restart()),
    vscode.commands.registerCommand('jaxerr.client.showOutput', () => output.show(true)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('jaxerr.interpreter') || e.affectsConfiguration('jaxerr.serverArgs')) {
        output.info('settings changed: restarting the server');
        void m.restart();
      } else if (e.affectsConfiguration('jaxerr.siteUrl') || e.affectsConfiguration('jaxerr.predict')) {
        void m.settingsChanged();
      }
    }),
  );
  const pyWatch = await onPythonInterpreterChanged(() => {
    if (!vscode.workspace.getConfiguration('jaxerr').get<string>('interpreter', '').trim()) {
      output.info('Python interpreter changed: restarting the server');
      void m.restart();
    }
  });
  if (pyWatch) {
    context.subscriptions.push(pyWatch);
  }
  await m.start();
  // after the start: the client has told the server about the open notebooks by then
  context.subscriptions.push(
    new NotebookErrors(
      async (text, cell, notebook) => {
        await m.executeCommand(SERVER_EXPLAIN, [{ text, root: workspaceRoot(notebook.uri) ?? null, cell }]);
      },
      (msg) => output.info(msg),
    ),
  );
}

export async function deactivate(): Promise<void> {
  await manager?.stop();
  manager = undefined;
}
