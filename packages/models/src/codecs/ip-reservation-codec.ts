import type { IPReservation } from '../resources/ip-reservation.js';
import { codecFail, optArray } from './field-readers.js';
import type { CrdCodec } from './ipam-crd-codecs.js';
import { metaOf } from './ipam-crd-codecs.js';
import { readKubeObject, readName, writeKubeObject } from './kube-object.js';

/**
 * IPReservation (design/calico-stored-formats.md#ip-reservations). Entries are kept verbatim: consumers trim, skip blanks, accept bare
 * addresses and skip unparsable entries, so rejecting or rewriting them here would change what
 * Calico reserves. Fields other than `reservedCIDRs` and labels are not kept.
 */
export const ipReservationCodec: CrdCodec<IPReservation> = {
  decode(cr, group) {
    const { metadata, spec, meta } = readKubeObject(cr, group, ['IPReservation']);
    const reservedCIDRs = (optArray(spec, 'reservedCIDRs', 'spec') ?? []).map((c, i) => {
      if (typeof c !== 'string') codecFail(`spec.reservedCIDRs[${i}]`, 'expected a string');
      return c;
    });
    return { name: readName(metadata), reservedCIDRs, ...meta };
  },
  encode(reservation, group) {
    const spec = reservation.reservedCIDRs.length === 0 ? {} : { reservedCIDRs: [...reservation.reservedCIDRs] };
    return writeKubeObject({ group, kind: 'IPReservation', name: reservation.name, meta: metaOf(reservation), spec });
  },
};
