import { randomUUID } from 'node:crypto';
import { isJsonObject, stringifyLosslessJson, type JsonValue } from './lossless-json.js';
import { labelsOf, metadataErrors, metadataOf, nameErrors, nowTimestamp, textOf, type NameRule } from './object-meta.js';
import type { KubeObject, ObjectStore } from './object-store.js';
import { ResourceVersionExpiredError } from './object-store.js';
import { applyJsonPatch, applyMergePatch } from './patch.js';
import { matchesLabels, parseLabelSelector, LabelSelectorError, type LabelRequirement } from './label-selector.js';
import { apiVersionOf, qualifiedResource, type ResourceType } from './resource-types.js';
import { validateAgainstSchema } from './schema-validator.js';
import { KubeStatusError, statusErrors, type ResourceRef } from './status.js';

export function collectionOf(type: ResourceType): string {
  return `${type.group}/${type.plural}`;
}

export function objectKey(type: ResourceType, namespace: string | undefined, name: string): string {
  return `${collectionOf(type)}/${namespace ?? ''}/${name}`;
}

const NAME_RULES: Record<string, NameRule> = { namespaces: 'label', services: 'label1035' };

function canonical(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(canonical);
  if (!isJsonObject(v)) return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k] ?? null)]));
}

/** Semantic equality (key order ignored): a write that changes nothing keeps its resourceVersion. */
function same(a: JsonValue, b: JsonValue): boolean {
  return stringifyLosslessJson(canonical(a)) === stringifyLosslessJson(canonical(b));
}

export function parseSelector(text: string | null): LabelRequirement[] {
  try {
    return text === null ? [] : parseLabelSelector(text);
  } catch (err) {
    if (err instanceof LabelSelectorError) throw statusErrors.badRequest(`unable to parse requirement: ${err.message}`);
    throw err;
  }
}

/** `metadata.name=x` / `metadata.namespace=y` field selectors (the only ones every type supports). */
export function fieldSelectorMatcher(text: string | null): (obj: KubeObject) => boolean {
  if (text === null || text === '') return () => true;
  const terms = text.split(',').map((term) => {
    const m = /^(metadata\.name|metadata\.namespace)(==|=|!=)(.*)$/.exec(term.trim());
    if (m === null) throw statusErrors.badRequest(`field label not supported: ${term}`);
    return { field: m[1] === 'metadata.name' ? 'name' : 'namespace', negate: m[2] === '!=', value: m[3] ?? '' };
  });
  return (obj) => terms.every((t) => (textOf(metadataOf(obj)[t.field]) === t.value) !== t.negate);
}

export function matchesSelectors(obj: KubeObject, labels: readonly LabelRequirement[], fields: (obj: KubeObject) => boolean): boolean {
  return matchesLabels(labels, labelsOf(obj)) && fields(obj);
}

/** The five verbs on one resource type, against the shared store; every failure is a KubeStatusError. */
export class ResourceHandlers {
  constructor(private readonly store: ObjectStore) {}

  private ref(type: ResourceType, name: string): ResourceRef {
    return { group: type.group, kind: type.plural, name, qualified: qualifiedResource(type) };
  }

  get(type: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const obj = this.store.get(objectKey(type, namespace, name));
    if (obj === undefined) throw statusErrors.notFound(this.ref(type, name));
    return obj;
  }

  list(type: ResourceType, namespace: string | undefined, query: URLSearchParams): KubeObject {
    const labels = parseSelector(query.get('labelSelector'));
    const fields = fieldSelectorMatcher(query.get('fieldSelector'));
    const limit = Number(query.get('limit') ?? '0');
    const token = query.get('continue');
    let rv = this.store.currentRevision;
    let after = '';
    if (token !== null && token !== '') {
      try {
        const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { rv: string; after: string };
        rv = BigInt(parsed.rv);
        after = parsed.after;
      } catch {
        throw statusErrors.badRequest('continue key is not valid');
      }
    }
    let rows;
    try {
      rows = this.store.snapshot(collectionOf(type), rv);
    } catch (err) {
      if (err instanceof ResourceVersionExpiredError) {
        throw statusErrors.gone('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.');
      }
      throw err;
    }
    const nsPrefix = namespace === undefined ? undefined : `${collectionOf(type)}/${namespace}/`;
    const matching = rows.filter(({ key, object }) => key > after && (nsPrefix === undefined || key.startsWith(nsPrefix)) && matchesSelectors(object, labels, fields));
    const page = limit > 0 ? matching.slice(0, limit) : matching;
    const rest = matching.length - page.length;
    const last = page[page.length - 1];
    const metadata: KubeObject = { resourceVersion: rv.toString() };
    if (rest > 0 && last !== undefined) {
      metadata['continue'] = Buffer.from(JSON.stringify({ rv: rv.toString(), after: last.key })).toString('base64url');
      metadata['remainingItemCount'] = rest;
    }
    return { apiVersion: apiVersionOf(type), kind: `${type.kind}List`, metadata, items: page.map((r) => r.object) };
  }

  create(type: ResourceType, namespace: string | undefined, body: JsonValue): KubeObject {
    if (!isJsonObject(body)) throw statusErrors.badRequest('the request body must be a JSON object');
    const meta = { ...metadataOf(body) };
    if (typeof meta['name'] !== 'string' || meta['name'] === '') {
      const prefix = meta['generateName'];
      if (typeof prefix !== 'string' || prefix === '') {
        throw statusErrors.invalid(type.kind, type.group, '', [{ reason: 'FieldValueRequired', field: 'metadata.name', message: 'Required value: name or generateName is required' }]);
      }
      meta['name'] = `${prefix}${randomUUID().slice(0, 5)}`;
    }
    const name = textOf(meta['name']);
    if (meta['resourceVersion'] !== undefined && meta['resourceVersion'] !== '') {
      throw statusErrors.badRequest('resourceVersion should not be set on objects to be created');
    }
    this.checkNamespace(type, namespace, meta);
    if (namespace !== undefined && this.store.get(`/namespaces//${namespace}`) === undefined) {
      throw statusErrors.notFound({ group: '', kind: 'namespaces', name: namespace, qualified: 'namespaces' });
    }
    const key = objectKey(type, namespace, name);
    if (this.store.get(key) !== undefined) throw statusErrors.alreadyExists(this.ref(type, name));
    const rv = this.store.currentRevision + 1n;
    const fresh: KubeObject = { ...body, apiVersion: apiVersionOf(type), kind: type.kind };
    if (type.statusSubresource && type.group !== '') Reflect.deleteProperty(fresh, 'status');
    if (type.plural === 'services') fresh['status'] = { loadBalancer: {} };
    if (type.plural === 'pods') fresh['status'] = { phase: 'Pending' };
    if (type.plural === 'namespaces') fresh['status'] = { phase: 'Active' };
    Reflect.deleteProperty(meta, 'deletionTimestamp');
    fresh['metadata'] = {
      ...meta,
      ...(namespace === undefined ? {} : { namespace }),
      uid: randomUUID(),
      resourceVersion: rv.toString(),
      creationTimestamp: nowTimestamp(),
      generation: 1,
    };
    const stored = this.validate(type, name, fresh);
    this.store.nextRevision();
    this.store.commit({ rv, type: 'ADDED', collection: collectionOf(type), key, object: stored });
    return stored;
  }

  /** PUT, on the main resource or (`subresource === 'status'`) on its status. */
  replace(type: ResourceType, namespace: string | undefined, name: string, body: JsonValue, subresource?: string): KubeObject {
    if (!isJsonObject(body)) throw statusErrors.badRequest('the request body must be a JSON object');
    const meta = metadataOf(body);
    if (meta['name'] !== undefined && meta['name'] !== name) {
      throw statusErrors.badRequest(`the name of the object (${textOf(meta['name'])}) does not match the name on the URL (${name})`);
    }
    this.checkNamespace(type, namespace, meta);
    const current = this.get(type, namespace, name);
    return this.write(type, namespace, name, current, body, subresource);
  }

  patch(type: ResourceType, namespace: string | undefined, name: string, contentType: string, patch: JsonValue, subresource?: string): KubeObject {
    const current = this.get(type, namespace, name);
    let patched: JsonValue;
    if (contentType.startsWith('application/merge-patch+json')) patched = applyMergePatch(current, patch);
    else if (contentType.startsWith('application/json-patch+json')) patched = applyJsonPatch(current, patch);
    else if (contentType.startsWith('application/strategic-merge-patch+json') && type.group === '') patched = applyMergePatch(current, patch);
    else throw statusErrors.unsupportedMediaType(contentType);
    if (!isJsonObject(patched)) throw statusErrors.badRequest('the patch did not produce an object');
    return this.write(type, namespace, name, current, patched, subresource);
  }

  delete(type: ResourceType, namespace: string | undefined, name: string, body: JsonValue | undefined): KubeObject {
    const key = objectKey(type, namespace, name);
    const current = this.get(type, namespace, name);
    const meta = metadataOf(current);
    const pre = isJsonObject(body) && isJsonObject(body['preconditions']) ? body['preconditions'] : {};
    if (typeof pre['uid'] === 'string' && pre['uid'] !== meta['uid']) {
      throw statusErrors.conflict(this.ref(type, name), `Precondition failed: UID in precondition: ${pre['uid']}, UID in object meta: ${textOf(meta['uid'])}`);
    }
    if (typeof pre['resourceVersion'] === 'string' && pre['resourceVersion'] !== meta['resourceVersion']) {
      throw statusErrors.conflict(
        this.ref(type, name),
        `Precondition failed: ResourceVersion in precondition: ${pre['resourceVersion']}, ResourceVersion in object meta: ${textOf(meta['resourceVersion'])}`,
      );
    }
    const finalizers = meta['finalizers'];
    const rv = this.store.nextRevision();
    if (Array.isArray(finalizers) && finalizers.length > 0) {
      // Finalizers hold the object: it only becomes terminating until they are removed.
      if (meta['deletionTimestamp'] !== undefined) return current;
      const terminating = { ...current, metadata: { ...meta, deletionTimestamp: nowTimestamp(), deletionGracePeriodSeconds: 0, resourceVersion: rv.toString() } };
      this.store.commit({ rv, type: 'MODIFIED', collection: collectionOf(type), key, object: terminating, previous: current });
      return terminating;
    }
    const last = { ...current, metadata: { ...meta, resourceVersion: rv.toString() } };
    this.store.commit({ rv, type: 'DELETED', collection: collectionOf(type), key, object: last, previous: current });
    return last;
  }

  private checkNamespace(type: ResourceType, namespace: string | undefined, meta: Record<string, JsonValue>): void {
    const given = meta['namespace'];
    if (type.namespaced && given !== undefined && given !== '' && given !== namespace) {
      throw statusErrors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
  }

  private write(type: ResourceType, namespace: string | undefined, name: string, current: KubeObject, body: KubeObject, subresource?: string): KubeObject {
    const key = objectKey(type, namespace, name);
    const oldMeta = metadataOf(current);
    const newMeta = metadataOf(body);
    const ref = this.ref(type, name);
    if (typeof newMeta['uid'] === 'string' && newMeta['uid'] !== '' && newMeta['uid'] !== oldMeta['uid']) {
      throw statusErrors.conflict(ref, `Precondition failed: UID in precondition: ${newMeta['uid']}, UID in object meta: ${textOf(oldMeta['uid'])}`);
    }
    const wantRv = newMeta['resourceVersion'];
    if (typeof wantRv === 'string' && wantRv !== '' && wantRv !== oldMeta['resourceVersion']) {
      throw statusErrors.conflict(ref, 'the object has been modified; please apply your changes to the latest version and try again');
    }
    let next: KubeObject;
    if (subresource === 'status') {
      next = { ...current, ...(body['status'] === undefined ? {} : { status: body['status'] }) };
    } else {
      next = { ...body, apiVersion: apiVersionOf(type), kind: type.kind };
      if (type.statusSubresource) {
        if (current['status'] === undefined) Reflect.deleteProperty(next, 'status');
        else next['status'] = current['status'];
      }
    }
    const keep = ['uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation', 'namespace'];
    const meta: KubeObject = subresource === 'status' ? { ...oldMeta } : { ...newMeta };
    for (const k of keep) {
      if (oldMeta[k] === undefined) Reflect.deleteProperty(meta, k);
      else meta[k] = oldMeta[k];
    }
    meta['name'] = name;
    meta['resourceVersion'] = oldMeta['resourceVersion'] ?? '';
    next['metadata'] = meta;
    const stored = this.validate(type, name, next);
    if (same(stored, current)) return current;
    const rv = this.store.nextRevision();
    const storedMeta = metadataOf(stored);
    const specChanged = !same({ ...stored, metadata: null, status: null }, { ...current, metadata: null, status: null });
    const generation = typeof oldMeta['generation'] === 'number' ? oldMeta['generation'] : 1;
    const final: KubeObject = { ...stored, metadata: { ...storedMeta, resourceVersion: rv.toString(), generation: specChanged ? generation + 1 : generation } };
    const finalizers = storedMeta['finalizers'];
    const released = storedMeta['deletionTimestamp'] !== undefined && (!Array.isArray(finalizers) || finalizers.length === 0);
    this.store.commit({ rv, type: released ? 'DELETED' : 'MODIFIED', collection: collectionOf(type), key, object: final, previous: current });
    return final;
  }

  /** Metadata checks for every type; schema validation and pruning for custom resources. */
  private validate(type: ResourceType, name: string, obj: KubeObject): KubeObject {
    const meta = metadataOf(obj);
    const errors = [...nameErrors(name, NAME_RULES[type.plural] ?? 'subdomain'), ...metadataErrors(meta)];
    let out = obj;
    if (type.schema !== undefined) {
      // metadata is the server's, not the schema's: validate the rest with an empty stand-in.
      const result = validateAgainstSchema({ ...obj, metadata: {} }, type.schema);
      errors.push(...result.errors);
      if (isJsonObject(result.value)) out = { ...result.value, apiVersion: apiVersionOf(type), kind: type.kind, metadata: meta };
    }
    if (errors.length > 0) throw statusErrors.invalid(type.kind, type.group, name, errors);
    return out;
  }
}

export { KubeStatusError };
