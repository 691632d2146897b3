import { readFileSync } from 'node:fs';
import { CNI_CODES } from '../errors.js';
import { runCni } from '../run-cni.js';
import { exitAfterOutput } from './exit-after-output.js';

/** The package version, put in by the build (tsup `define`, from package.json). */
declare const __CALICO_IPAM_VERSION__: string;

/**
 * The exec'd plugin: config on stdin, result or error JSON on stdout, exit 0 or 1. Flags of
 * Calico's binary other than `-v` (e.g. `-upgrade`) are not supported.
 */
async function main(): Promise<{ stdout: string; code: number }> {
  if (process.argv.includes('-v')) return { stdout: `ipamkit calico-ipam ${__CALICO_IPAM_VERSION__}\n`, code: 0 };
  let stdin = '';
  // VERSION does not read stdin (spec/cni.md §2.2); everything else does, synchronously: one read.
  if (process.env.CNI_COMMAND !== 'VERSION' && (process.env.CNI_COMMAND ?? '') !== '') {
    try {
      stdin = readFileSync(0, 'utf8');
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      return { stdout: JSON.stringify({ code: CNI_CODES.ioFailure, msg: `error reading from stdin: ${msg}` }, null, 4), code: 1 };
    }
  }
  const { exitCode, stdout } = await runCni({ env: process.env, stdin });
  return { stdout, code: exitCode };
}

// Exit explicitly (a datastore client may leave an idle socket or timer behind after close()),
// but only after the answer has been written out whole.
main().then(
  ({ stdout, code }) => exitAfterOutput(stdout, code),
  (err: unknown) => exitAfterOutput(JSON.stringify({ code: CNI_CODES.internal, msg: err instanceof Error ? err.message : String(err) }, null, 4), 1),
);
