import type { AllocationBlock } from '../resources/allocation-block.js';
import type { BlockAffinity } from '../resources/block-affinity.js';
import type { IPAMConfig, KubeVirtVMAddressPersistence } from '../resources/ipam-config.js';
import type { IPAMHandle } from '../resources/ipam-handle.js';
import { affinityLabels } from '../net/affinity-labels.js';
import { blockAffinityName } from '../net/block-affinity-name.js';
import { cidrToName } from '../net/cidr-to-name.js';
import { definedFields } from '../defined-fields.js';
import { applyIPAMConfigDefaults } from '../validation/ipam-config-defaults.js';
import { parseAffinityState, parseAffinityType, parseLenientBool } from './affinity-fields.js';
import { decodeBlockFields, encodeBlockFields } from './block-fields.js';
import { asCount, codecFail, optBool, optCount, optObject, optString, reqString } from './field-readers.js';
import { type CrdGroup, type KubeObject, type WireMeta, readKubeObject, readName, writeKubeObject } from './kube-object.js';
import { wireCidr } from './wire-cidr.js';

/** A CR codec for one kind, parameterised by API group. */
export interface CrdCodec<T> {
  decode(cr: unknown, group: CrdGroup): T & WireMeta;
  encode(model: T & WireMeta, group: CrdGroup): KubeObject;
}

// Calico rebuilds ObjectMeta on every IPAM write, so only name, revision and UID survive (design/calico-stored-formats.md#affinities, design/calico-stored-formats.md#v1-metadata-translation).

export const blockCrdCodec: CrdCodec<AllocationBlock> = {
  decode(cr, group) {
    const { spec, meta } = readKubeObject(cr, group, ['IPAMBlock']);
    return { ...decodeBlockFields(spec, 'kdd', 'spec'), ...meta };
  },
  encode(block, group) {
    const spec = encodeBlockFields(block, 'kdd', 'spec');
    return writeKubeObject({ group, kind: 'IPAMBlock', name: cidrToName(spec.cidr as string), meta: metaOf(block), spec, calicoAnnotation: true });
  },
};

export const affinityCrdCodec: CrdCodec<BlockAffinity> = {
  decode(cr, group) {
    const { spec, meta } = readKubeObject(cr, group, ['BlockAffinity']);
    const deleted = group === 'v1' ? parseLenientBool(spec.deleted, 'spec.deleted') : (optBool(spec, 'deleted', 'spec') ?? false);
    return {
      host: nonEmpty(reqString(spec, 'node', 'spec'), 'spec.node'),
      type: parseAffinityType(spec.type, 'spec.type'),
      cidr: wireCidr(reqString(spec, 'cidr', 'spec'), 'spec.cidr'),
      state: parseAffinityState(spec.state, 'spec.state'),
      deleted,
      ...meta,
    };
  },
  encode(affinity, group) {
    const cidr = wireCidr(affinity.cidr, 'spec.cidr');
    const spec = {
      state: affinity.state,
      node: affinity.host,
      type: affinity.type,
      cidr,
      deleted: group === 'v1' ? String(affinity.deleted) : affinity.deleted,
    };
    return writeKubeObject({
      group,
      kind: 'BlockAffinity',
      name: blockAffinityName(affinity.host, cidr),
      meta: metaOf(affinity),
      spec,
      labels: affinityLabels({ host: affinity.host, type: affinity.type, cidr }),
      calicoAnnotation: true,
    });
  },
};

export const handleCrdCodec: CrdCodec<IPAMHandle> = {
  decode(cr, group) {
    const { spec, meta } = readKubeObject(cr, group, ['IPAMHandle']);
    return { ...decodeHandleFields(spec, reqString(spec, 'handleID', 'spec'), 'spec'), ...meta };
  },
  encode(handle, group) {
    const spec = { handleID: handle.handleId, ...encodeHandleFields(handle, 'spec') };
    // Names are lower-cased, so IDs differing only in case share one object (design/calico-stored-formats.md#handles).
    return writeKubeObject({ group, kind: 'IPAMHandle', name: handle.handleId.toLowerCase(), meta: metaOf(handle), spec, calicoAnnotation: true });
  },
};

/** A handle's per-block counts, each CIDR and count checked, both ways (`path` names the field in errors). */
function blockCounts(block: Readonly<Record<string, unknown>>, path: string): Record<string, number> {
  return Object.fromEntries(
    Object.entries(block).map(([cidr, count]): [string, number] => {
      const field = `${path}.block[${JSON.stringify(cidr)}]`;
      return [wireCidr(cidr, field), asCount(count, field)];
    }),
  );
}

export function decodeHandleFields(obj: Record<string, unknown>, handleId: string, path: string): IPAMHandle {
  if (handleId === '') codecFail(`${path}.handleID`, 'must not be empty');
  return { handleId, block: blockCounts(optObject(obj, 'block', path) ?? {}, path), deleted: optBool(obj, 'deleted', path) ?? false };
}

export function encodeHandleFields(handle: IPAMHandle, path: string): { block: Record<string, number>; deleted: boolean } {
  return { block: blockCounts(handle.block, path), deleted: handle.deleted };
}

const CONFIG_KIND: Readonly<Record<CrdGroup, string>> = { v1: 'IPAMConfig', v3: 'IPAMConfiguration' };

export function parseKubeVirtMode(value: unknown, path: string): KubeVirtVMAddressPersistence | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (value === 'Enabled' || value === 'Disabled') return value;
  return codecFail(path, `${JSON.stringify(value)} is not Enabled or Disabled`);
}

export const ipamConfigCrdCodec: CrdCodec<IPAMConfig> = {
  decode(cr, group) {
    const { metadata, spec, meta } = readKubeObject(cr, group, [CONFIG_KIND[group]]);
    if (readName(metadata) !== 'default') codecFail('metadata.name', 'the IPAM configuration must be named "default"');
    const partial: Partial<IPAMConfig> = definedFields({
      strictAffinity: optBool(spec, 'strictAffinity', 'spec'),
      autoAllocateBlocks: optBool(spec, 'autoAllocateBlocks', 'spec'),
      maxBlocksPerHost: optCount(spec, 'maxBlocksPerHost', 'spec'),
      ipCooldownSeconds: optCount(spec, 'ipCooldownSeconds', 'spec'),
      kubeVirtVMAddressPersistence: parseKubeVirtMode(optString(spec, 'kubeVirtVMAddressPersistence', 'spec'), 'spec.kubeVirtVMAddressPersistence'),
    });
    // The CRD schemas make the booleans required / defaulted, so a missing one reads as its default.
    return { ...applyIPAMConfigDefaults(partial), ...meta };
  },
  encode(config, group) {
    const spec: Record<string, unknown> = {
      strictAffinity: config.strictAffinity,
      autoAllocateBlocks: config.autoAllocateBlocks,
      maxBlocksPerHost: asCount(config.maxBlocksPerHost, 'spec.maxBlocksPerHost'),
    };
    if (config.kubeVirtVMAddressPersistence !== undefined) spec.kubeVirtVMAddressPersistence = config.kubeVirtVMAddressPersistence;
    spec.ipCooldownSeconds = asCount(config.ipCooldownSeconds, 'spec.ipCooldownSeconds');
    return writeKubeObject({ group, kind: CONFIG_KIND[group], name: 'default', meta: metaOf(config), spec });
  },
};

export function metaOf(model: WireMeta): WireMeta {
  const meta: WireMeta = {};
  if (model.revision !== undefined) meta.revision = model.revision;
  if (model.uid !== undefined) meta.uid = model.uid;
  return meta;
}

function nonEmpty(text: string, path: string): string {
  if (text === '') codecFail(path, 'must not be empty');
  return text;
}
