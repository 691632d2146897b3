import { IpamError, type Datastore, type ErrorCategory } from '@ipamkit/models';
import { messageOf } from '../errors.js';
import type { PlannedWrite, ResourceAction } from './kind-ops.js';
import type { ResourceKind, V3Document } from './resource-handler.js';
import { allKindOps, kindOfArgument, kindOfDocument } from './resource-kinds.js';

const PAST: Readonly<Record<ResourceAction, string>> = { create: 'created', apply: 'applied', replace: 'replaced', delete: 'deleted' };

/**
 * A create/apply/replace/delete that failed, worded as calicoctl words it (`Failed to apply
 * 'IPPool' resource: <why>`); the category is the cause's, so a conflict stays transient.
 */
export class ResourceCommandError extends IpamError {
  override name = 'ResourceCommandError';
  readonly category: ErrorCategory;
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.category = cause instanceof IpamError ? cause.category : 'transient';
  }
}

function kindsText(kinds: readonly ResourceKind[]): string {
  const distinct = [...new Set(kinds)];
  return distinct.length === 1 && distinct[0] !== undefined ? ` '${distinct[0]}'` : '';
}

/** What a write command did, for `-o json` and the tests. */
export interface ManageResult {
  readonly action: ResourceAction;
  readonly resources: readonly { kind: ResourceKind; name: string }[];
}

async function writeAll(ds: Datastore, action: ResourceAction, plans: readonly PlannedWrite[]): Promise<void> {
  for (const [i, plan] of plans.entries()) {
    try {
      await plan.write(ds);
    } catch (err) {
      const kinds = kindsText(plans.map((p) => p.kind));
      const lead = i === 0 ? `Failed to ${action}${kinds} resource(s)` : `Partial success: ${PAST[action]} the first ${i} out of ${plans.length}${kinds} resources; hit error on ${plan.kind}(${plan.name})`;
      throw new ResourceCommandError(`${lead}: ${messageOf(err)}`, err);
    }
  }
}

/**
 * Plans every document first (decoding, Calico's validation, existence and revision checks against
 * the datastore and the earlier documents), so bad input writes nothing; then writes in file order.
 */
export async function manageResources(ds: Datastore, action: ResourceAction, docs: readonly V3Document[], source: string): Promise<ManageResult> {
  const ops = allKindOps();
  const plans: PlannedWrite[] = [];
  for (const [i, doc] of docs.entries()) {
    const where = docs.length > 1 ? `${source}, resource ${i + 1}` : source;
    const kind = kindOfDocument(doc, where);
    const op = ops.get(kind);
    if (op === undefined) throw new ResourceCommandError(`Failed to ${action} '${kind}' resource: unsupported kind`, undefined);
    try {
      plans.push(await op.plan(action, doc, ds, where));
    } catch (err) {
      throw new ResourceCommandError(`Failed to ${action} '${kind}' resource: ${messageOf(err)}`, err);
    }
  }
  await writeAll(ds, action, plans);
  return { action, resources: plans.map((p) => ({ kind: p.kind, name: p.name })) };
}

/** `delete <kind> <name>`. */
export async function deleteByName(ds: Datastore, kindArgument: string, name: string): Promise<ManageResult> {
  const op = kindOfArgument(allKindOps(), kindArgument);
  let plan: PlannedWrite;
  try {
    plan = await op.planDeleteByName(name, ds);
  } catch (err) {
    throw new ResourceCommandError(`Failed to delete '${op.kind}' resource: ${messageOf(err)}`, err);
  }
  await writeAll(ds, 'delete', [plan]);
  return { action: 'delete', resources: [{ kind: plan.kind, name: plan.name }] };
}

/** calicoctl's summary line: `Successfully applied 2 'IPPool' resource(s)`. */
export function renderManaged(result: ManageResult): string {
  const kinds = kindsText(result.resources.map((r) => r.kind));
  return `Successfully ${PAST[result.action]} ${result.resources.length}${kinds} resource(s)\n`;
}
