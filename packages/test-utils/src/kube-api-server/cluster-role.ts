import { readFileSync } from 'node:fs';
import { isMap, isPair, isScalar, isSeq, parseDocument, type Node as YamlNode } from 'yaml';

/** One `rules[]` entry of a ClusterRole, as `rbac.authorization.k8s.io/v1` defines it. */
export interface PolicyRule {
  readonly apiGroups: readonly string[];
  /** `nodes`, or `nodes/status` for a subresource; `*` is a wildcard, also in place of the resource before a subresource. */
  readonly resources: readonly string[];
  /** Empty: every object. */
  readonly resourceNames: readonly string[];
  readonly verbs: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

/**
 * A grant a rule makes and the flows were allowed never to use, with the reason, written in the
 * manifest as a comment line of the rule: `# justified: <verb>[,<verb>] <resource>[,<resource>]: <reason>`.
 */
export interface Justification {
  readonly rule: number;
  readonly verbs: readonly string[];
  readonly resources: readonly string[];
  readonly reason: string;
}

export interface ClusterRole {
  readonly name: string;
  readonly rules: readonly PolicyRule[];
  readonly justifications: readonly Justification[];
}

export class ClusterRoleError extends Error {
  override name = 'ClusterRoleError';
}

const JUSTIFIED = /^justified:\s*(\S+)\s+(\S+?):\s*(\S.*)$/;

function strings(value: unknown, field: string, rule: number): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw new ClusterRoleError(`rules[${rule}].${field} must be a list of strings`);
  }
  return value;
}

/** Every comment attached to a node or anywhere inside it (a rule's block, its keys, its lists). */
function commentsIn(node: unknown): string[] {
  const out: string[] = [];
  const visit = (n: unknown): void => {
    if (n === null || typeof n !== 'object') return;
    const withComments = n as { commentBefore?: string | null; comment?: string | null };
    for (const text of [withComments.commentBefore, withComments.comment]) if (typeof text === 'string') out.push(...text.split('\n'));
    if (isPair(n)) {
      visit(n.key);
      visit(n.value);
    } else if (isMap(n) || isSeq(n)) {
      for (const item of n.items) visit(item);
    } else if (isScalar(n)) {
      return;
    }
  };
  visit(node);
  return out.map((line) => line.trim());
}

function justificationsOf(comments: readonly string[], rule: number, where: string): Justification[] {
  return comments
    .filter((line) => line.startsWith('justified:'))
    .map((line) => {
      const match = JUSTIFIED.exec(line);
      if (match === null) throw new ClusterRoleError(`${where}: rules[${rule}]: "${line}" is not "justified: <verbs> <resources>: <reason>"`);
      return { rule, verbs: (match[1] ?? '').split(','), resources: (match[2] ?? '').split(','), reason: match[3] ?? '' };
    });
}

/**
 * Parses the YAML of one ClusterRole manifest: its rules (apiGroups, resources with subresources,
 * resourceNames, verbs, nonResourceURLs) and the `# justified:` comments of each rule.
 */
export function parseClusterRole(text: string, where = 'ClusterRole'): ClusterRole {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new ClusterRoleError(`${where}: ${doc.errors.map((e) => e.message).join('; ')}`);
  const js = doc.toJS() as { kind?: unknown; metadata?: { name?: unknown }; rules?: unknown } | null;
  if (js?.kind !== 'ClusterRole') throw new ClusterRoleError(`${where}: not a ClusterRole`);
  const name = typeof js.metadata?.name === 'string' ? js.metadata.name : '';
  if (!Array.isArray(js.rules)) throw new ClusterRoleError(`${where}: rules must be a list`);
  const rules = (js.rules as Record<string, unknown>[]).map((r, i) => ({
    apiGroups: strings(r['apiGroups'], 'apiGroups', i),
    resources: strings(r['resources'], 'resources', i),
    resourceNames: strings(r['resourceNames'], 'resourceNames', i),
    verbs: strings(r['verbs'], 'verbs', i),
    nonResourceURLs: strings(r['nonResourceURLs'], 'nonResourceURLs', i),
  }));
  for (const [i, rule] of rules.entries()) {
    if (rule.verbs.length === 0) throw new ClusterRoleError(`${where}: rules[${i}] has no verbs`);
    if (rule.nonResourceURLs.length === 0 && (rule.apiGroups.length === 0 || rule.resources.length === 0)) {
      throw new ClusterRoleError(`${where}: rules[${i}] needs apiGroups and resources`);
    }
  }
  const seq = doc.get('rules', true) as YamlNode | undefined;
  const justifications: Justification[] = [];
  if (isSeq(seq)) {
    seq.items.forEach((item, i) => {
      // The comment above the first item belongs to the list node itself.
      const comments = [...(i === 0 && typeof seq.commentBefore === 'string' ? seq.commentBefore.split('\n').map((l) => l.trim()) : []), ...commentsIn(item)];
      justifications.push(...justificationsOf(comments, i, where));
    });
  }
  for (const j of justifications) {
    const rule = rules[j.rule];
    const unknown = [...j.verbs.filter((v) => !rule?.verbs.includes(v)), ...j.resources.filter((r) => !rule?.resources.includes(r))];
    if (unknown.length > 0) throw new ClusterRoleError(`${where}: rules[${j.rule}] justifies ${unknown.join(', ')}, which the rule does not grant`);
  }
  return { name, rules, justifications };
}

export function loadClusterRole(file: string): ClusterRole {
  return parseClusterRole(readFileSync(file, 'utf8'), file);
}
