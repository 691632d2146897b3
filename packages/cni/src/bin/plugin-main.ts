import { CNI_CODES, messageOf } from '../errors.js';
import { runCni } from '../run-cni.js';
import { PluginOutput } from './plugin-output.js';

/** The package version, put in from package.json by the build (tsup.shared.mts). */
declare const __PACKAGE_VERSION__: string;

/**
 * The exec'd plugin: config on stdin, result or error JSON on stdout, exit 0 or 1. Flags of
 * Calico's binary other than `-v` (e.g. `-upgrade`) are not supported. `readStdin` gives the whole
 * of standard input; it is called only when the command reads it (the single executable's loader
 * has read it already, to pick its code cache: design/cni.md, "Start-up cost").
 */
export function pluginMain(readStdin: () => string): void {
  const output = new PluginOutput();
  // Exit explicitly (a datastore client may leave an idle socket or timer behind after close()),
  // but only once the answer has been written out whole, whatever its size.
  answer(readStdin, output).then(
    ({ stdout, code }) => {
      output.write(1, stdout);
      output.exitWhenWritten(code);
    },
    (err: unknown) => {
      output.write(1, JSON.stringify({ code: CNI_CODES.internal, msg: messageOf(err) }, null, 4));
      output.exitWhenWritten(1);
    },
  );
}

async function answer(readStdin: () => string, output: PluginOutput): Promise<{ stdout: string; code: number }> {
  if (process.argv.includes('-v')) return { stdout: `ipamkit calico-ipam ${__PACKAGE_VERSION__}\n`, code: 0 };
  let stdin = '';
  // VERSION does not read stdin (design/calico-callers.md#cni-environment); everything else does, synchronously: one read.
  if (process.env.CNI_COMMAND !== 'VERSION' && (process.env.CNI_COMMAND ?? '') !== '') {
    try {
      stdin = readStdin();
    } catch (err) {
      return { stdout: JSON.stringify({ code: CNI_CODES.ioFailure, msg: `error reading from stdin: ${messageOf(err)}` }, null, 4), code: 1 };
    }
  }
  const { exitCode, stdout } = await runCni({ env: process.env, stdin, stderr: (line) => output.write(2, line), exitsAfter: true });
  return { stdout, code: exitCode };
}
