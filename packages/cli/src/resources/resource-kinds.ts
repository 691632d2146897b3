import { CliUsageError } from '../errors.js';
import { ipPoolHandler } from './ip-pool-handler.js';
import { ipReservationHandler } from './ip-reservation-handler.js';
import { ipamConfigHandler } from './ipam-config-handler.js';
import { nodeHandler } from './node-handler.js';
import { ResourceDocumentError } from './resource-errors.js';
import type { ResourceKind } from './resource-handler.js';
import { kindOps, type KindOps } from './kind-ops.js';

/** Fresh per-command state for every kind (each tracks what the earlier documents of a file did). */
export function allKindOps(): ReadonlyMap<ResourceKind, KindOps> {
  return new Map<ResourceKind, KindOps>([
    ['IPPool', kindOps(ipPoolHandler)],
    ['IPReservation', kindOps(ipReservationHandler)],
    ['IPAMConfiguration', kindOps(ipamConfigHandler)],
    ['Node', kindOps(nodeHandler)],
  ]);
}

const KINDS: readonly ResourceKind[] = ['IPPool', 'IPReservation', 'IPAMConfiguration', 'Node'];

/** The kind a document declares; anything else (a typo, a kind this CLI does not manage) is refused. */
export function kindOfDocument(doc: Record<string, unknown>, where: string): ResourceKind {
  const kind = doc.kind;
  const found = KINDS.find((k) => k === kind);
  if (found === undefined) {
    throw new ResourceDocumentError(`${where}: kind ${JSON.stringify(kind)} is not one of ${KINDS.join(', ')}`);
  }
  return found;
}

/** The kind `get <kind>` names, by calicoctl's names and short names, any case. */
export function kindOfArgument(ops: ReadonlyMap<ResourceKind, KindOps>, argument: string): KindOps {
  const wanted = argument.toLowerCase();
  for (const op of ops.values()) if (op.aliases.includes(wanted)) return op;
  throw new CliUsageError(`resource type ${JSON.stringify(argument)} is not supported: use ippool, ipreservation, ipamconfiguration or node`);
}
