import { retry } from '@ipamkit/models';
import { SimStepError } from '../errors.js';

/** What the hammer's kubelet and cluster user need of the API: pods, Services, nodes. */
export interface KubeTarget {
  readonly url: string;
  readonly token: string;
}

/** One LoadBalancer Service as listed: its name and the addresses in its status. */
export interface ListedService {
  readonly namespace: string;
  readonly name: string;
  readonly ingressIPs: string[];
}

const RETRIABLE = new Set([409, 429, 500, 503]);
const ATTEMPTS = 50;
/** 5 ms doubling to 200 ms between attempts. */
const BACKOFF = { baseMs: 5, capMs: 200 };

/** A failure worth another attempt: no answer at all, or a status in RETRIABLE. */
class RetriableFailure extends SimStepError {}

/**
 * The cluster's own writes (kubelet, users) through the API, retried as client-go retries them:
 * injected faults hit these requests too, and a create that finds the object or a delete that does
 * not is done. Errors outside the retriable set are a `SimStepError`.
 */
export class KubeClusterClient {
  retries = 0;

  constructor(private readonly target: KubeTarget) {}

  private request(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; json: unknown }> {
    const once = async (): Promise<{ status: number; json: unknown }> => {
      let answer: { status: number; json: unknown };
      try {
        const res = await fetch(`${this.target.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${this.target.token}`, 'content-type': contentType },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        answer = { status: res.status, json: await res.json() };
      } catch (err) {
        throw new RetriableFailure('kube', `${method} ${path}: ${String(err)}`);
      }
      const { status, json } = answer;
      if (status < 300 || (method === 'POST' && status === 409 && isAlreadyExists(json)) || (method === 'DELETE' && status === 404)) return answer;
      const failure = RETRIABLE.has(status) ? RetriableFailure : SimStepError;
      throw new failure('kube', `${method} ${path} answered ${status}`);
    };
    return retry(once, { attempts: ATTEMPTS, backoff: BACKOFF, isRetryable: (err) => err instanceof RetriableFailure, onRetry: () => (this.retries += 1) });
  }

  async createNode(name: string, labels: Record<string, string>): Promise<void> {
    await this.request('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name, labels } });
  }

  /** The pod as the scheduler leaves it: bound to its node, no address yet. */
  async createPod(namespace: string, name: string, nodeName: string): Promise<void> {
    await this.request('POST', `/api/v1/namespaces/${namespace}/pods`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace },
      spec: { nodeName, containers: [{ name: 'app', image: 'registry.invalid/app' }] },
      status: { phase: 'Pending' },
    });
  }

  /** The kubelet's status update once the sandbox has its addresses. */
  async podRunning(namespace: string, name: string, ips: readonly string[]): Promise<void> {
    await this.request('PATCH', `/api/v1/namespaces/${namespace}/pods/${name}/status`, { status: { phase: 'Running', podIP: ips[0], podIPs: ips.map((ip) => ({ ip })) } }, 'application/merge-patch+json');
  }

  async deletePod(namespace: string, name: string): Promise<void> {
    await this.request('DELETE', `/api/v1/namespaces/${namespace}/pods/${name}`);
  }

  async createService(namespace: string, name: string): Promise<void> {
    await this.request('POST', `/api/v1/namespaces/${namespace}/services`, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace },
      spec: { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' },
    });
  }

  async deleteService(namespace: string, name: string): Promise<void> {
    await this.request('DELETE', `/api/v1/namespaces/${namespace}/services/${name}`);
  }

  async listServices(): Promise<ListedService[]> {
    const { json } = await this.request('GET', '/api/v1/services');
    const items = (json as { items?: ServiceObject[] } | undefined)?.items ?? [];
    return items.map((s) => ({
      namespace: s.metadata?.namespace ?? '',
      name: s.metadata?.name ?? '',
      ingressIPs: (s.status?.loadBalancer?.ingress ?? []).map((i) => i.ip ?? '').filter((ip) => ip !== ''),
    }));
  }
}

interface ServiceObject {
  metadata?: { name?: string; namespace?: string };
  status?: { loadBalancer?: { ingress?: { ip?: string }[] } };
}

function isAlreadyExists(json: unknown): boolean {
  return typeof json === 'object' && json !== null && (json as { reason?: unknown }).reason === 'AlreadyExists';
}
