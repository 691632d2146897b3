import type { ClusterRole, PolicyRule } from './cluster-role.js';
import type { RequestAttributes } from './request-attributes.js';

/**
 * The smallest unit a rule grants: one verb on one resource of one group (one object when the rule
 * names `resourceNames`), or one verb on one non-resource URL.
 */
export interface Grant {
  readonly rule: number;
  readonly verb: string;
  /** `resource.group` (`nodes` for core), `nodes/status` with a subresource, or a non-resource URL. */
  readonly resource: string;
  readonly resourceName?: string;
}

export interface Denial {
  readonly attributes: RequestAttributes;
  readonly method: string;
  readonly path: string;
}

export type Decision = { readonly allowed: true; readonly grant: Grant } | { readonly allowed: false };

const matches = (values: readonly string[], wanted: string): boolean => values.includes('*') || values.includes(wanted);

function resourceMatches(rule: PolicyRule, resource: string, subresource: string | undefined): string | undefined {
  const combined = subresource === undefined ? resource : `${resource}/${subresource}`;
  for (const r of rule.resources) {
    if (r === '*' || r === combined) return r;
    if (subresource !== undefined && r === `*/${subresource}`) return r;
  }
  return undefined;
}

function nonResourceMatches(rule: PolicyRule, path: string): string | undefined {
  return rule.nonResourceURLs.find((u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))));
}

const qualified = (group: string, resource: string): string => (group === '' || group === '*' ? resource : `${resource}.${group}`);

function grantKey(g: Grant): string {
  return `${g.rule}|${g.verb}|${g.resource}|${g.resourceName ?? ''}`;
}

/** Every grant a rule makes, expanded over its verbs, groups, resources and names. */
function grantsOf(rule: PolicyRule, index: number): Grant[] {
  if (rule.nonResourceURLs.length > 0) return rule.verbs.flatMap((verb) => rule.nonResourceURLs.map((resource) => ({ rule: index, verb, resource })));
  const names: (string | undefined)[] = rule.resourceNames.length === 0 ? [undefined] : [...rule.resourceNames];
  return rule.verbs.flatMap((verb) =>
    rule.apiGroups.flatMap((group) =>
      rule.resources.flatMap((resource) => names.map((name) => ({ rule: index, verb, resource: qualified(group, resource), ...(name === undefined ? {} : { resourceName: name }) }))),
    ),
  );
}

/**
 * Kubernetes RBAC for one ClusterRole bound cluster-wide (design/test-utils.md, "The RBAC
 * authorizer"): a request is allowed when some rule matches its verb, group, resource (with
 * subresource) and, when the rule names objects, its name. Like the API server it stops at the
 * first rule that allows, and that rule's grant is recorded as used, so a grant duplicated by an
 * earlier rule shows up as unused.
 */
export class RbacAuthorizer {
  private readonly used = new Set<string>();
  private readonly deniedRequests: Denial[] = [];

  constructor(readonly role: ClusterRole) {}

  decide(attributes: RequestAttributes): Decision {
    for (const [index, rule] of this.role.rules.entries()) {
      if (!matches(rule.verbs, attributes.verb)) continue;
      if (attributes.kind === 'non-resource') {
        const url = nonResourceMatches(rule, attributes.path);
        if (url !== undefined) return { allowed: true, grant: { rule: index, verb: attributes.verb, resource: url } };
        continue;
      }
      if (rule.nonResourceURLs.length > 0 && rule.resources.length === 0) continue;
      const group = rule.apiGroups.find((g) => g === '*' || g === attributes.group);
      if (group === undefined) continue;
      const resource = resourceMatches(rule, attributes.resource, attributes.subresource);
      if (resource === undefined) continue;
      if (rule.resourceNames.length > 0 && (attributes.name === undefined || !rule.resourceNames.includes(attributes.name))) continue;
      return {
        allowed: true,
        grant: {
          rule: index,
          verb: rule.verbs.includes(attributes.verb) ? attributes.verb : '*',
          resource: qualified(group, resource),
          ...(rule.resourceNames.length === 0 || attributes.name === undefined ? {} : { resourceName: attributes.name }),
        },
      };
    }
    return { allowed: false };
  }

  /** Decides and records: the grant used, or the request denied. */
  authorize(attributes: RequestAttributes, method: string, path: string): boolean {
    const decision = this.decide(attributes);
    if (decision.allowed) this.used.add(grantKey(decision.grant));
    else this.deniedRequests.push({ attributes, method, path });
    return decision.allowed;
  }

  /** Requests answered 403 so far, oldest first. */
  get denials(): readonly Denial[] {
    return this.deniedRequests;
  }

  /** The grants allowed requests have used, in rule order. */
  usedGrants(): Grant[] {
    return this.role.rules.flatMap((rule, index) => grantsOf(rule, index)).filter((g) => this.used.has(grantKey(g)));
  }

  /** The grants of every rule that no allowed request has used yet. */
  unusedGrants(): Grant[] {
    return this.role.rules.flatMap((rule, index) => grantsOf(rule, index)).filter((g) => !this.used.has(grantKey(g)));
  }
}

/** `get nodes`, `update services/status`, `list ipamblocks.crd.projectcalico.org`: how a report names a grant. */
export function describeGrant(g: Grant): string {
  return `${g.verb} ${g.resource}${g.resourceName === undefined ? '' : ` "${g.resourceName}"`}`;
}

/** The justification that covers a grant: same rule, and the verb and (unqualified) resource are listed. */
function justifies(role: ClusterRole, g: Grant): boolean {
  const unqualified = g.resource.split('.')[0] ?? g.resource;
  return role.justifications.some((j) => j.rule === g.rule && j.verbs.includes(g.verb) && (j.resources.includes(unqualified) || j.resources.includes(g.resource)));
}

/**
 * Least privilege, as the RBAC-by-behaviour tests assert it: the unused grants that no
 * `# justified:` comment covers, and the justified grants the flows did use (a stale comment).
 */
export function leastPrivilegeReport(authorizer: RbacAuthorizer): { unjustified: string[]; staleJustifications: string[] } {
  const role = authorizer.role;
  const unused = authorizer.unusedGrants();
  const unusedKeys = new Set(unused.map(grantKey));
  const unjustified = unused.filter((g) => !justifies(role, g)).map(describeGrant);
  const stale = role.rules
    .flatMap((rule, index) => grantsOf(rule, index))
    .filter((g) => justifies(role, g) && !unusedKeys.has(grantKey(g)))
    .map(describeGrant);
  return { unjustified, staleJustifications: stale };
}
