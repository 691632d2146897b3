import { definedFields, isRecord } from '@ipamkit/models';
import { readInputFile } from '../read-input-file.js';
import { InputFileError } from '../errors.js';

// What the datastore does not hold but `check` and `explain` need to judge an allocation: the
// pods and LoadBalancer Services of the cluster. Callers in-process pass it directly; the bin
// reads it from `--cluster-state FILE` (JSON), for example exported with kubectl and jq.

export interface PodInfo {
  readonly namespace: string;
  readonly name: string;
  readonly nodeName?: string;
  /** `status.phase`; Succeeded, Failed and Completed pods no longer use their addresses. */
  readonly phase?: string;
  /** `status.podIPs`. */
  readonly ips?: readonly string[];
  readonly annotations?: Readonly<Record<string, string>>;
}

export interface ServiceInfo {
  readonly namespace: string;
  readonly name: string;
  /** `status.loadBalancer.ingress[].ip`. */
  readonly ingressIPs?: readonly string[];
}

/** Absent lists mean "unknown": allocations that depend on them are reported as unverified. */
export interface ClusterState {
  readonly pods?: readonly PodInfo[];
  readonly services?: readonly ServiceInfo[];
}

const FINISHED_PHASES = new Set(['Succeeded', 'Failed', 'Completed']);

export function isFinishedPod(pod: PodInfo): boolean {
  return pod.phase !== undefined && FINISHED_PHASES.has(pod.phase);
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isStringMap = (v: unknown): v is Record<string, string> => isRecord(v) && Object.values(v).every((s) => typeof s === 'string');

function parsePod(raw: unknown, file: string, i: number): PodInfo {
  if (!isRecord(raw) || typeof raw['namespace'] !== 'string' || typeof raw['name'] !== 'string') {
    throw new InputFileError(file, `pods[${i}] needs string "namespace" and "name"`);
  }
  const { nodeName, phase, ips, annotations } = raw;
  if (nodeName !== undefined && typeof nodeName !== 'string') throw new InputFileError(file, `pods[${i}].nodeName must be a string`);
  if (phase !== undefined && typeof phase !== 'string') throw new InputFileError(file, `pods[${i}].phase must be a string`);
  if (ips !== undefined && !isStringArray(ips)) throw new InputFileError(file, `pods[${i}].ips must be an array of strings`);
  if (annotations !== undefined && !isStringMap(annotations)) throw new InputFileError(file, `pods[${i}].annotations must map strings to strings`);
  return definedFields({ namespace: raw['namespace'], name: raw['name'], nodeName, phase, ips, annotations });
}

function parseService(raw: unknown, file: string, i: number): ServiceInfo {
  if (!isRecord(raw) || typeof raw['namespace'] !== 'string' || typeof raw['name'] !== 'string') {
    throw new InputFileError(file, `services[${i}] needs string "namespace" and "name"`);
  }
  const ingress = raw['ingressIPs'];
  if (ingress !== undefined && !isStringArray(ingress)) throw new InputFileError(file, `services[${i}].ingressIPs must be an array of strings`);
  return { namespace: raw['namespace'], name: raw['name'], ...(ingress === undefined ? {} : { ingressIPs: ingress }) };
}

/** Validates the JSON of a cluster-state file: `{ "pods"?: [...], "services"?: [...] }`. */
export function parseClusterState(text: string, file: string): ClusterState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new InputFileError(file, 'is not valid JSON', { cause: err });
  }
  if (!isRecord(raw)) throw new InputFileError(file, 'must hold a JSON object');
  const { pods, services } = raw;
  if (pods !== undefined && !Array.isArray(pods)) throw new InputFileError(file, '"pods" must be an array');
  if (services !== undefined && !Array.isArray(services)) throw new InputFileError(file, '"services" must be an array');
  return {
    ...(pods === undefined ? {} : { pods: pods.map((p: unknown, i) => parsePod(p, file, i)) }),
    ...(services === undefined ? {} : { services: services.map((s: unknown, i) => parseService(s, file, i)) }),
  };
}

export async function readClusterState(file: string): Promise<ClusterState> {
  return parseClusterState(await readInputFile(file), file);
}
