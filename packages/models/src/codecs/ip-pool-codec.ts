import type { IntendedUse } from '../resources/intended-use.js';
import type { AssignmentMode, EncapsulationMode, IPPool, PoolCondition, WireUnknownFields } from '../resources/ip-pool.js';
import { applyIPPoolDefaults } from '../validation/ip-pool-defaults.js';
import {
  type JsonObject,
  asObject,
  codecFail,
  optArray,
  optBool,
  optCount,
  optObject,
  optString,
  putDefined,
  reqString,
  unknownEntries,
} from './field-readers.js';
import type { CrdCodec } from './ipam-crd-codecs.js';
import { metaOf } from './ipam-crd-codecs.js';
import { CALICO_METADATA_ANNOTATION, readKubeObject, readName, writeKubeObject } from './kube-object.js';
import { wireCidr } from './wire-cidr.js';

// Wire order of the spec fields we model; unknown fields follow them on write.
const SPEC_FIELDS = [
  'cidr', 'blockSize', 'ipipMode', 'vxlanMode', 'natOutgoing', 'disabled', 'disableBGPExport',
  'nodeSelector', 'namespaceSelector', 'allowedUses', 'assignmentMode',
] as const;
const MODELLED_METADATA = ['name', 'resourceVersion', 'uid', 'labels', 'deletionTimestamp'];

function oneOf<T extends string>(allowed: readonly T[], value: string | undefined, path: string): T | undefined {
  if (value === undefined) return undefined;
  const found = allowed.find((a) => a === value);
  if (found === undefined) codecFail(path, `${JSON.stringify(value)} is not one of ${allowed.join(', ')}`);
  return found;
}

const MODES: readonly EncapsulationMode[] = ['Never', 'Always', 'CrossSubnet'];
const ASSIGNMENT: readonly AssignmentMode[] = ['Automatic', 'Manual'];
const USES: readonly IntendedUse[] = ['Workload', 'Tunnel', 'LoadBalancer'];
const CONDITION_STATUS: readonly PoolCondition['status'][] = ['True', 'False', 'Unknown'];

function decodeCondition(value: unknown, path: string): PoolCondition {
  const obj = asObject(value, path);
  const status = oneOf(CONDITION_STATUS, reqString(obj, 'status', path), `${path}.status`) ?? 'Unknown';
  const condition: PoolCondition = { type: reqString(obj, 'type', path), status };
  for (const key of ['reason', 'message', 'lastTransitionTime'] as const) putDefined(condition, key, optString(obj, key, path));
  return condition;
}

/**
 * IPPool as stored in both KDD groups and in etcd (the v3 JSON; design/calico-stored-formats.md#ip-pools). Defaults are applied on
 * read as clientv3 does. Unlike IPAM objects, pools are user-owned: spec, status and metadata
 * fields we do not model round-trip through `unknownFields`, and user labels are kept.
 */
export const ipPoolCodec: CrdCodec<IPPool> = {
  decode(cr, group) {
    const { root, metadata, spec, meta, labels } = readKubeObject(cr, group, ['IPPool']);
    const pool: IPPool = { name: readName(metadata), cidr: wireCidr(reqString(spec, 'cidr', 'spec'), 'spec.cidr') };
    putDefined(pool, 'blockSize', optCount(spec, 'blockSize', 'spec'));
    putDefined(pool, 'ipipMode', oneOf(MODES, optString(spec, 'ipipMode', 'spec') || undefined, 'spec.ipipMode'));
    putDefined(pool, 'vxlanMode', oneOf(MODES, optString(spec, 'vxlanMode', 'spec') || undefined, 'spec.vxlanMode'));
    for (const key of ['natOutgoing', 'disabled', 'disableBGPExport'] as const) putDefined(pool, key, optBool(spec, key, 'spec'));
    for (const key of ['nodeSelector', 'namespaceSelector'] as const) putDefined(pool, key, optString(spec, key, 'spec'));
    const uses = optArray(spec, 'allowedUses', 'spec');
    if (uses !== undefined) {
      pool.allowedUses = uses.map((u, i) => {
        const path = `spec.allowedUses[${i}]`;
        if (typeof u !== 'string') codecFail(path, 'expected a string');
        return oneOf(USES, u, path) ?? 'Workload';
      });
    }
    putDefined(pool, 'assignmentMode', oneOf(ASSIGNMENT, optString(spec, 'assignmentMode', 'spec') || undefined, 'spec.assignmentMode'));
    putDefined(pool, 'deletionTimestamp', optString(metadata, 'deletionTimestamp', 'metadata'));
    putDefined(pool, 'labels', labels);
    const status = optObject(root, 'status', '$');
    const conditions = status === undefined ? undefined : optArray(status, 'conditions', 'status');
    if (conditions !== undefined) pool.conditions = conditions.map((c, i) => decodeCondition(c, `status.conditions[${i}]`));
    putDefined(pool, 'unknownFields', poolUnknownFields(metadata, spec, status));
    return { ...applyIPPoolDefaults(pool), ...meta };
  },
  encode(pool, group) {
    const spec: JsonObject = {};
    const cidr = wireCidr(pool.cidr, 'spec.cidr');
    const values: Record<(typeof SPEC_FIELDS)[number], unknown> = {
      cidr,
      blockSize: pool.blockSize,
      ipipMode: pool.ipipMode,
      vxlanMode: pool.vxlanMode,
      natOutgoing: pool.natOutgoing,
      disabled: pool.disabled,
      disableBGPExport: pool.disableBGPExport,
      nodeSelector: pool.nodeSelector,
      namespaceSelector: pool.namespaceSelector,
      allowedUses: pool.allowedUses === undefined ? undefined : [...pool.allowedUses],
      assignmentMode: pool.assignmentMode,
    };
    for (const key of SPEC_FIELDS) putDefined(spec, key, values[key]);
    for (const [key, value] of Object.entries(pool.unknownFields?.spec ?? {})) {
      if (!(SPEC_FIELDS as readonly string[]).includes(key)) spec[key] = value;
    }
    const extraStatus = pool.unknownFields?.status ?? {};
    const status = pool.conditions === undefined ? { ...extraStatus } : { ...extraStatus, conditions: pool.conditions.map((c) => ({ ...c })) };
    const extraMetadata: JsonObject = { ...(pool.unknownFields?.metadata ?? {}) };
    putDefined(extraMetadata, 'deletionTimestamp', pool.deletionTimestamp);
    return writeKubeObject({
      group,
      kind: 'IPPool',
      name: pool.name,
      meta: metaOf(pool),
      spec,
      labels: pool.labels,
      extraMetadata,
      status: Object.keys(status).length === 0 ? undefined : status,
    });
  },
};

function poolUnknownFields(metadata: JsonObject, spec: JsonObject, status: JsonObject | undefined): WireUnknownFields | undefined {
  const out: WireUnknownFields = {};
  const meta = unknownEntries(metadata, MODELLED_METADATA);
  // The v1 metadata annotation is rebuilt from the model on write; keeping a stale copy would let
  // its labels override the model's on the next read.
  const annotations = meta?.annotations;
  if (meta !== undefined && typeof annotations === 'object' && annotations !== null) {
    const kept = Object.fromEntries(Object.entries(annotations).filter(([k]) => k !== CALICO_METADATA_ANNOTATION));
    if (Object.keys(kept).length === 0) delete meta.annotations;
    else meta.annotations = kept;
  }
  if (meta !== undefined && Object.keys(meta).length > 0) out.metadata = meta;
  putDefined(out, 'spec', unknownEntries(spec, SPEC_FIELDS));
  putDefined(out, 'status', status === undefined ? undefined : unknownEntries(status, ['conditions']));
  return Object.keys(out).length === 0 ? undefined : out;
}
