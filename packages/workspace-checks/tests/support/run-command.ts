import { execFile } from 'node:child_process';

/** Generous: the machines that run these share their cores with other suites. */
const DEFAULT_TIMEOUT_MS = 300_000;

/** What a finished child process left behind. */
export interface CommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Thrown when a command that had to succeed did not; carries its output for the test report. */
export class CommandFailedError extends Error {
  override readonly name = 'CommandFailedError';
  constructor(
    readonly command: string,
    readonly result: CommandResult,
  ) {
    super(`${command} exited ${result.exitCode}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
  }
}

/**
 * The environment every child runs in: nx without its daemon or cloud, no colours, and none of the
 * machine's git identity or hooks (the clones commit as a fixed author).
 */
export function childEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NX_DAEMON: 'false',
    NX_NO_CLOUD: 'true',
    NX_TUI: 'false',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    CI: 'true',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Workspace Checks',
    GIT_AUTHOR_EMAIL: 'workspace-checks@example.invalid',
    GIT_COMMITTER_NAME: 'Workspace Checks',
    GIT_COMMITTER_EMAIL: 'workspace-checks@example.invalid',
    ...extra,
  };
}

/** Runs a command to completion and reports its exit code and output; never throws on a non-zero exit. */
export function runCommand(
  file: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { cwd: options.cwd, env: childEnvironment(options.env), timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve({ exitCode: 0, stdout, stderr });
          return;
        }
        if (error.killed) {
          reject(new CommandFailedError(`${file} ${args.join(' ')} (killed after ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms)`, { exitCode: -1, stdout, stderr }));
          return;
        }
        if (typeof error.code === 'number') {
          resolve({ exitCode: error.code, stdout, stderr });
          return;
        }
        reject(new CommandFailedError(`${file} ${args.join(' ')} (${error.signal ?? error.code ?? 'spawn failure'})`, { exitCode: -1, stdout, stderr }));
      },
    );
  });
}

/** Runs a command that must succeed and returns its stdout. */
export async function runChecked(
  file: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<string> {
  const result = await runCommand(file, args, options);
  if (result.exitCode !== 0) throw new CommandFailedError(`${file} ${args.join(' ')}`, result);
  return result.stdout;
}
