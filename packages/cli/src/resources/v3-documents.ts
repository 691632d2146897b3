/* eslint-disable ipamkit/no-wire-types-outside-datastore -- calicoctl's projectcalico.org/v3 documents are
   this command family's user-facing format (design/cli.md "Resources"), as the export document is
   migrate's; the codecs of @ipamkit/models are the one place that format is parsed and written, and
   this file is the only one in `resources/` that calls them. */
import {
  decodeV3,
  decodeV3Node,
  encodeV3,
  encodeV3Node,
  type IPAMConfig,
  type IPPool,
  type IPReservation,
  type Node,
  type WireMeta,
} from '@ipamkit/models';
import type { V3Document } from './resource-handler.js';

export const decodeIPPoolDocument = (doc: unknown): IPPool & WireMeta => decodeV3('IPPool', doc);
export const encodeIPPoolDocument = (pool: IPPool & WireMeta): V3Document => ({ ...encodeV3('IPPool', pool) });

export const decodeIPReservationDocument = (doc: unknown): IPReservation & WireMeta => decodeV3('IPReservation', doc);
export const encodeIPReservationDocument = (r: IPReservation & WireMeta): V3Document => ({ ...encodeV3('IPReservation', r) });

/** The v3 kind is `IPAMConfiguration`, named `default`. */
export const decodeIPAMConfigDocument = (doc: unknown): IPAMConfig & WireMeta => decodeV3('IPAMConfig', doc);
export const encodeIPAMConfigDocument = (config: IPAMConfig & WireMeta): V3Document => ({ ...encodeV3('IPAMConfig', config) });

export const decodeNodeDocument = (doc: unknown): Node & WireMeta => decodeV3Node(doc);
/** `apiVersion` first, as the other kinds print. */
export function encodeNodeDocument(node: Node & WireMeta): V3Document {
  const { apiVersion, kind, ...rest } = encodeV3Node(node);
  return { apiVersion, kind, ...rest };
}
