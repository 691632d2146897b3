import { CodecError } from '../errors.js';
import type { BlockAffinity } from '../resources/block-affinity.js';
import type { IPAMConfig } from '../resources/ipam-config.js';
import type { IPAMHandle } from '../resources/ipam-handle.js';
import { parseAffinityState } from './affinity-fields.js';
import { decodeBlockFields, encodeBlockFields } from './block-fields.js';
import { writeEtcdBlockJson } from './etcd-block-json.js';
import {
  etcdKeyForAffinity,
  etcdKeyForBlock,
  etcdKeyForHandle,
  etcdKeyForIPAMConfig,
  etcdKeyForIPPool,
  etcdKeyForIPReservation,
  parseEtcdKey,
} from './etcd-keys.js';
import { type JsonObject, asCount, asObject, codecFail, optBool, optCount, optString, putDefined, sortedMap } from './field-readers.js';
import { ipPoolCodec } from './ip-pool-codec.js';
import { ipReservationCodec } from './ip-reservation-codec.js';
import { decodeHandleFields, encodeHandleFields, parseKubeVirtMode } from './ipam-crd-codecs.js';
import type { KubeObject } from './kube-object.js';
import { type EtcdEntry, type WireKind, type WireModel, isWireKind } from './wire-kind.js';
import { parseWireJson } from './wire-json-parse.js';
import { stringifyWireJson } from './wire-json-stringify.js';

/** Names the key in every error, since an etcd value alone does not say what it is. */
function withKey<T>(key: string, body: () => T): T {
  try {
    return body();
  } catch (err) {
    if (err instanceof CodecError) throw new CodecError(`etcd key ${key}: ${err.message}`, { cause: err });
    throw err;
  }
}

/** Go zero values for omitted fields: every config field is `omitempty` in etcd (design/calico-stored-formats.md#etcdv3-layout). */
function decodeConfig(obj: JsonObject): IPAMConfig {
  const config: IPAMConfig = {
    strictAffinity: optBool(obj, 'strict_affinity', 'value') ?? false,
    autoAllocateBlocks: optBool(obj, 'auto_allocate_blocks', 'value') ?? false,
    maxBlocksPerHost: optCount(obj, 'maxBlocksPerHost', 'value') ?? 0,
    ipCooldownSeconds: optCount(obj, 'ipCooldownSeconds', 'value') ?? 0,
  };
  putDefined(config, 'kubeVirtVMAddressPersistence', parseKubeVirtMode(optString(obj, 'kubeVirtVMAddressPersistence', 'value'), 'value.kubeVirtVMAddressPersistence'));
  return config;
}

function encodeConfig(config: IPAMConfig): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (config.strictAffinity) out.set('strict_affinity', true);
  if (config.autoAllocateBlocks) out.set('auto_allocate_blocks', true);
  if (asCount(config.maxBlocksPerHost, 'maxBlocksPerHost') > 0) out.set('maxBlocksPerHost', config.maxBlocksPerHost);
  if (config.kubeVirtVMAddressPersistence !== undefined) out.set('kubeVirtVMAddressPersistence', config.kubeVirtVMAddressPersistence);
  if (asCount(config.ipCooldownSeconds, 'ipCooldownSeconds') > 0) out.set('ipCooldownSeconds', config.ipCooldownSeconds);
  return out;
}

/** v3 resources in etcd: the revision is the key's ModRevision, never a field of the value. */
function resourceValue(object: KubeObject): Map<string, unknown> {
  const { resourceVersion: _dropped, ...metadata } = object.metadata;
  const out = new Map<string, unknown>([
    ['kind', object.kind],
    ['apiVersion', object.apiVersion],
    ['metadata', metadata],
    ['spec', object.spec],
  ]);
  if (object.status !== undefined) out.set('status', object.status);
  return out;
}

function checkName(fromKey: string, fromValue: string): void {
  if (fromKey !== fromValue) codecFail('value.metadata.name', `${JSON.stringify(fromValue)} does not match the key`);
}

function withoutRevision<T extends { revision?: string }>(model: T): Omit<T, 'revision'> {
  const { revision: _dropped, ...rest } = model;
  return rest;
}

/**
 * Decodes one etcd entry of Calico's layout (design/calico-stored-formats.md#etcdv3-layout). Affinity rows with an empty value (very old data)
 * read as state "" and not deleted. Node keys are not a WireKind: use decodeEtcdNode.
 */
export function decodeEtcd(key: string, value: string): EtcdEntry {
  return withKey(key, (): EtcdEntry => {
    const target = parseEtcdKey(key);
    if (target.kind === 'BlockAffinity') {
      const obj = value === '' ? {} : asObject(parseWireJson(value), 'value');
      const model: BlockAffinity = { ...target.key, state: parseAffinityState(obj.state, 'value.state'), deleted: optBool(obj, 'deleted', 'value') ?? false };
      return { kind: 'BlockAffinity', model };
    }
    if (target.kind === 'Node' || target.kind === 'IPAMHost') {
      return codecFail('key', `${target.kind} keys are not wire-kind entries (see decodeEtcdNode)`);
    }
    const parsed = parseWireJson(value);
    switch (target.kind) {
      case 'IPAMBlock': {
        const model = decodeBlockFields(parsed, 'etcd', 'value');
        if (model.cidr !== target.cidr) codecFail('value.cidr', `${model.cidr} does not match the key's ${target.cidr}`);
        return { kind: 'IPAMBlock', model };
      }
      case 'IPAMHandle':
        return { kind: 'IPAMHandle', model: decodeHandleFields(asObject(parsed, 'value'), target.handleId, 'value') };
      case 'IPAMConfig':
        return { kind: 'IPAMConfig', model: decodeConfig(asObject(parsed, 'value')) };
      case 'IPPool': {
        const model = withoutRevision(ipPoolCodec.decode(parsed, 'v3'));
        checkName(target.name, model.name);
        return { kind: 'IPPool', model };
      }
      case 'IPReservation': {
        const model = withoutRevision(ipReservationCodec.decode(parsed, 'v3'));
        checkName(target.name, model.name);
        return { kind: 'IPReservation', model };
      }
    }
  });
}

/** Encodes a model as Calico's etcd key and value; IPAM values are byte-compatible with Go's. */
export function encodeEtcd<K extends WireKind>(kind: K, model: WireModel<K>): { key: string; value: string } {
  if (!isWireKind(kind)) codecFail('kind', `${JSON.stringify(kind)} is not a wire kind`);
  const entry = { kind, model } as EtcdEntry;
  switch (entry.kind) {
    case 'IPAMBlock': {
      const key = etcdKeyForBlock(entry.model.cidr);
      // The direct writer declines only what the general path writes otherwise (design/models.md, "The etcd block writer").
      return { key, value: writeEtcdBlockJson(entry.model, 'value') ?? stringifyWireJson(encodeBlockFields(entry.model, 'etcd', 'value')) };
    }
    case 'BlockAffinity':
      return {
        key: etcdKeyForAffinity(entry.model),
        value: stringifyWireJson(new Map<string, unknown>([['state', entry.model.state], ['deleted', entry.model.deleted]])),
      };
    case 'IPAMHandle': {
      const handle: IPAMHandle = entry.model;
      const fields = encodeHandleFields(handle, 'value');
      const value = new Map<string, unknown>([['block', sortedMap(fields.block)], ['deleted', fields.deleted]]);
      return { key: etcdKeyForHandle(handle.handleId), value: stringifyWireJson(value) };
    }
    case 'IPAMConfig':
      return { key: etcdKeyForIPAMConfig(), value: stringifyWireJson(encodeConfig(entry.model)) };
    case 'IPPool':
      return { key: etcdKeyForIPPool(entry.model.name), value: stringifyWireJson(resourceValue(ipPoolCodec.encode(entry.model, 'v3'))) };
    case 'IPReservation':
      return {
        key: etcdKeyForIPReservation(entry.model.name),
        value: stringifyWireJson(resourceValue(ipReservationCodec.encode(entry.model, 'v3'))),
      };
  }
}
