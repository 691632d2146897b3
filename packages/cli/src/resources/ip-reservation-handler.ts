import { parseAddressOrCidr, type IPReservation } from '@ipamkit/models';
import type { ErroredField } from './resource-errors.js';
import type { ResourceHandler } from './resource-handler.js';
import { decodeIPReservationDocument, encodeIPReservationDocument } from './v3-documents.js';

function cidrProblems(reservation: IPReservation): ErroredField[] {
  const problems: ErroredField[] = [];
  for (const cidr of reservation.reservedCIDRs) {
    try {
      parseAddressOrCidr(cidr.trim());
    } catch {
      problems.push({ name: 'IPReservation.Spec.ReservedCIDRs', value: cidr, reason: 'must be an IP address or CIDR' });
    }
  }
  return problems;
}

/** IPReservations (design/cli.md "Resources"). */
export const ipReservationHandler: ResourceHandler<IPReservation> = {
  kind: 'IPReservation',
  aliases: ['ipreservation', 'ipreservations', 'ipr', 'iprs'],
  decode: decodeIPReservationDocument,
  encode: encodeIPReservationDocument,
  nameOf: (reservation) => reservation.name,
  withoutMeta: ({ revision: _revision, uid: _uid, ...reservation }) => reservation,
  get: (ds, name) => ds.ipReservations.get(name),
  list: (ds) => ds.ipReservations.list(),
  create: (ds, reservation) => ds.ipReservations.create(reservation),
  update: (ds, reservation) => ds.ipReservations.update(reservation),
  delete: (ds, name, revision) => ds.ipReservations.delete(name, revision),
  validate: (reservation) => Promise.resolve(cidrProblems(reservation)),
  header: ['NAME'],
  wideHeader: ['NAME', 'CIDRS'],
  row: (reservation, wide) => (wide ? [reservation.name, reservation.reservedCIDRs.join(',')] : [reservation.name]),
};
