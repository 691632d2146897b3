export { createMemoryDatastore, type MemoryDatastoreOptions } from './create-memory-datastore.js';
