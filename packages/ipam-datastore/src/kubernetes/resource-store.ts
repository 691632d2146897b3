import type { ResourceStore, Versioned } from '@ipamkit/models';
import type { CoreBinding } from './core-bindings.js';
import { CrdModelStore, type ModelBinding } from './crd-model-store.js';

/** A user-facing store keyed by name over a custom resource (pools, reservations). */
export function crdResourceStore<T extends { name: string }>(binding: ModelBinding<T>): ResourceStore<T> {
  const store = new CrdModelStore(binding);
  return {
    create: (obj) => store.create(obj),
    get: (name) => store.get(name),
    list: () => store.list(),
    update: (obj) => store.update(obj),
    delete: (name, revision) => store.deleteByName(name, revision),
    listWithRevision: () => store.listWithRevision(),
    watch: (options) => store.watch(options),
  };
}

/**
 * Nodes and Namespaces: an update reads the Kubernetes object and changes only what the model
 * owns, then writes it back with the caller's revision, so it is still compare-and-swap.
 */
export function coreResourceStore<T extends { name: string }>(binding: CoreBinding<T>): ResourceStore<T> {
  const base = crdResourceStore(binding);
  return {
    ...base,
    async update(obj: Versioned<T>): Promise<Versioned<T>> {
      // eslint-disable-next-line ipamkit/require-soft-delete-filter -- Nodes and Namespaces are core kinds with no soft delete.
      const current = await binding.collection.get(obj.name);
      return binding.decode(await binding.collection.replace(binding.mergeInto(current, obj)));
    },
  };
}
