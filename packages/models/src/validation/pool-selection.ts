import type { IPVersion } from '../resources/intended-use.js';
import type { IPPool } from '../resources/ip-pool.js';
import { ipVersionOfCidr } from '../net/cidr.js';
import { parseSelector, type Selector } from '../selector/parse-selector.js';

/**
 * "Enabled" as allocation means it (design/calico-stored-formats.md#ip-pools, design/calico-ipam.md#pools): not being deleted, not
 * disabled, no `Allocatable=False` condition, and of the asked family.
 */
export function isPoolEnabled(pool: IPPool, version: IPVersion): boolean {
  if (pool.deletionTimestamp !== undefined || pool.disabled === true) return false;
  if (pool.conditions?.some((c) => c.type === 'Allocatable' && c.status === 'False') === true) return false;
  try {
    return ipVersionOfCidr(pool.cidr) === version;
  } catch {
    return false;
  }
}

// Pools are evaluated for every allocation; parsing the same few selectors each time is waste.
// Parsed selectors are immutable, so sharing them is safe. Bounded so odd inputs cannot grow it.
const CACHE_LIMIT = 512;
const cache = new Map<string, Selector>();

function cachedSelector(text: string): Selector {
  let selector = cache.get(text);
  if (selector === undefined) {
    selector = parseSelector(text);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(text, selector);
  }
  return selector;
}

/** Does the pool's nodeSelector pick this node? Empty selector = yes (design/calico-ipam.md#selectors). Throws SelectorParseError. */
export function selectsNode(pool: Pick<IPPool, 'nodeSelector'>, nodeLabels: Readonly<Record<string, string>> | undefined): boolean {
  const text = pool.nodeSelector ?? '';
  if (text.trim() === '') return true;
  return cachedSelector(text).evaluate(nodeLabels ?? {});
}

/**
 * Does the pool's nodeSelector pick every node whatever its labels (empty, or `all()` however
 * written)? Then a caller need not read a node to know the pool selects it.
 */
export function selectsEveryNode(pool: Pick<IPPool, 'nodeSelector'>): boolean {
  const text = pool.nodeSelector ?? '';
  return text.trim() === '' || cachedSelector(text).toString() === 'all()';
}

/** Does the pool's namespaceSelector pick this namespace? No namespace = evaluate over no labels. */
export function selectsNamespace(
  pool: Pick<IPPool, 'namespaceSelector'>,
  namespaceLabels: Readonly<Record<string, string>> | undefined,
): boolean {
  const text = pool.namespaceSelector ?? '';
  if (text.trim() === '') return true;
  return cachedSelector(text).evaluate(namespaceLabels ?? {});
}
