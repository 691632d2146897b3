import { definedFields } from '@ipamkit/models';

/**
 * What the API server's authorizer sees of a request, derived from the method and the URL alone as
 * Kubernetes' RequestInfo does (design/test-utils.md, "The RBAC authorizer"): the verb, and for
 * resource requests the group, resource, subresource, namespace and object name.
 */
export type RequestAttributes =
  | {
      readonly kind: 'resource';
      readonly verb: string;
      /** `''` for the core group. */
      readonly group: string;
      readonly version: string;
      readonly resource: string;
      readonly subresource?: string;
      readonly namespace?: string;
      /** Absent for collection requests (list, watch, create, deletecollection) unless a `metadata.name` field selector names one. */
      readonly name?: string;
    }
  | { readonly kind: 'non-resource'; readonly verb: string; readonly path: string };

/** `/namespaces/<ns>/status` and `/namespaces/<ns>/finalize` address the Namespace itself. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

const METHOD_VERBS: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete', GET: 'get', HEAD: 'get' };

function nameFromFieldSelector(query: URLSearchParams): string | undefined {
  const selector = query.get('fieldSelector');
  if (selector === null) return undefined;
  for (const term of selector.split(',')) {
    const match = /^metadata\.name==?(.*)$/.exec(term.trim());
    if (match !== null) return match[1];
  }
  return undefined;
}

export function requestAttributes(method: string, pathname: string, query: URLSearchParams): RequestAttributes {
  const upper = method.toUpperCase();
  const lowerVerb = (METHOD_VERBS[upper] ?? upper).toLowerCase();
  const parts = pathname.split('/').filter((p) => p !== '').map((p) => decodeURIComponent(p));
  let rest: string[];
  let group: string;
  let version: string;
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1] ?? '';
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1] ?? '';
    version = parts[2] ?? '';
    rest = parts.slice(3);
  } else {
    return { kind: 'non-resource', verb: lowerVerb, path: pathname };
  }

  let verb = lowerVerb;
  // The deprecated `/watch/` prefix: `/api/v1/watch/pods`.
  if (rest[0] === 'watch' && (upper === 'GET' || upper === 'HEAD')) {
    verb = 'watch';
    rest = rest.slice(1);
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1];
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2] ?? '')) rest = rest.slice(2);
  }
  const [resource = '', nameInPath, subresource] = rest;
  let name = nameInPath;
  const collection = name === undefined;
  if (collection && (upper === 'GET' || upper === 'HEAD') && verb === 'get') verb = 'list';
  const watchParam = query.get('watch');
  if ((verb === 'list' || verb === 'get') && (watchParam === 'true' || watchParam === '1')) verb = 'watch';
  if (collection && verb === 'delete') verb = 'deletecollection';
  if (collection && (verb === 'list' || verb === 'watch')) name = nameFromFieldSelector(query);
  return {
    kind: 'resource',
    verb,
    group,
    version,
    resource,
    ...definedFields({ subresource, namespace, name: name === '' ? undefined : name }),
  };
}
