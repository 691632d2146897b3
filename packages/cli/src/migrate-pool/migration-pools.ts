import { ipVersionOfCidr, orUndefined, type Datastore, type IPPool, type Versioned } from '@ipamkit/models';
import { CliUsageError } from '../errors.js';

/** The two pools of a migration as stored now; `to` may not exist yet (start creates it from -f). */
export interface MigrationPools {
  readonly from: Versioned<IPPool> | undefined;
  readonly to: Versioned<IPPool> | undefined;
}

export async function readMigrationPools(ds: Datastore, from: string, to: string): Promise<MigrationPools> {
  if (from === to) throw new CliUsageError('--from and --to name the same pool');
  const [fromPool, toPool] = await Promise.all([orUndefined(ds.ipPools.get(from)), orUndefined(ds.ipPools.get(to))]);
  return { from: fromPool, to: toPool };
}

/**
 * The new pool: the stored one, else the one `-f` defines (which must carry the `--to` name). Both
 * pools must be of one family, or the workloads could not move.
 */
export function targetPool(pools: MigrationPools, toName: string, fromFile: readonly IPPool[] | undefined, fromPool: IPPool): IPPool {
  let to: IPPool | undefined = pools.to;
  if (to === undefined) {
    const defined = fromFile?.find((p) => p.name === toName);
    if (defined === undefined) {
      throw new CliUsageError(
        fromFile === undefined ? `pool ${toName} does not exist: give its definition with -f <file>` : `-f holds no IPPool named ${toName}`,
      );
    }
    to = defined;
  }
  if (ipVersionOfCidr(to.cidr) !== ipVersionOfCidr(fromPool.cidr)) {
    throw new CliUsageError(`pool ${toName} (${to.cidr}) is not of the same address family as ${fromPool.name} (${fromPool.cidr})`);
  }
  return to;
}
