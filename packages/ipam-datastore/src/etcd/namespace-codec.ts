import { CodecError, type Namespace } from '@ipamkit/models';

/**
 * Namespaces have no Calico etcd form (Calico's etcd mode keeps no Kubernetes Namespaces), so
 * ipamkit stores their name and labels as plain JSON under its own key (see etcd-layout.ts).
 */
export function encodeNamespace(ns: Namespace): string {
  return JSON.stringify(ns.labels === undefined ? { name: ns.name } : { name: ns.name, labels: ns.labels });
}

export function decodeNamespace(key: string, text: string): Namespace {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new CodecError(`etcd key ${key}: value is not JSON`, { cause: err });
  }
  const { name, labels } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { name?: unknown; labels?: unknown };
  if (typeof name !== 'string' || name === '') throw new CodecError(`etcd key ${key}: Namespace value has no name`);
  if (labels === undefined || labels === null) return { name };
  const valid = typeof labels === 'object' && !Array.isArray(labels) && Object.values(labels).every((v) => typeof v === 'string');
  if (!valid) throw new CodecError(`etcd key ${key}: Namespace labels must map strings to strings`);
  return { name, labels: labels as Record<string, string> };
}
