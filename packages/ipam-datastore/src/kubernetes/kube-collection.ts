import { retryUnavailable, type TransportRetry } from '../transport-retry.js';
import type { KubeRequest, KubeTransport } from './kube-transport.js';

/** A Kubernetes object as it travels: only the envelope fields the backend touches are typed. */
export interface RawObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; resourceVersion?: string; uid?: string; labels?: Record<string, string>; annotations?: Record<string, string> } & Record<string, unknown>;
  spec?: Record<string, unknown>;
  [field: string]: unknown;
}

/** Where one cluster-scoped collection lives: `/apis/<group>/<version>/<plural>` or `/api/v1/<plural>`. */
export interface CollectionRef {
  readonly apiVersion: string;
  readonly plural: string;
}

const PAGE_SIZE = 500;

/** Four attempts, waiting 50, 100 and 200 ms between them (design/ipam-datastore.md, "Transport retries"). */
export const KUBE_TRANSPORT_RETRY: TransportRetry = { attempts: 4, backoff: { baseMs: 50, capMs: 200 } };

/**
 * The verbs on one cluster-scoped collection, each retried on transient failures only. Requests
 * are idempotent or CAS-guarded, so a retry after a lost answer surfaces as AlreadyExists or
 * Conflict, never as a silent double write.
 */
export class KubeCollection {
  private readonly base: string;

  constructor(
    private readonly transport: KubeTransport,
    readonly ref: CollectionRef,
  ) {
    this.base = ref.apiVersion.includes('/') ? `/apis/${ref.apiVersion}/${ref.plural}` : `/api/${ref.apiVersion}/${ref.plural}`;
  }

  private id(name: string): string {
    return `${this.ref.plural}/${name}`;
  }

  private send(request: KubeRequest): Promise<unknown> {
    return retryUnavailable(() => this.transport.send(request), KUBE_TRANSPORT_RETRY);
  }

  private path(name: string): string {
    return `${this.base}/${encodeURIComponent(name)}`;
  }

  async get(name: string): Promise<RawObject> {
    return (await this.send({ method: 'GET', path: this.path(name), identifier: this.id(name) })) as RawObject;
  }

  /** Every object (following `continue`), and the resourceVersion the list was taken at. */
  async list(labelSelector?: string): Promise<{ items: RawObject[]; resourceVersion: string }> {
    const items: RawObject[] = [];
    let token: string | undefined;
    let resourceVersion = '';
    do {
      const page = (await this.send({
        method: 'GET',
        path: this.base,
        query: { labelSelector, limit: String(PAGE_SIZE), continue: token },
        identifier: this.ref.plural,
      })) as { items?: RawObject[]; metadata?: { resourceVersion?: string; continue?: string } };
      items.push(...(page.items ?? []));
      resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
      token = page.metadata?.continue === '' ? undefined : page.metadata?.continue;
    } while (token !== undefined);
    return { items, resourceVersion };
  }

  async create(body: RawObject): Promise<RawObject> {
    const name = body.metadata?.name ?? '';
    return (await this.send({ method: 'POST', path: this.base, body, identifier: this.id(name) })) as RawObject;
  }

  /** PUT; with `metadata.resourceVersion` set this is compare-and-swap. */
  async replace(body: RawObject): Promise<RawObject> {
    const name = body.metadata?.name ?? '';
    return (await this.send({ method: 'PUT', path: this.path(name), body, identifier: this.id(name) })) as RawObject;
  }

  async remove(name: string, preconditions?: { readonly uid?: string; readonly resourceVersion?: string }): Promise<void> {
    const body = preconditions === undefined ? undefined : { apiVersion: 'v1', kind: 'DeleteOptions', preconditions };
    await this.send({ method: 'DELETE', path: this.path(name), ...(body === undefined ? {} : { body }), identifier: this.id(name) });
  }

  /** Raw watch events (`{type, object}`) after `resourceVersion`, with bookmarks. */
  watch(resourceVersion: string, signal: AbortSignal): AsyncGenerator {
    return this.transport.stream(
      {
        method: 'GET',
        path: this.base,
        query: { watch: '1', resourceVersion, allowWatchBookmarks: 'true' },
        identifier: this.ref.plural,
      },
      signal,
    );
  }
}
