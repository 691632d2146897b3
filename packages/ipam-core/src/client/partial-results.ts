import type { IPAMAssignments, ReleaseOptions } from './client-types.js';

// AutoAssign and ReleaseIPs can fail after doing part of the work, and Calico returns both the
// partial result and the error. Inside the client the partial result travels explicitly (typed
// outcomes, design/ipam-core.md "AutoAssign flow"); only at the public boundary, where a rejected
// promise carries one value, is it attached to the error, to be read back with
// partialAutoAssignResult / partialReleaseResult.

export interface PartialAutoAssign {
  ipv4?: IPAMAssignments | undefined;
  ipv6?: IPAMAssignments | undefined;
}

export interface PartialRelease {
  unallocated: string[];
  released: ReleaseOptions[];
}

const autoAssigns = new WeakMap<object, PartialAutoAssign>();
const releases = new WeakMap<object, PartialRelease>();

function attach<V>(map: WeakMap<object, V>, err: unknown, value: V | undefined): unknown {
  if (typeof err === 'object' && err !== null && value !== undefined) map.set(err, value);
  return err;
}

function read<V>(map: WeakMap<object, V>, err: unknown): V | undefined {
  return typeof err === 'object' && err !== null ? map.get(err) : undefined;
}

export const withAutoAssignPartial = (err: unknown, value: PartialAutoAssign): unknown => attach(autoAssigns, err, value);
export const withReleasePartial = (err: unknown, value: PartialRelease): unknown => attach(releases, err, value);

/** What a failed AutoAssign had assigned (and left allocated) before it threw `err`. */
export function partialAutoAssignResult(err: unknown): PartialAutoAssign | undefined {
  return read(autoAssigns, err);
}

/** What a failed ReleaseIPs had released, and found already free, before it threw `err`. */
export function partialReleaseResult(err: unknown): PartialRelease | undefined {
  return read(releases, err);
}
