import { AlreadyExistsError, CodecError, ConflictError, NotFoundError, type Datastore, type Versioned, type WireMeta } from '@ipamkit/models';
import { ResourceDocumentError, ResourceValidationError } from './resource-errors.js';
import type { ResourceHandler, ResourceKind, V3Document } from './resource-handler.js';

export type ResourceAction = 'create' | 'apply' | 'replace' | 'delete';

/** A document that passed every check; `write` performs it. */
export interface PlannedWrite {
  readonly kind: ResourceKind;
  readonly name: string;
  write(ds: Datastore): Promise<void>;
}

/** What `get` shows: the stored documents and their table rows. */
export interface Listed {
  readonly kind: ResourceKind;
  readonly documents: V3Document[];
  readonly rows: string[][];
  readonly header: readonly string[];
}

/** One kind behind a type-erased face, so commands can mix kinds in one file. */
export interface KindOps {
  readonly kind: ResourceKind;
  readonly aliases: readonly string[];
  /** Checks one document against the stored objects and the earlier documents, writing nothing. */
  plan(action: ResourceAction, doc: V3Document, ds: Datastore, where: string): Promise<PlannedWrite>;
  /** `delete <kind> <name>`: a plan without a document. */
  planDeleteByName(name: string, ds: Datastore): Promise<PlannedWrite>;
  get(ds: Datastore, name: string | undefined, wide: boolean): Promise<Listed>;
}

function identifier(kind: ResourceKind, name: string): string {
  return `${kind}(${name})`;
}

/**
 * The plan-then-write pipeline of design/cli.md "Resources" for one kind. `working` is what the
 * datastore will hold once the documents planned so far are written: later documents of the same
 * file are validated against it (two overlapping pools in one file are refused before either is written).
 */
export function kindOps<T>(h: ResourceHandler<T>): KindOps {
  let working: Map<string, T> | undefined;
  const stored = new Map<string, Versioned<T>>();

  async function load(ds: Datastore): Promise<Map<string, T>> {
    if (working === undefined) {
      const items = await h.list(ds);
      for (const item of items) stored.set(h.nameOf(item), item);
      working = new Map(items.map((item) => [h.nameOf(item), item]));
    }
    return working;
  }

  function decode(doc: V3Document, where: string): T & WireMeta {
    try {
      return h.decode(doc);
    } catch (err) {
      if (err instanceof CodecError) throw new ResourceDocumentError(`${where}: ${err.message}`, { cause: err });
      throw err;
    }
  }

  async function validate(obj: T, previous: T | undefined, current: Map<string, T>, ds: Datastore): Promise<void> {
    const name = h.nameOf(obj);
    const others = [...current.entries()].filter(([n]) => n !== name).map(([, o]) => o);
    const fields = await h.validate(obj, { previous, others, datastore: ds });
    if (fields.length > 0) throw new ResourceValidationError(fields);
  }

  /** `replace` and `delete` with `metadata.resourceVersion` must name the stored revision. */
  function checkRevision(obj: WireMeta, name: string): void {
    const live = stored.get(name);
    if (obj.revision !== undefined && live !== undefined && obj.revision !== live.revision) {
      throw new ConflictError(identifier(h.kind, name), `update conflict: ${identifier(h.kind, name)}`);
    }
  }

  async function writeUpsert(ds: Datastore, model: T, revision: string | undefined, mayCreate: boolean): Promise<void> {
    const name = h.nameOf(model);
    let live: Versioned<T> | undefined;
    try {
      live = await h.get(ds, name);
    } catch (err) {
      if (!(err instanceof NotFoundError) || !mayCreate) throw err;
    }
    if (live === undefined) {
      await h.create(ds, model);
      return;
    }
    // A document's resourceVersion names a stored revision; for an object an earlier document of
    // the same file created, it cannot, and the live one is used.
    const expected = revision !== undefined && stored.has(name) ? revision : live.revision;
    await h.update(ds, { ...model, revision: expected });
  }

  async function getNamed(ds: Datastore, name: string): Promise<Versioned<T>> {
    try {
      return await h.get(ds, name);
    } catch (err) {
      if (err instanceof NotFoundError) throw new NotFoundError(identifier(h.kind, name), undefined, { cause: err });
      throw err;
    }
  }

  async function plan(action: ResourceAction, doc: V3Document, ds: Datastore, where: string): Promise<PlannedWrite> {
    const obj = decode(doc, where);
    const name = h.nameOf(obj);
    const id = identifier(h.kind, name);
    const current = await load(ds);
    const previous = current.get(name);
    const model = h.withoutMeta(obj);
    const planned = (write: (ds: Datastore) => Promise<void>): PlannedWrite => ({ kind: h.kind, name, write });
    switch (action) {
      case 'create':
        if (previous !== undefined) throw new AlreadyExistsError(id);
        await validate(model, undefined, current, ds);
        current.set(name, model);
        return planned(async (target) => {
          await h.create(target, model);
        });
      case 'apply':
      case 'replace':
        // Only replace needs the resource to exist; for both, a resourceVersion in the document
        // makes the update compare-and-swap.
        if (action === 'replace' && previous === undefined) throw new NotFoundError(id);
        checkRevision(obj, name);
        await validate(model, previous, current, ds);
        current.set(name, model);
        return planned((target) => writeUpsert(target, model, obj.revision, action === 'apply'));
      case 'delete':
        if (previous === undefined) throw new NotFoundError(id);
        checkRevision(obj, name);
        current.delete(name);
        return planned((target) => h.delete(target, name, obj.revision));
    }
  }

  return {
    kind: h.kind,
    aliases: h.aliases,
    plan,
    async planDeleteByName(name, ds) {
      const current = await load(ds);
      if (!current.has(name)) throw new NotFoundError(identifier(h.kind, name));
      current.delete(name);
      return { kind: h.kind, name, write: (target) => h.delete(target, name, undefined) };
    },
    async get(ds, name, wide) {
      const items = name === undefined ? await h.list(ds) : [await getNamed(ds, name)];
      items.sort((a, b) => h.nameOf(a).localeCompare(h.nameOf(b)));
      return {
        kind: h.kind,
        documents: items.map((item) => h.encode(item)),
        rows: items.map((item) => h.row(item, wide)),
        header: wide ? h.wideHeader : h.header,
      };
    },
  };
}
