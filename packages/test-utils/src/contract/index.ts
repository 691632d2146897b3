export { runDatastoreContract } from './run-datastore-contract.js';
export type { ContractBackend, ContractOptions, ContractSetup, SoftDeletedRow } from './contract-backend.js';
export { collectEvents, describeEvent, type ChangeEvent } from './collect-events.js';
export {
  BIG_SEQUENCE_NUMBER,
  SAMPLE_IPAM_CONFIG,
  allocateFirst,
  content,
  sampleAffinity,
  sampleBlock,
  sampleHandle,
} from './contract-fixtures.js';
