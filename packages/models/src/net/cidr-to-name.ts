import { canonicalCidr } from './cidr.js';

function replaceFirst(text: string, search: string, replacement: string, limit: number): string {
  let out = text;
  for (let i = 0; i < limit; i++) {
    const at = out.indexOf(search);
    if (at < 0) break;
    out = out.slice(0, at) + replacement + out.slice(at + search.length);
  }
  return out;
}

/**
 * Kubernetes object name of a CIDR (design/calico-stored-formats.md#encoding-rules). Load-bearing: block and affinity rows
 * are looked up by this computed name, so the limits (3 dots, 7 colons, 1 slash) stay as Calico
 * has them even though they never bite on canonical text.
 */
export function cidrToName(cidr: string): string {
  let name = canonicalCidr(cidr);
  name = replaceFirst(name, '.', '-', 3);
  name = replaceFirst(name, ':', '-', 7);
  return replaceFirst(name, '/', '-', 1);
}
