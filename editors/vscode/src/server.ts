import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { Interpreter, PYTHON_EXTENSION_ID, resolveInterpreter } from './interpreter';
import { run } from './process';

export type ServerState = 'starting' | 'running' | 'stopped' | 'error';

/** The settings the server reads (initialization options and the `jaxerr` section). */
interface ServerSettings {
  interpreter: string;
  siteUrl: string;
  predict: boolean;
}

const CHECK_TIMEOUT_MS = 60_000;
const INSTALL_TIMEOUT_MS = 10 * 60_000;

/** Owns the language client: finds the interpreter, installs the server on request, starts it. */
export class ServerManager implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private interpreter: Interpreter | undefined;
  private readonly status: vscode.StatusBarItem;
  private starting: Promise<void> | undefined;
  private state: ServerState = 'stopped';
  private startedFor: vscode.WorkspaceFolder | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly output: vscode.LogOutputChannel,
  ) {
    this.status = vscode.window.createStatusBarItem('jaxerr.status', vscode.StatusBarAlignment.Right, 100);
    this.status.name = 'JAX Errors';
    this.status.command = 'jaxerr.client.showOutput';
    this.setState('stopped');
    this.status.show();
  }

  get python(): Interpreter | undefined {
    return this.interpreter;
  }

  get isRunning(): boolean {
    return this.client?.state === State.Running;
  }

  private setState(state: ServerState, detail?: string): void {
    this.state = state;
    const icon = { starting: '$(sync~spin)', running: '$(check)', stopped: '$(circle-slash)', error: '$(error)' }[state];
    this.status.text = `${icon} JAX Errors`;
    const py = this.interpreter ? `\n\nPython: ${this.interpreter.command} (${this.interpreter.source})` : '';
    this.status.tooltip = `jaxerr-ls: ${state}${detail ? ` (${detail})` : ''}${py}\n\nClick to show the server output.`;
    this.status.backgroundColor =
      state === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  getState(): ServerState {
    return this.state;
  }

  /** Starts the server unless it is running or starting; resolves when it is up or has failed. */
  start(): Promise<void> {
    if (!this.starting) {
      this.starting = this.doStart().finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  async restart(): Promise<void> {
    await this.starting;
    await this.stop();
    await this.start();
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined; // detached: its state events no longer reach the status bar
    if (c) {
      try {
        await c.stop(5_000);
      } catch (e) {
        this.output.warn(`stopping the server: ${String(e)}`);
      }
      await c.dispose().catch(() => undefined);
    }
    this.setState('stopped');
  }

  private folder(): vscode.WorkspaceFolder | undefined {
    const active = vscode.window.activeTextEditor?.document.uri;
    return (active && vscode.workspace.getWorkspaceFolder(active)) ?? vscode.workspace.workspaceFolders?.[0];
  }

  private async doStart(): Promise<void> {
    if (this.client) {
      return;
    }
    this.setState('starting');
    const folder = this.folder();
    const py = await resolveInterpreter(folder);
    this.interpreter = py;
    this.output.info(`Python: ${py.command} (from ${py.source})`);
    const cwd = folder?.uri.fsPath;

    if (!(await this.ensureInstalled(py, cwd))) {
      return;
    }

    this.startedFor = folder;
    const cfg = vscode.workspace.getConfiguration('jaxerr', folder);
    const extraArgs = cfg.get<string[]>('serverArgs', []).filter((a) => typeof a === 'string');
    const serverOptions: ServerOptions = {
      command: py.command,
      args: ['-m', 'jaxerr_ls', ...extraArgs],
      options: { cwd, env: { ...process.env, PYTHONUNBUFFERED: '1' } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'python' },
        { scheme: 'untitled', language: 'python' },
        // cells of Jupyter notebooks (synced as notebooks: the server declares notebookDocumentSync)
        { scheme: 'vscode-notebook-cell', language: 'python' },
      ],
      outputChannel: this.output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      synchronize: {
        // what `jaxerr-ls run` writes; the server reads them as tracebacks
        fileEvents: vscode.workspace.createFileSystemWatcher('**/.jaxerr/*.txt'),
      },
      // What the server reads (the project's interpreter, for its jax version; the catalog
      // site's URL; predictions on or off) travels in one shape: at start, in answers to the
      // server's `workspace/configuration`, and pushed by `settingsChanged` on every change.
      initializationOptions: { jaxerr: this.serverSettings(folder, py) },
      middleware: {
        workspace: {
          configuration: async (params, token, next) => {
            const found = await next(params, token);
            if (!Array.isArray(found)) {
              return found;
            }
            return params.items.map((item, i) =>
              item.section === 'jaxerr' ? this.serverSettings(folder, py) : found[i],
            );
          },
        },
      },
    };
    // id "jaxerr" makes the client honour the `jaxerr.trace.server` setting
    const client = new LanguageClient('jaxerr', 'JAX Errors', serverOptions, clientOptions);
    client.onDidChangeState((e) => {
      if (client !== this.client) {
        return;
      }
      if (e.newState === State.Running) {
        this.setState('running');
      } else if (e.newState === State.Starting) {
        this.setState('starting');
      } else {
        // (an intentional stop detaches the client first) the client gave up restarting a crashed server
        this.setState('error', 'the server stopped; see the output');
      }
    });
    this.client = client;
    try {
      await client.start();
      this.setState('running');
      this.output.info('jaxerr-ls is running');
    } catch (e) {
      this.client = undefined;
      await client.dispose().catch(() => undefined);
      const msg = e instanceof Error ? e.message : String(e);
      this.setState('error', msg);
      this.output.error(`the server could not start: ${msg}`);
      void this.offerHelp(
        `JAX Errors: the server could not start with ${py.command} (${py.source}): ${msg}`,
      );
    }
  }

  /** The `jaxerr` section as the server reads it. The interpreter is the one the server runs
   * with (resolved: `${workspaceFolder}`, the Python extension's choice), not the raw setting;
   * changing that setting restarts the server instead. */
  private serverSettings(folder: vscode.WorkspaceFolder | undefined, py: Interpreter): ServerSettings {
    const cfg = vscode.workspace.getConfiguration('jaxerr', folder);
    return {
      interpreter: py.command,
      siteUrl: cfg.get<string>('siteUrl', ''),
      predict: cfg.get<boolean>('predict', true),
    };
  }

  /** `jaxerr.siteUrl` or `jaxerr.predict` changed: tell the running server, no restart. */
  async settingsChanged(): Promise<void> {
    const client = this.client;
    if (!client || client.state !== State.Running || !this.interpreter) {
      return; // a server that starts later reads the settings then
    }
    const settings = { jaxerr: this.serverSettings(this.startedFor, this.interpreter) };
    this.output.info(`settings changed: ${JSON.stringify(settings.jaxerr)}`);
    await client.sendNotification(DidChangeConfigurationNotification.type, { settings });
  }

  /** Checks that `python -c "import jaxerr_ls"` works; if not, offers to install it. */
  private async ensureInstalled(py: Interpreter, cwd: string | undefined): Promise<boolean> {
    const check = await run(py.command, ['-c', 'import jaxerr_ls, sys; sys.stdout.write(jaxerr_ls.__version__)'], {
      cwd,
      timeoutMs: CHECK_TIMEOUT_MS,
    });
    if (check.spawnError) {
      const why = check.spawnError.code === 'ENOENT' ? 'was not found' : `could not be run (${check.spawnError.message})`;
      this.setState('error', `Python ${why}`);
      this.output.error(`Python interpreter ${py.command} ${why}`);
      void this.offerHelp(`JAX Errors: the Python interpreter "${py.command}" (${py.source}) ${why}.`);
      return false;
    }
    if (check.timedOut) {
      this.setState('error', 'Python did not answer');
      void this.offerHelp(`JAX Errors: "${py.command} -c 'import jaxerr_ls'" did not finish within ${CHECK_TIMEOUT_MS / 1000} s.`);
      return false;
    }
    if (check.code === 0) {
      this.output.info(`jaxerr_ls ${check.stdout.trim()} found in ${py.command}`);
      return true;
    }
    if (!/ModuleNotFoundError|No module named/.test(check.stderr)) {
      this.setState('error', 'jaxerr_ls fails to import');
      this.output.error(`import jaxerr_ls failed:\n${check.stderr}`);
      void this.offerHelp(`JAX Errors: "import jaxerr_ls" fails in ${py.command}; see the output for details.`);
      return false;
    }
    this.output.warn(`jaxerr_ls is not installed in ${py.command}`);
    this.setState('stopped', 'jaxerr-ls not installed');
    // not awaited: a start (or a restart after a settings change) must not wait for the user
    void this.offerInstall(py, cwd);
    return false;
  }

  private async offerInstall(py: Interpreter, cwd: string | undefined): Promise<void> {
    const install = 'Install jaxerr-ls';
    const pick = await vscode.window.showWarningMessage(
      `JAX Errors: the language server (jaxerr-ls) is not installed in ${py.command}. Install it there now?`,
      install,
      ...this.helpButtons(),
    );
    if (pick === install) {
      if (this.interpreter?.command !== py.command || this.client) {
        return; // the interpreter changed meanwhile, or a server is up
      }
      if (await this.install(py, cwd)) {
        await this.start();
      }
    } else if (pick) {
      await this.runHelpButton(pick);
    }
  }

  /** The wheel shipped in the extension's `bundled/` folder, newest version first, if any. */
  private bundledWheel(): string | undefined {
    const dir = path.join(this.context.extensionPath, 'bundled');
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return undefined;
    }
    const wheels = names.filter((n) => /^jaxerr_ls-.+\.whl$/.test(n)).sort().reverse();
    return wheels.length ? path.join(dir, wheels[0] as string) : undefined;
  }

  private async install(py: Interpreter, cwd: string | undefined): Promise<boolean> {
    const target = this.bundledWheel() ?? 'jaxerr-ls';
    const args = ['-m', 'pip', 'install', '--disable-pip-version-check', target];
    this.output.info(`running: ${py.command} ${args.join(' ')}`);
    this.setState('starting', 'installing jaxerr-ls');
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `JAX Errors: installing jaxerr-ls into ${py.command}` },
      () =>
        run(py.command, args, {
          cwd,
          timeoutMs: INSTALL_TIMEOUT_MS,
          onOutput: (chunk) => this.output.append(chunk),
        }),
    );
    if (result.code === 0) {
      this.output.info('jaxerr-ls installed');
      return true;
    }
    const all = result.stdout + result.stderr;
    let why = result.timedOut ? 'pip did not finish in time' : `pip exited with ${result.code ?? 'an error'}`;
    if (/No module named pip/.test(all)) {
      why = 'this Python has no pip';
    } else if (/externally-managed-environment/.test(all)) {
      why = 'this Python is managed by the system (PEP 668); select a virtual environment instead';
    }
    this.setState('error', 'install failed');
    void this.offerHelp(`JAX Errors: installing jaxerr-ls failed: ${why}.`);
    return false;
  }

  private helpButtons(): string[] {
    const b = ['Open Settings', 'Show Output'];
    if (vscode.extensions.getExtension(PYTHON_EXTENSION_ID)) {
      b.unshift('Select Interpreter');
    }
    return b;
  }

  private async runHelpButton(pick: string): Promise<void> {
    if (pick === 'Select Interpreter') {
      await vscode.commands.executeCommand('python.setInterpreter');
    } else if (pick === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'jaxerr.interpreter');
    } else if (pick === 'Show Output') {
      this.output.show(true);
    }
  }

  private async offerHelp(message: string): Promise<void> {
    const pick = await vscode.window.showErrorMessage(message, ...this.helpButtons());
    if (pick) {
      await this.runHelpButton(pick);
    }
  }

  /** `workspace/executeCommand` on the server; undefined (with a message) when it is not running. */
  async executeCommand<T>(command: string, args: unknown[]): Promise<T | undefined> {
    if (!this.client || this.client.state !== State.Running) {
      await this.start();
    }
    const client = this.client;
    if (!client || client.state !== State.Running) {
      void vscode.window.showErrorMessage('JAX Errors: the server is not running; see the output.', 'Show Output').then(
        (p) => p && this.output.show(true),
      );
      return undefined;
    }
    return (await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args })) as T;
  }

  dispose(): void {
    void this.stop();
    this.status.dispose();
  }
}
