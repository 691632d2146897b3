import { applyIPPoolDefaults, type IPPool } from '@ipamkit/models';
import { ipPoolFieldProblems } from './ip-pool-validation.js';
import type { ResourceHandler } from './resource-handler.js';
import { decodeIPPoolDocument, encodeIPPoolDocument } from './v3-documents.js';

/** IPPools (design/cli.md "Resources"); the table columns are calicoctl's `get ippool`. */
export const ipPoolHandler: ResourceHandler<IPPool> = {
  kind: 'IPPool',
  aliases: ['ippool', 'ippools', 'ipp', 'ipps', 'pool', 'pools'],
  decode: decodeIPPoolDocument,
  encode: encodeIPPoolDocument,
  nameOf: (pool) => pool.name,
  withoutMeta: ({ revision: _revision, uid: _uid, ...pool }) => pool,
  get: (ds, name) => ds.ipPools.get(name),
  list: (ds) => ds.ipPools.list(),
  create: (ds, pool) => ds.ipPools.create(pool),
  update: (ds, pool) => ds.ipPools.update(pool),
  delete: (ds, name, revision) => ds.ipPools.delete(name, revision),
  validate: (pool, ctx) => ipPoolFieldProblems(pool, ctx.previous, ctx.others, ctx.datastore),
  header: ['NAME', 'CIDR', 'SELECTOR'],
  wideHeader: ['NAME', 'CIDR', 'NAT', 'IPIPMODE', 'VXLANMODE', 'DISABLED', 'DISABLEBGPEXPORT', 'SELECTOR'],
  row(pool, wide) {
    const d = applyIPPoolDefaults(pool);
    if (!wide) return [pool.name, pool.cidr, d.nodeSelector];
    return [pool.name, pool.cidr, String(d.natOutgoing ?? false), d.ipipMode, d.vxlanMode, String(d.disabled ?? false), String(d.disableBGPExport ?? false), d.nodeSelector];
  },
};
