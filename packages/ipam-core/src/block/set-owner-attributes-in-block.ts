import { BadHandleError, IPInCooldownError, isRecord, NotFoundError, type AllocationBlock } from '@ipamkit/models';
import { InvalidBlockArgumentError, OwnerPreconditionError } from './block-errors.js';
import { cloneBlock, compactAttributes, frozenAttribute, sanitizeHandle } from './block-state.js';
import { ordinalOf } from './ordinals.js';

/** A pod identity as the `pod` and `namespace` owner attributes carry it. */
export interface AttributeOwner {
  namespace: string;
  name: string;
}

export interface OwnerAttributeUpdates {
  activeOwnerAttrs?: Record<string, string>;
  clearActiveOwner?: boolean;
  alternateOwnerAttrs?: Record<string, string>;
  clearAlternateOwner?: boolean;
}

export interface OwnerAttributePreconditions {
  expectedActiveOwner?: AttributeOwner;
  verifyActiveOwnerEmpty?: boolean;
  expectedAlternateOwner?: AttributeOwner;
  verifyAlternateOwnerEmpty?: boolean;
}

/** Whether owner attributes name `owner`; the empty owner matches only an empty or absent map. */
export function ownerMatches(owner: AttributeOwner, attrs: Record<string, string> | undefined): boolean {
  if (owner.name === '' && owner.namespace === '') return attrs === undefined || Object.keys(attrs).length === 0;
  return attrs?.pod === owner.name && attrs.namespace === owner.namespace;
}

function checkShape(updates: unknown, pre: unknown, bad: (message: string) => never): void {
  if (!isRecord(updates)) bad('owner attribute updates must be an object');
  const stringMap = (field: string, value: unknown): void => {
    if (value === undefined) return;
    if (!isRecord(value) || Object.values(value).some((v) => typeof v !== 'string')) bad(`${field} must map attribute names to strings`);
  };
  const flag = (field: string, value: unknown): void => {
    if (value !== undefined && typeof value !== 'boolean') bad(`${field} must be a boolean`);
  };
  const owner = (field: string, value: unknown): void => {
    if (value === undefined) return;
    if (!isRecord(value) || typeof value.namespace !== 'string' || typeof value.name !== 'string') bad(`${field} must be { namespace, name } strings`);
  };
  stringMap('activeOwnerAttrs', updates.activeOwnerAttrs);
  stringMap('alternateOwnerAttrs', updates.alternateOwnerAttrs);
  flag('clearActiveOwner', updates.clearActiveOwner);
  flag('clearAlternateOwner', updates.clearAlternateOwner);
  if (pre === undefined) return;
  if (!isRecord(pre)) bad('owner attribute preconditions must be an object');
  owner('expectedActiveOwner', pre.expectedActiveOwner);
  owner('expectedAlternateOwner', pre.expectedAlternateOwner);
  flag('verifyActiveOwnerEmpty', pre.verifyActiveOwnerEmpty);
  flag('verifyAlternateOwnerEmpty', pre.verifyAlternateOwnerEmpty);
}

/**
 * Rejects malformed and contradictory requests (design/ipam-core.md, "Owner attributes") with
 * InvalidBlockArgumentError, a ValidationError: the arguments come from callers in plain JS too, so
 * a missing `updates` object is a clear error rather than a TypeError.
 */
export function validateOwnerAttributeUpdates(updates: OwnerAttributeUpdates, pre: OwnerAttributePreconditions = {}): void {
  const bad = (message: string): never => {
    throw new InvalidBlockArgumentError(message);
  };
  checkShape(updates, pre, bad);
  if (updates.clearActiveOwner === true && updates.activeOwnerAttrs !== undefined) bad('cannot both set and clear the active owner');
  if (updates.clearAlternateOwner === true && updates.alternateOwnerAttrs !== undefined) bad('cannot both set and clear the alternate owner');
  if (pre.expectedActiveOwner !== undefined && pre.verifyActiveOwnerEmpty === true) bad('cannot expect an active owner and verify it is empty');
  if (pre.expectedAlternateOwner !== undefined && pre.verifyAlternateOwnerEmpty === true) bad('cannot expect an alternate owner and verify it is empty');
}

function describe(attrs: Record<string, string> | undefined): string {
  return `pod=${attrs?.pod ?? ''} namespace=${attrs?.namespace ?? ''}`;
}

export interface SetOwnerAttributesInBlockArgs {
  ip: string;
  handleId: string;
  updates: OwnerAttributeUpdates;
  preconditions?: OwnerAttributePreconditions | undefined;
}

/**
 * Sets or clears the active/alternate owner of one allocation (design/calico-ipam.md#setownerattributes). Calico edits
 * the attribute entry in place, which silently changes every ordinal sharing it; we give the
 * ordinal its own copy (copy-on-write) and compact, so only the named address changes.
 * Throws NotFoundError (unassigned), IPInCooldownError, BadHandleError (another handle, Calico's
 * message), OwnerPreconditionError (a precondition failed, a ConflictError), InvalidBlockArgumentError.
 */
export function setOwnerAttributesInBlock(block: AllocationBlock, args: SetOwnerAttributesInBlockArgs): { block: AllocationBlock } {
  const { updates, preconditions: pre = {} } = args;
  validateOwnerAttributeUpdates(updates, pre);
  const ordinal = ordinalOf(block, args.ip);
  const index = block.allocations[ordinal];
  const attribute = index === null || index === undefined ? undefined : block.attributes[index];
  if (attribute === undefined) throw new NotFoundError(args.ip, `IP ${args.ip} is unassigned`);
  if (attribute.releasedAt !== undefined) throw new IPInCooldownError(args.ip);
  const stored = sanitizeHandle(attribute.handleId);
  if (stored !== sanitizeHandle(args.handleId)) {
    throw new BadHandleError(args.handleId, stored, args.ip, `IP ${args.ip} is not assigned to handle ${args.handleId}`);
  }

  const check = (field: 'activeOwnerAttrs' | 'alternateOwnerAttrs', expected: AttributeOwner | undefined): void => {
    if (expected !== undefined && !ownerMatches(expected, attribute[field])) {
      throw new OwnerPreconditionError(
        args.ip,
        field,
        `expected pod=${expected.name} namespace=${expected.namespace} but found ${describe(attribute[field])}`,
      );
    }
  };
  const empty: AttributeOwner = { namespace: '', name: '' };
  const activeChanges = updates.activeOwnerAttrs !== undefined || updates.clearActiveOwner === true;
  const alternateChanges = updates.alternateOwnerAttrs !== undefined || updates.clearAlternateOwner === true;
  if (activeChanges) check('activeOwnerAttrs', pre.verifyActiveOwnerEmpty === true ? empty : pre.expectedActiveOwner);
  if (alternateChanges) check('alternateOwnerAttrs', pre.verifyAlternateOwnerEmpty === true ? empty : pre.expectedAlternateOwner);

  const next = cloneBlock(block);
  const own = { ...attribute };
  if (updates.clearActiveOwner === true) delete own.activeOwnerAttrs;
  else if (updates.activeOwnerAttrs !== undefined) own.activeOwnerAttrs = updates.activeOwnerAttrs;
  if (updates.clearAlternateOwner === true) delete own.alternateOwnerAttrs;
  else if (updates.alternateOwnerAttrs !== undefined) own.alternateOwnerAttrs = updates.alternateOwnerAttrs;
  next.attributes.push(frozenAttribute(own));
  next.allocations[ordinal] = next.attributes.length - 1;
  compactAttributes(next);
  return { block: next };
}
