import { describe, expect, it } from 'vitest';
import {
  AlreadyExistsError,
  ConflictError,
  NotFoundError,
  type Datastore,
  type IPPool,
  type IPReservation,
  type Namespace,
  type Node,
  type ResourceStore,
} from '@ipamkit/models';

interface ResourceCase<T extends { name: string }> {
  readonly store: string;
  readonly pick: (ds: Datastore) => ResourceStore<T>;
  readonly first: T;
  readonly second: T;
  /** `first` after an edit, for the update tests. */
  readonly edited: T;
}

const pool = (name: string, cidr: string, blockSize = 26): IPPool => ({ name, cidr, blockSize, nodeSelector: 'all()' });
const reservation = (name: string, cidrs: string[]): IPReservation => ({ name, reservedCIDRs: cidrs });
const node = (name: string, zone: string): Node => ({ name, labels: { 'kubernetes.io/hostname': name, zone } });
const namespace = (name: string, team: string): Namespace => ({ name, labels: { team } });

// Typed per case, then widened: the tests only use the shared ResourceStore surface.
const CASES = [
  { store: 'ipPools', pick: (ds) => ds.ipPools, first: pool('pool-a', '10.0.0.0/24'), second: pool('pool-b', '10.1.0.0/24'), edited: pool('pool-a', '10.0.0.0/24', 28) } satisfies ResourceCase<IPPool>,
  { store: 'ipReservations', pick: (ds) => ds.ipReservations, first: reservation('res-a', ['10.0.0.1/32']), second: reservation('res-b', ['10.0.5.0/24']), edited: reservation('res-a', ['10.0.0.1/32', '10.0.0.2/32']) } satisfies ResourceCase<IPReservation>,
  { store: 'nodes', pick: (ds) => ds.nodes, first: node('node-a', 'z1'), second: node('node-b', 'z2'), edited: node('node-a', 'z3') } satisfies ResourceCase<Node>,
  { store: 'namespaces', pick: (ds) => ds.namespaces, first: namespace('ns-a', 'blue'), second: namespace('ns-b', 'red'), edited: namespace('ns-a', 'green') } satisfies ResourceCase<Namespace>,
] as unknown as ResourceCase<{ name: string }>[];

/** create / get / list / update / delete semantics shared by the four user-facing stores. */
export function resourceStoreContract(ds: () => Datastore): void {
  for (const c of CASES) {
    describe(c.store, () => {
      it('reads back what it created, lists it, and forgets it after delete', async () => {
        const store = c.pick(ds());
        const created = await store.create(c.first);
        expect(created).toMatchObject(c.first);
        expect(created.revision).not.toBe('');
        expect(await store.get(c.first.name)).toMatchObject({ ...c.first, revision: created.revision });
        await store.create(c.second);
        const names = (await store.list()).map((o) => o.name).sort();
        expect(names).toEqual([c.first.name, c.second.name].sort());
        await store.delete(c.first.name, created.revision);
        await expect(store.get(c.first.name)).rejects.toBeInstanceOf(NotFoundError);
        expect((await store.list()).map((o) => o.name)).toEqual([c.second.name]);
      });

      it('refuses to create an existing name with AlreadyExistsError', async () => {
        const store = c.pick(ds());
        await store.create(c.first);
        await expect(store.create(c.edited)).rejects.toBeInstanceOf(AlreadyExistsError);
        expect(await store.get(c.first.name)).toMatchObject(c.first);
      });

      it('updates with the current revision and hands back a new one', async () => {
        const store = c.pick(ds());
        const created = await store.create(c.first);
        const updated = await store.update({ ...c.edited, revision: created.revision });
        expect(updated).toMatchObject(c.edited);
        expect(updated.revision).not.toBe(created.revision);
        expect(await store.get(c.first.name)).toMatchObject({ ...c.edited, revision: updated.revision });
      });

      it('refuses an update with a stale revision with ConflictError and keeps the stored value', async () => {
        const store = c.pick(ds());
        const created = await store.create(c.first);
        const updated = await store.update({ ...c.edited, revision: created.revision });
        await expect(store.update({ ...c.first, revision: created.revision })).rejects.toBeInstanceOf(ConflictError);
        expect(await store.get(c.first.name)).toMatchObject({ ...c.edited, revision: updated.revision });
      });

      it('reports NotFoundError for get, update and delete of a missing name', async () => {
        const store = c.pick(ds());
        const created = await store.create(c.second);
        await expect(store.get(c.first.name)).rejects.toBeInstanceOf(NotFoundError);
        await expect(store.update({ ...c.first, revision: created.revision })).rejects.toBeInstanceOf(NotFoundError);
        await expect(store.delete(c.first.name)).rejects.toBeInstanceOf(NotFoundError);
        await expect(store.delete(c.first.name, created.revision)).rejects.toBeInstanceOf(NotFoundError);
      });

      it('refuses a delete with a stale revision and deletes unconditionally without one', async () => {
        const store = c.pick(ds());
        const created = await store.create(c.first);
        await store.update({ ...c.edited, revision: created.revision });
        await expect(store.delete(c.first.name, created.revision)).rejects.toBeInstanceOf(ConflictError);
        expect(await store.get(c.first.name)).toMatchObject(c.edited);
        await store.delete(c.first.name);
        await expect(store.get(c.first.name)).rejects.toBeInstanceOf(NotFoundError);
      });
    });
  }
}
