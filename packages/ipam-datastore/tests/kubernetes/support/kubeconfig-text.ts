/** Lines of a kubeconfig section: `[key, value]` pairs, a value of `undefined` leaves the key out. */
export type Fields = Record<string, string | boolean | undefined>;

function lines(fields: Fields, indent: string): string {
  return Object.entries(fields)
    .filter((e): e is [string, string | boolean] => e[1] !== undefined)
    .map(([k, v]) => `${indent}${k}: ${typeof v === 'boolean' ? String(v) : JSON.stringify(v)}\n`)
    .join('');
}

/**
 * A kubeconfig in the shape Calico's install-cni writes for the CNI plugin: one cluster, one user,
 * one context and `current-context`, list items at the parent key's indentation.
 */
export function calicoCniKubeconfig(cluster: Fields, user: Fields, extraUser = ''): string {
  return `# Kubeconfig file for Calico CNI plugin.
apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
${lines(cluster, '    ')}users:
- name: calico
  user:
${lines(user, '    ')}${extraUser}contexts:
- name: calico-context
  context:
    cluster: local
    user: calico
current-context: calico-context
`;
}
