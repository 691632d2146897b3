import { IpamError } from '@ipamkit/models';
import { hammerCommand } from './hammer-command.js';
import { runCommand } from './run-command.js';
import type { BinIo } from '@ipamkit/models';

export const USAGE = `usage:
  ipamkit-sim run [--nodes 50] [--pods 2000] [--churn 3] [--datastore sqlite|etcd] [--spawn]
                  [--services 20] [--grace-ms 2000] [--seed 1] [--sqlite-path FILE]
                  [--etcd-endpoints URL,...] [--report out.html]
  ipamkit-sim run [--what-if="FLAGS"] [--nodes 8] [--datastore sqlite|etcd]   replay a what-if
  ipamkit-sim hammer [--processes 16] [--ops 100000] [--kill-rate 0.01] [--datastore sqlite|etcd|kubernetes]
                  [--restart-etcd] [--pods-per-process 8] [--grace-ms 1000] [--seed 1] [--json out.json]
                  [--all-callers] [--fault-rate 0] [--services 6] [--controller-kill-ms 2000]
  ipamkit-sim <command> --help    what each flag of the command does, with its default
`;

/** The `ipamkit-sim` command line; returns the exit code. Errors are printed, never thrown. */
export async function main(argv: readonly string[], io: Pick<BinIo, 'stdout' | 'stderr'>): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'run') return await runCommand(rest, io);
    if (command === 'hammer') return await hammerCommand(rest, io);
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      io.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    }
    io.stderr.write(`unknown command ${JSON.stringify(command)}\n${USAGE}`);
    return 2;
  } catch (err) {
    const kind = err instanceof IpamError ? err.name : 'error';
    io.stderr.write(`ipamkit-sim: ${kind}: ${err instanceof Error ? err.message : String(err)}\n`);
    return err instanceof IpamError && err.category === 'validation' ? 2 : 1;
  }
}
