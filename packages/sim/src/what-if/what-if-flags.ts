import type { WhatIfChange } from '@ipamkit/ipam-core';
import { SimConfigError } from '../errors.js';

/** A what-if to replay: the planner's change plus an optional pods-per-node target. */
export interface ReplayChange {
  readonly change: WhatIfChange;
  readonly podsPerNode: number | undefined;
  /** One line per flag, for the report. */
  readonly lines: readonly string[];
}

function whole(flag: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isSafeInteger(n) || n < min) throw new SimConfigError(`--what-if ${flag} needs an integer of at least ${min}, got ${JSON.stringify(value)}`);
  return n;
}

/**
 * The `--what-if` value: the flags of `ipamkit ipam what-if` in one string (`"--strict-affinity
 * true --add-nodes 2"`). `--add-pool -f` is not replayed (the replay's pools are its own).
 */
export function parseWhatIf(text: string): ReplayChange {
  const words = text.trim().split(/\s+/).filter((w) => w !== '');
  const change: { -readonly [K in keyof WhatIfChange]: WhatIfChange[K] } = {};
  const lines: string[] = [];
  let podsPerNode: number | undefined;
  for (let i = 0; i < words.length; i += 2) {
    const flag = words[i] ?? '';
    const value = words[i + 1];
    switch (flag) {
      case '--add-nodes':
        change.addNodes = { count: whole(flag, value, 0) };
        break;
      case '--pods-per-node':
        podsPerNode = whole(flag, value, 1);
        break;
      case '--block-size':
        change.blockSize = { size: whole(flag, value, 1) };
        break;
      case '--max-blocks-per-host':
        change.maxBlocksPerHost = whole(flag, value, 0);
        break;
      case '--strict-affinity':
        if (value !== 'true' && value !== 'false') throw new SimConfigError(`--what-if --strict-affinity needs true or false, got ${JSON.stringify(value)}`);
        change.strictAffinity = value === 'true';
        break;
      case '--disable-pool':
        if (value === undefined) throw new SimConfigError('--what-if --disable-pool needs a pool name');
        change.disablePools = [...(change.disablePools ?? []), value];
        break;
      default:
        throw new SimConfigError(
          `--what-if does not replay ${JSON.stringify(flag)}: use --add-nodes, --pods-per-node, --block-size, --max-blocks-per-host, --strict-affinity or --disable-pool`,
        );
    }
    lines.push(`${flag} ${value ?? ''}`);
  }
  if (lines.length === 0) throw new SimConfigError('--what-if needs at least one change');
  return { change, podsPerNode, lines };
}
