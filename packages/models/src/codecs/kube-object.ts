import { type JsonObject, asObject, codecFail, optString, optStringMap, reqString, sortedMap } from './field-readers.js';
import { parseWireJson } from './wire-json-parse.js';
import { stringifyWireJson } from './wire-json-stringify.js';

/** Which Kubernetes API group a CR belongs to (design/calico-stored-formats.md#backends-and-api-groups). */
export type CrdGroup = 'v1' | 'v3';

export const API_VERSION: Readonly<Record<CrdGroup, string>> = {
  v1: 'crd.projectcalico.org/v1',
  v3: 'projectcalico.org/v3',
};

/** The annotation where Calico's v1 client keeps its own ObjectMeta (design/calico-stored-formats.md#v1-metadata-translation). */
export const CALICO_METADATA_ANNOTATION = 'projectcalico.org/metadata';

/** A Kubernetes object as the codecs produce it. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: JsonObject;
  spec: JsonObject;
  status?: JsonObject;
}

/** What a decoded object carries besides its model: the store revision and the UID, when present. */
export interface WireMeta {
  revision?: string;
  uid?: string;
}

export interface ReadKubeObject {
  root: JsonObject;
  metadata: JsonObject;
  spec: JsonObject;
  meta: WireMeta;
  /** Labels from the Calico metadata annotation when present (v1), else from metadata.labels. */
  labels: Record<string, string> | undefined;
}

/**
 * Checks the envelope of a CR and splits it. `apiVersion`/`kind` may be absent (list items of
 * some clients lack them) but must match when present. The v1 metadata annotation is parsed (a
 * malformed one is an error) and wins over the real labels, as Calico's converter does.
 */
export function readKubeObject(value: unknown, group: CrdGroup, kinds: readonly string[]): ReadKubeObject {
  const obj = asObject(value, '$');
  const apiVersion = optString(obj, 'apiVersion', '$');
  if (apiVersion !== undefined && apiVersion !== API_VERSION[group]) {
    codecFail('apiVersion', `expected ${API_VERSION[group]}, got ${JSON.stringify(apiVersion)}`);
  }
  const kind = optString(obj, 'kind', '$');
  if (kind !== undefined && !kinds.includes(kind)) codecFail('kind', `expected ${kinds.join(' or ')}, got ${JSON.stringify(kind)}`);
  const metadata = asObject(obj.metadata ?? {}, 'metadata');
  const spec = asObject(obj.spec ?? {}, 'spec');
  const meta: WireMeta = {};
  const revision = optString(metadata, 'resourceVersion', 'metadata');
  if (revision !== undefined && revision !== '') meta.revision = revision;
  const uid = optString(metadata, 'uid', 'metadata');
  if (uid !== undefined && uid !== '') meta.uid = uid;
  let labels = optStringMap(metadata, 'labels', 'metadata');
  const annotations = optStringMap(metadata, 'annotations', 'metadata');
  const calicoMeta = annotations?.[CALICO_METADATA_ANNOTATION];
  if (group === 'v1' && calicoMeta !== undefined) {
    const field = `metadata.annotations[${JSON.stringify(CALICO_METADATA_ANNOTATION)}]`;
    let parsed: unknown;
    try {
      parsed = parseWireJson(calicoMeta);
    } catch (err) {
      return codecFail(field, `is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    const stored = optStringMap(asObject(parsed, field), 'labels', field);
    if (stored !== undefined) labels = stored;
  }
  return { root: obj, metadata, spec, meta, labels };
}

export function readName(metadata: JsonObject): string {
  const name = reqString(metadata, 'name', 'metadata');
  if (name === '') codecFail('metadata.name', 'must not be empty');
  return name;
}

export interface KubeObjectParts {
  group: CrdGroup;
  kind: string;
  name: string;
  meta: WireMeta;
  spec: JsonObject;
  labels?: Record<string, string> | undefined;
  /** Write the v1 metadata annotation as Calico's IPAM clients do (blocks, affinities, handles). */
  calicoAnnotation?: boolean;
  extraMetadata?: JsonObject | undefined;
  status?: JsonObject | undefined;
}

/** Builds a CR; in the v1 group the labels also go into the Calico metadata annotation (design/calico-stored-formats.md#v1-metadata-translation). */
export function writeKubeObject(parts: KubeObjectParts): KubeObject {
  const metadata: JsonObject = { ...(parts.extraMetadata ?? {}), name: parts.name };
  if (parts.meta.revision !== undefined) metadata.resourceVersion = parts.meta.revision;
  if (parts.meta.uid !== undefined) metadata.uid = parts.meta.uid;
  // Go (and so the API server) writes map keys sorted; doing the same keeps output byte-comparable.
  const labels = parts.labels === undefined || Object.keys(parts.labels).length === 0 ? undefined : sortedMap(parts.labels);
  if (labels !== undefined) metadata.labels = Object.fromEntries(labels);
  if (parts.group === 'v1' && parts.calicoAnnotation === true) {
    // ObjectMeta fields in Go struct order: creationTimestamp comes before labels.
    const stored = new Map<string, unknown>([['creationTimestamp', null]]);
    if (labels !== undefined) stored.set('labels', labels);
    metadata.annotations = { [CALICO_METADATA_ANNOTATION]: stringifyWireJson(stored) };
  }
  const out: KubeObject = { apiVersion: API_VERSION[parts.group], kind: parts.kind, metadata, spec: parts.spec };
  if (parts.status !== undefined) out.status = parts.status;
  return out;
}
