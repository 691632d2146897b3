import type { BinMain } from '@ipamkit/models';

/** What a bin's `main` answered when driven in-process: its exit code and everything it wrote. */
export interface InProcessRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Drives a bin's `main` in this process, as the bin shape promises (design/README.md, "Bins"):
 * the given arguments and environment in, stdout and stderr collected, never stopped.
 */
export async function runMainInProcess(main: BinMain, argv: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<InProcessRun> {
  let stdout = '';
  let stderr = '';
  const io = {
    env,
    signal: new AbortController().signal,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}
