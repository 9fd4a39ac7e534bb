import { spawn } from 'child_process';

export interface RunResult {
  /** exit code, or null when killed / not started */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** set when the program could not be started (e.g. ENOENT) */
  readonly spawnError?: NodeJS.ErrnoException;
  readonly timedOut: boolean;
}

/** Runs a program without a shell, with a hard timeout; never rejects. */
export function run(
  command: string,
  args: readonly string[],
  opts: { cwd?: string; timeoutMs: number; onOutput?: (chunk: string) => void },
): Promise<RunResult> {
  return new Promise<RunResult>((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    const finish = (r: RunResult): void => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve(r);
      }
    };
    let child;
    try {
      child = spawn(command, [...args], { cwd: opts.cwd, env: process.env, windowsHide: true });
    } catch (e) {
      finish({ code: null, stdout, stderr, spawnError: e as NodeJS.ErrnoException, timedOut });
      return;
    }
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      opts.onOutput?.(d);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      opts.onOutput?.(d);
    });
    child.on('error', (e: NodeJS.ErrnoException) => finish({ code: null, stdout, stderr, spawnError: e, timedOut }));
    child.on('close', (code) => finish({ code, stdout, stderr, timedOut }));
  });
}
