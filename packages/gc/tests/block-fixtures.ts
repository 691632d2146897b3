import type { AllocationBlock, Versioned } from '@ipamkit/models';
import { cidrSize, parseCidr } from '@ipamkit/models';

export interface FixtureAllocation {
  readonly ordinal: number;
  readonly handle?: string;
  readonly attrs?: Record<string, string>;
  readonly seq?: bigint;
  readonly releasedAt?: string;
}

let revision = 0;

/** A stored block built by hand, for feeding the state tracker directly. */
export function makeBlock(args: { cidr: string; host?: string; allocations?: readonly FixtureAllocation[] }): Versioned<AllocationBlock> {
  const size = Number(cidrSize(parseCidr(args.cidr)));
  const allocations: (number | null)[] = new Array<number | null>(size).fill(null);
  const attributes: AllocationBlock['attributes'] = [];
  const sequenceNumberForAllocation: Record<string, bigint> = {};
  for (const a of args.allocations ?? []) {
    allocations[a.ordinal] = attributes.length;
    attributes.push({
      ...(a.handle === undefined ? {} : { handleId: a.handle }),
      ...(a.attrs === undefined ? {} : { activeOwnerAttrs: a.attrs }),
      ...(a.releasedAt === undefined ? {} : { releasedAt: a.releasedAt }),
    });
    sequenceNumberForAllocation[String(a.ordinal)] = a.seq ?? 1n;
  }
  revision++;
  return {
    cidr: args.cidr,
    ...(args.host === undefined ? {} : { affinity: { type: 'host' as const, host: args.host } }),
    allocations,
    unallocated: allocations.flatMap((x, i) => (x === null ? [i] : [])),
    attributes,
    sequenceNumber: 100n,
    sequenceNumberForAllocation,
    deleted: false,
    revision: String(revision),
  };
}
