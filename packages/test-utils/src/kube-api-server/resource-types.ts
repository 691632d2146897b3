import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { OpenApiSchema } from './schema-validator.js';

/** One served (group, version, plural): what the router needs to handle its URLs. */
export interface ResourceType {
  /** `''` for the core group. */
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly statusSubresource: boolean;
  /** Custom resources only: every write is validated and pruned against it. */
  readonly schema?: OpenApiSchema;
}

export function apiVersionOf(type: ResourceType): string {
  return type.group === '' ? type.version : `${type.group}/${type.version}`;
}

/** `ipamblocks.crd.projectcalico.org`, as Kubernetes names a resource in messages. */
export function qualifiedResource(type: ResourceType): string {
  return type.group === '' ? type.plural : `${type.plural}.${type.group}`;
}

export const CORE_RESOURCE_TYPES: readonly ResourceType[] = [
  { group: '', version: 'v1', plural: 'nodes', kind: 'Node', namespaced: false, statusSubresource: true },
  { group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace', namespaced: false, statusSubresource: true },
  { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true, statusSubresource: true },
  { group: '', version: 'v1', plural: 'services', kind: 'Service', namespaced: true, statusSubresource: true },
];

interface CrdVersion {
  name?: unknown;
  served?: unknown;
  schema?: { openAPIV3Schema?: OpenApiSchema };
  subresources?: { status?: unknown };
}

interface CrdDocument {
  kind?: unknown;
  spec?: { group?: unknown; scope?: unknown; names?: { plural?: unknown; kind?: unknown }; versions?: CrdVersion[] };
}

/** The resource types a CustomResourceDefinition document serves (one per served version). */
export function resourceTypesFromCrd(doc: unknown): ResourceType[] {
  const crd = doc as CrdDocument;
  if (crd.kind !== 'CustomResourceDefinition') return [];
  const spec = crd.spec;
  const group = spec?.group;
  const plural = spec?.names?.plural;
  const kind = spec?.names?.kind;
  if (typeof group !== 'string' || typeof plural !== 'string' || typeof kind !== 'string') {
    throw new Error('CustomResourceDefinition lacks spec.group or spec.names');
  }
  return (spec?.versions ?? [])
    .filter((v) => v.served !== false && typeof v.name === 'string')
    .map((v) => {
      const schema = v.schema?.openAPIV3Schema;
      return {
        group,
        version: String(v.name),
        plural,
        kind,
        namespaced: spec?.scope === 'Namespaced',
        statusSubresource: v.subresources?.status !== undefined,
        ...(schema === undefined ? {} : { schema }),
      };
    });
}

/** Every YAML document of every `*.yaml` file in `dir`, with its file name (manifest tests). */
export function loadManifestDocuments(dir: string): { file: string; document: unknown; comments: boolean }[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml') || f.endsWith('.yml')).sort();
  return files.flatMap((file) => {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const comments = text.split('\n').some((line) => line.trimStart().startsWith('#'));
    return parseAllDocuments(text).map((d) => {
      if (d.errors.length > 0) throw new Error(`${file}: ${d.errors.map((e) => e.message).join('; ')}`);
      return { file, document: d.toJS() as unknown, comments };
    });
  });
}

/** Every CRD in the `*.yaml` files of `dir` (multi-document files allowed). */
export function loadCrdDirectory(dir: string): ResourceType[] {
  return loadManifestDocuments(dir).flatMap((d) => resourceTypesFromCrd(d.document));
}
