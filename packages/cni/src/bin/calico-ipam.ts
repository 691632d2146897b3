import { readFileSync } from 'node:fs';
import { runCni } from '../run-cni.js';

/**
 * The exec'd plugin: config on stdin, result or error JSON on stdout, exit 0 or 1. Flags of
 * Calico's binary other than `-v` (e.g. `-upgrade`) are not supported.
 */
async function main(): Promise<number> {
  if (process.argv.includes('-v')) {
    process.stdout.write('ipamkit calico-ipam 0.1.0\n');
    return 0;
  }
  let stdin = '';
  // VERSION does not read stdin (spec/cni.md §2.2); everything else does, synchronously: one read.
  if (process.env.CNI_COMMAND !== 'VERSION' && (process.env.CNI_COMMAND ?? '') !== '') {
    try {
      stdin = readFileSync(0, 'utf8');
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      process.stdout.write(JSON.stringify({ code: 5, msg: `error reading from stdin: ${msg}` }, null, 4));
      return 1;
    }
  }
  const { exitCode, stdout } = await runCni({ env: process.env, stdin });
  process.stdout.write(stdout);
  return exitCode;
}

// Exit explicitly: a datastore client may leave an idle socket or timer behind after close().
// Writes to a pipe or file are synchronous on Linux, so nothing is lost.
main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stdout.write(JSON.stringify({ code: 999, msg: err instanceof Error ? err.message : String(err) }, null, 4));
    process.exit(1);
  },
);
