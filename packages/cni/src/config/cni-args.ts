import { canonicalAddress } from '@ipamkit/models';
import { CniEnvironmentError } from '../errors.js';
import { echoInput, INPUT_LIMITS, requireMaxLength } from './input-limits.js';

/** The CNI_ARGS keys calico-ipam understands (design/calico-callers.md#cni_args-keys). */
export interface CniArgs {
  ignoreUnknown: boolean;
  podNamespace: string;
  podName: string;
  /** `IP=`: request exactly this address (ADD only). */
  ip?: string;
  testNamespace: string;
}

const KNOWN = new Set(['IgnoreUnknown', 'K8S_POD_NAMESPACE', 'K8S_POD_NAME', 'K8S_POD_INFRA_CONTAINER_ID', 'K8S_POD_UID', 'IP', 'CNI_TEST_NAMESPACE']);

/** Kubernetes' limits for the values we use (design/cni.md, "Input limits"); other known keys get the list-entry bound. */
const MAX_LENGTH: Readonly<Record<string, number>> = {
  K8S_POD_NAMESPACE: INPUT_LIMITS.namespace,
  CNI_TEST_NAMESPACE: INPUT_LIMITS.namespace,
  K8S_POD_NAME: INPUT_LIMITS.podName,
  K8S_POD_INFRA_CONTAINER_ID: INPUT_LIMITS.containerId,
};

function parseBool(pair: string, value: string): boolean {
  const v = value.toLowerCase();
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  throw new CniEnvironmentError(`ARGS: error parsing value of pair ${JSON.stringify(echoInput(pair))}: boolean unmarshal error: invalid input ${echoInput(value)}`);
}

/**
 * `K=V;K=V`. Unlike Calico, which parses twice with different key sets (so K8S_* keys fail the
 * second parse without IgnoreUnknown), we parse once against the union: K8S_* keys are always known.
 */
export function parseCniArgs(text: string): CniArgs {
  const out: CniArgs = { ignoreUnknown: false, podNamespace: '', podName: '', testNamespace: 'default' };
  if (text === '') return out;
  const unknown: string[] = [];
  const values = new Map<string, { pair: string; value: string }>();
  for (const pair of text.split(';')) {
    if (pair === '') continue;
    const parts = pair.split('=');
    if (parts.length !== 2) throw new CniEnvironmentError(`ARGS: invalid pair ${JSON.stringify(echoInput(pair))}`);
    const [key = '', value = ''] = parts;
    if (!KNOWN.has(key)) unknown.push(pair);
    else values.set(key, { pair, value: requireMaxLength(value, MAX_LENGTH[key] ?? INPUT_LIMITS.listEntry, `CNI_ARGS ${key}`) });
  }
  const ignore = values.get('IgnoreUnknown');
  if (ignore !== undefined) out.ignoreUnknown = parseBool(ignore.pair, ignore.value);
  if (unknown.length > 0 && !out.ignoreUnknown) throw new CniEnvironmentError(`ARGS: unknown args ${echoInput(JSON.stringify(unknown))}`);
  out.podNamespace = values.get('K8S_POD_NAMESPACE')?.value ?? '';
  out.podName = values.get('K8S_POD_NAME')?.value ?? '';
  const testNs = values.get('CNI_TEST_NAMESPACE')?.value;
  if (testNs !== undefined && testNs !== '') out.testNamespace = testNs;
  const ip = values.get('IP');
  if (ip !== undefined) {
    try {
      out.ip = canonicalAddress(ip.value);
    } catch {
      throw new CniEnvironmentError(`ARGS: error parsing value of pair ${JSON.stringify(ip.pair)}: invalid IP address: ${ip.value}`);
    }
  }
  return out;
}
