import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';

/** The part of the ms-python.python extension API we use (`exports.environments`). */
interface EnvironmentPath {
  readonly id: string;
  readonly path: string;
}
interface ResolvedEnvironment {
  readonly executable: { readonly uri: vscode.Uri | undefined };
}
interface PythonEnvironmentsApi {
  getActiveEnvironmentPath(resource?: vscode.Uri | vscode.WorkspaceFolder): EnvironmentPath;
  resolveEnvironment(env: EnvironmentPath | string): Promise<ResolvedEnvironment | undefined>;
  readonly onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
}
interface PythonExtensionApi {
  readonly environments?: PythonEnvironmentsApi;
}

export const PYTHON_EXTENSION_ID = 'ms-python.python';

export type InterpreterSource = 'setting jaxerr.interpreter' | 'Python extension' | 'default';

export interface Interpreter {
  readonly command: string;
  readonly source: InterpreterSource;
}

function withTimeout<T>(p: PromiseLike<T>, ms: number): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    Promise.resolve(p).then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
    );
  });
}

async function pythonApi(): Promise<PythonEnvironmentsApi | undefined> {
  const ext = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION_ID);
  if (!ext) {
    return undefined;
  }
  const api = ext.isActive ? ext.exports : await withTimeout(ext.activate(), 15_000);
  return api?.environments;
}

/** Expands `${workspaceFolder}`, `${userHome}` and a leading `~` in a configured path. */
export function expandPath(value: string, folder: vscode.WorkspaceFolder | undefined): string {
  let v = value.trim();
  if (folder) {
    v = v.replace(/\$\{workspaceFolder\}/g, folder.uri.fsPath);
  }
  v = v.replace(/\$\{userHome\}/g, os.homedir());
  if (v === '~' || v.startsWith('~/')) {
    v = path.join(os.homedir(), v.slice(1));
  }
  return v;
}

/**
 * The interpreter that runs the server. An explicit `jaxerr.interpreter` wins (the user
 * asked for it); otherwise the one selected in the Python extension; otherwise python3.
 */
export async function resolveInterpreter(folder: vscode.WorkspaceFolder | undefined): Promise<Interpreter> {
  const configured = vscode.workspace.getConfiguration('jaxerr', folder).get<string>('interpreter', '');
  if (configured.trim()) {
    return { command: expandPath(configured, folder), source: 'setting jaxerr.interpreter' };
  }
  const api = await pythonApi();
  if (api) {
    try {
      const active = api.getActiveEnvironmentPath(folder);
      const resolved = await withTimeout(api.resolveEnvironment(active), 15_000);
      const exe = resolved?.executable.uri?.fsPath ?? active.path;
      if (exe) {
        return { command: exe, source: 'Python extension' };
      }
    } catch {
      // fall through to the default
    }
  }
  return { command: process.platform === 'win32' ? 'python' : 'python3', source: 'default' };
}

/** Fires when the Python extension's selected interpreter changes (no-op without it). */
export async function onPythonInterpreterChanged(listener: () => void): Promise<vscode.Disposable | undefined> {
  const api = await pythonApi();
  return api?.onDidChangeActiveEnvironmentPath(() => listener());
}
