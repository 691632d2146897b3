import type { Datastore, Versioned, WireMeta } from '@ipamkit/models';
import type { ErroredField } from './resource-errors.js';

/** The kinds `get|create|apply|replace|delete` manage (design/cli.md "Resources"). */
export type ResourceKind = 'IPPool' | 'IPReservation' | 'IPAMConfiguration' | 'Node';

/** A `projectcalico.org/v3` document as read from a file or written to the terminal. */
export type V3Document = Record<string, unknown>;

/** What validation may look at besides the object: the other objects of its kind, and the datastore. */
export interface ValidationContext<T> {
  /** The stored object this one replaces (undefined on create). */
  readonly previous: T | undefined;
  /** Every other object of the kind as it will be once the earlier documents are written. */
  readonly others: readonly T[];
  readonly datastore: Datastore;
}

/** One kind's codec, store access, validation and table columns, behind one interface. */
export interface ResourceHandler<T> {
  readonly kind: ResourceKind;
  /** Lower-case names `get <kind>` accepts, calicoctl's included. */
  readonly aliases: readonly string[];
  decode(doc: unknown): T & WireMeta;
  encode(obj: T & WireMeta): V3Document;
  nameOf(obj: T): string;
  /** The object without revision and uid, as a create writes it. */
  withoutMeta(obj: T & WireMeta): T;
  get(ds: Datastore, name: string): Promise<Versioned<T>>;
  list(ds: Datastore): Promise<Versioned<T>[]>;
  create(ds: Datastore, obj: T): Promise<Versioned<T>>;
  update(ds: Datastore, obj: Versioned<T>): Promise<Versioned<T>>;
  delete(ds: Datastore, name: string, revision: string | undefined): Promise<void>;
  /** Every field Calico would refuse; empty when the object may be written. */
  validate(obj: T, ctx: ValidationContext<T>): Promise<ErroredField[]>;
  readonly header: readonly string[];
  readonly wideHeader: readonly string[];
  row(obj: T, wide: boolean): string[];
}
