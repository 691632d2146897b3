import { AlreadyExistsError, NotFoundError, WatchExpiredError, type Versioned, type WatchEvent, type WatchOptions } from '@ipamkit/models';
import type { KubeCollection, RawObject } from './kube-collection.js';
import { statusError } from './translate-kube-error.js';
import { stringifyWireJson } from '@ipamkit/models';

/** How one model kind maps onto one collection of Kubernetes objects. */
export interface ModelBinding<T> {
  readonly collection: KubeCollection;
  /** Blocks, affinities, handles: readers hide `deleted` rows (Calico soft-deletes them) and finish their deletion. */
  readonly softDelete: boolean;
  nameOf(model: T): string;
  /** The identity used in watch events (the store's key). */
  keyOf(model: T): string;
  decode(raw: RawObject): Versioned<T>;
  /** Revision and UID (already the exposed form) are carried over when present on `model`. */
  encode(model: T | Versioned<T>): RawObject;
  isDeleted(model: T): boolean;
}

/** The one test every read path (get, list, watch) applies: soft-deleted rows do not exist for readers (design/calico-stored-formats.md#soft-delete). */
export function isVisible<T>(binding: ModelBinding<T>, row: T): boolean {
  return !binding.softDelete || !binding.isDeleted(row);
}

export function visibleRows<T>(binding: ModelBinding<T>, rows: Versioned<T>[]): Versioned<T>[] {
  return rows.filter((row) => isVisible(binding, row));
}

interface RawWatchEvent {
  type?: string;
  object?: RawObject & { code?: number; message?: string };
}

/**
 * Create / get / list / update / delete / list-then-watch of one model kind over the API server,
 * with Calico's soft-delete protocol for the IPAM kinds.
 */
export class CrdModelStore<T> {
  constructor(private readonly binding: ModelBinding<T>) {}

  private get collection(): KubeCollection {
    return this.binding.collection;
  }

  /** `matches` rejects an object found under the name that is not the one asked for (an affinity of another type). */
  async get(name: string, matches: (model: T) => boolean = () => true): Promise<Versioned<T>> {
    const raw = await this.collection.get(name);
    const model = this.binding.decode(raw);
    if (!matches(model)) throw new NotFoundError(`${this.collection.ref.plural}/${name}`);
    if (!isVisible(this.binding, model)) {
      // Finish the half-done delete as Calico's Get does, then report the row as gone.
      await this.hardDelete(raw).catch(() => undefined);
      throw new NotFoundError(`${this.collection.ref.plural}/${name}`);
    }
    return model;
  }

  async listWithRevision(labelSelector?: string): Promise<{ items: Versioned<T>[]; revision: string }> {
    const { items, resourceVersion } = await this.collection.list(labelSelector);
    return { items: visibleRows(this.binding, items.map((raw) => this.binding.decode(raw))), revision: resourceVersion };
  }

  async list(labelSelector?: string): Promise<Versioned<T>[]> {
    return (await this.listWithRevision(labelSelector)).items;
  }

  async create(model: T): Promise<Versioned<T>> {
    const body = this.binding.encode(model);
    try {
      return this.binding.decode(await this.collection.create(body));
    } catch (err) {
      if (!(err instanceof AlreadyExistsError) || !this.binding.softDelete) throw err;
      // A soft-deleted row under the same name is invisible: finish its deletion and create again.
      const existing = await this.collection.get(this.binding.nameOf(model));
      if (isVisible(this.binding, this.binding.decode(existing))) throw err;
      await this.hardDelete(existing);
      return this.binding.decode(await this.collection.create(body));
    }
  }

  /** Compare-and-swap on `revision` (PUT with metadata.resourceVersion). */
  async update(model: Versioned<T>): Promise<Versioned<T>> {
    return this.binding.decode(await this.collection.replace(this.binding.encode(model)));
  }

  /**
   * Compare-and-delete: one DELETE whose precondition is the revision read, which the API server
   * checks atomically with the removal (design/ipam-datastore.md, "Deletes in one request"). Calico
   * soft-deletes first; readers still hide and finish such rows, whoever wrote them.
   */
  async deleteVersioned(model: Versioned<T>): Promise<void> {
    await this.collection.remove(this.binding.nameOf(model), { resourceVersion: model.revision });
  }

  async deleteByName(name: string, revision?: string): Promise<void> {
    await this.collection.remove(name, revision === undefined ? undefined : { resourceVersion: revision });
  }

  /** DELETE with the real UID as precondition: never removes a newer object of the same name. */
  private async hardDelete(raw: RawObject): Promise<void> {
    const uid = raw.metadata?.uid;
    await this.collection.remove(raw.metadata?.name ?? '', uid === undefined ? undefined : { uid }).catch((err: unknown) => {
      // Someone else finished the delete (or the UID moved on): the row we soft-deleted is gone.
      if (!(err instanceof NotFoundError)) throw err;
    });
  }

  /** Every change after `fromRevision` (or from now), re-watching when the server ends a stream. */
  async *watch(options: WatchOptions = {}): AsyncGenerator<WatchEvent<T>> {
    const abort = new AbortController();
    const onAbort = (): void => abort.abort();
    options.signal?.addEventListener('abort', onAbort);
    let revision = options.fromRevision ?? (await this.collection.list()).resourceVersion;
    try {
      while (!abort.signal.aborted) {
        for await (const line of this.collection.watch(revision, abort.signal)) {
          const event = line as RawWatchEvent;
          const object = event.object ?? {};
          if (event.type === 'ERROR') {
            if (object.code === 410) throw new WatchExpiredError(`${this.collection.ref.plural}: ${object.message ?? 'resourceVersion too old'}`);
            throw statusError(object.code ?? 500, stringifyWireJson(object), this.collection.ref.plural);
          }
          revision = object.metadata?.resourceVersion ?? revision;
          if (event.type === 'BOOKMARK') {
            yield { type: 'bookmark', revision };
            continue;
          }
          const out = this.translate(event.type, object, revision);
          if (out !== undefined) yield out;
        }
      }
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      abort.abort();
    }
  }

  private translate(type: string | undefined, raw: RawObject, revision: string): WatchEvent<T> | undefined {
    const model = this.binding.decode(raw);
    const key = this.binding.keyOf(model);
    const deleted = !isVisible(this.binding, model);
    switch (type) {
      case 'ADDED':
        return deleted ? undefined : { type: 'added', key, object: model, revision };
      case 'MODIFIED':
        // A soft delete is the delete readers see; the hard DELETE that follows is then silent.
        return deleted ? { type: 'deleted', key, previous: model, revision } : { type: 'modified', key, object: model, revision };
      case 'DELETED':
        return deleted ? undefined : { type: 'deleted', key, previous: model, revision };
      default:
        return undefined;
    }
  }
}
