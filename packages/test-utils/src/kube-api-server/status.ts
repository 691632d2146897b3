import type { RequestAttributes } from './request-attributes.js';
import type { FieldError } from './schema-validator.js';

/** A failed request, answered with a `Status` body exactly as the API server shapes it. */
export class KubeStatusError extends Error {
  override name = 'KubeStatusError';
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: { name?: string; group?: string; kind?: string; uid?: string; causes?: FieldError[]; retryAfterSeconds?: number },
  ) {
    super(message);
  }

  toStatus(): Record<string, unknown> {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details === undefined ? {} : { details: this.details }),
      code: this.code,
    };
  }
}

export interface ResourceRef {
  readonly group: string;
  /** plural */
  readonly kind: string;
  readonly name: string;
  /** `ipamblocks.crd.projectcalico.org` */
  readonly qualified: string;
}

export const statusErrors = {
  notFound: (r: ResourceRef): KubeStatusError =>
    new KubeStatusError(404, 'NotFound', `${r.qualified} "${r.name}" not found`, { name: r.name, group: r.group, kind: r.kind }),
  alreadyExists: (r: ResourceRef): KubeStatusError =>
    new KubeStatusError(409, 'AlreadyExists', `${r.qualified} "${r.name}" already exists`, { name: r.name, group: r.group, kind: r.kind }),
  conflict: (r: ResourceRef, why: string): KubeStatusError =>
    new KubeStatusError(409, 'Conflict', `Operation cannot be fulfilled on ${r.qualified} "${r.name}": ${why}`, {
      name: r.name,
      group: r.group,
      kind: r.kind,
    }),
  invalid: (kind: string, group: string, name: string, causes: FieldError[]): KubeStatusError =>
    new KubeStatusError(
      422,
      'Invalid',
      `${kind}${group === '' ? '' : `.${group}`} "${name}" is invalid: ${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}`,
      { name, group, kind, causes },
    ),
  badRequest: (message: string): KubeStatusError => new KubeStatusError(400, 'BadRequest', message),
  gone: (message: string): KubeStatusError => new KubeStatusError(410, 'Expired', message),
  methodNotAllowed: (message: string): KubeStatusError => new KubeStatusError(405, 'MethodNotAllowed', message),
  unsupportedMediaType: (contentType: string): KubeStatusError =>
    new KubeStatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json (got ${contentType})`),
  unauthorized: (): KubeStatusError => new KubeStatusError(401, 'Unauthorized', 'Unauthorized'),
  pathNotFound: (): KubeStatusError => new KubeStatusError(404, 'NotFound', 'the server could not find the requested resource'),
  /** The API server's RBAC denial, word for word: `nodes "n1" is forbidden: User "u" cannot patch resource "nodes" in API group "" at the cluster scope`. */
  forbidden: (user: string, a: RequestAttributes): KubeStatusError => {
    if (a.kind === 'non-resource') return new KubeStatusError(403, 'Forbidden', `forbidden: User "${user}" cannot ${a.verb} path "${a.path}"`);
    const resource = a.subresource === undefined ? a.resource : `${a.resource}/${a.subresource}`;
    const subject = `${a.group === '' ? a.resource : `${a.resource}.${a.group}`}${a.name === undefined ? '' : ` "${a.name}"`}`;
    const scope = a.namespace === undefined ? 'at the cluster scope' : `in the namespace "${a.namespace}"`;
    return new KubeStatusError(403, 'Forbidden', `${subject} is forbidden: User "${user}" cannot ${a.verb} resource "${resource}" in API group "${a.group}" ${scope}`, {
      ...(a.name === undefined ? {} : { name: a.name }),
      group: a.group,
      kind: a.resource,
    });
  },
};
