/** What a bin's `main` reads and writes: the process in the bin, collectors in tests (design/models.md, "Bins"). */
export interface BinIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { readonly isTTY?: boolean; write(text: string): unknown };
  /** Aborted on SIGTERM or SIGINT when the bin stops on signals; never otherwise. */
  readonly signal: AbortSignal;
}

/** Every bin's shape: the arguments after the program name in, the exit code out; errors are printed, not thrown. */
export type BinMain = (argv: readonly string[], io: BinIo) => Promise<number>;

export interface RunBinOptions {
  /** Prefixes the one line printed if `main` throws anyway. */
  readonly name: string;
  /** SIGTERM and SIGINT abort `io.signal` instead of killing the process: the bin shuts down itself. */
  readonly stopOnSignal?: boolean;
  /** End the process as soon as `main` answers (a client may leave a socket open); otherwise set the exit code and let it drain. */
  readonly exitWhenDone?: boolean;
}

/** The whole of a bin file: runs `main` on the process and exits with its answer (1 if it throws). */
export function runBin(main: BinMain, options: RunBinOptions): void {
  const stop = new AbortController();
  if (options.stopOnSignal === true) for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => stop.abort());
  const done = (code: number): void => {
    process.exitCode = code;
    if (options.exitWhenDone === true) process.exit(code);
  };
  main(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr, signal: stop.signal }).then(done, (err: unknown) => {
    process.stderr.write(`${options.name}: ${err instanceof Error ? err.message : String(err)}\n`);
    done(1);
  });
}
