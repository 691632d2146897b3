import {
  IPAMConfigConflictError,
  IPAMConfigValidationError,
  NotFoundError,
  orUndefined,
  validateIPAMConfig,
  type Datastore,
  type IPAMConfig,
  type Versioned,
} from '@ipamkit/models';
import type { ErroredField } from './resource-errors.js';
import type { ResourceHandler } from './resource-handler.js';
import { decodeIPAMConfigDocument, encodeIPAMConfigDocument } from './v3-documents.js';

/** The only name an IPAMConfiguration may have. */
const SINGLETON = 'default';

async function stored(ds: Datastore, name: string): Promise<Versioned<IPAMConfig>> {
  if (name !== SINGLETON) throw new NotFoundError(`IPAMConfiguration(${name})`);
  try {
    return await ds.ipamConfig.get();
  } catch (err) {
    if (err instanceof NotFoundError) throw new NotFoundError(`IPAMConfiguration(${name})`, undefined, { cause: err });
    throw err;
  }
}

function configProblems(config: IPAMConfig): ErroredField[] {
  try {
    validateIPAMConfig(config);
    return [];
  } catch (err) {
    if (err instanceof IPAMConfigConflictError || err instanceof IPAMConfigValidationError) {
      return [{ name: 'IPAMConfiguration.Spec', value: SINGLETON, reason: err.message }];
    }
    throw err;
  }
}

/** The IPAM configuration singleton `default` (design/cli.md "Resources"). */
export const ipamConfigHandler: ResourceHandler<IPAMConfig> = {
  kind: 'IPAMConfiguration',
  aliases: ['ipamconfiguration', 'ipamconfigurations', 'ipamconfig', 'ipamconfigs'],
  decode: decodeIPAMConfigDocument,
  encode: encodeIPAMConfigDocument,
  nameOf: () => SINGLETON,
  withoutMeta: ({ revision: _revision, uid: _uid, ...config }) => config,
  get: stored,
  async list(ds) {
    const config = await orUndefined(ds.ipamConfig.get());
    return config === undefined ? [] : [config];
  },
  create: (ds, config) => ds.ipamConfig.create(config),
  update: (ds, config) => ds.ipamConfig.update(config),
  delete: (ds, _name, revision) => ds.ipamConfig.delete(revision),
  validate: (config) => Promise.resolve(configProblems(config)),
  header: ['NAME'],
  wideHeader: ['NAME', 'STRICTAFFINITY', 'AUTOALLOCATEBLOCKS', 'MAXBLOCKSPERHOST'],
  row: (config, wide) =>
    wide ? [SINGLETON, String(config.strictAffinity), String(config.autoAllocateBlocks), String(config.maxBlocksPerHost)] : [SINGLETON],
};
