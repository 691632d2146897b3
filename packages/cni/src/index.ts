// The public API of @ipamkit/cni (design/cni.md, "Public surface"): the in-process CNI entry point, the
// network config it reads, the CNI versions it speaks and its errors.
export { type CniVersion, PLUGIN_CNI_VERSION, SUPPORTED_VERSIONS } from './config/cni-version.js';
export { datastoreConfigFor } from './config/datastore-config.js';
export { type NetConf, parseNetConf } from './config/net-config.js';
export {
  AllocationError,
  CheckFailedError,
  CNI_CODES,
  type CniCode,
  CniDecodeError,
  CniEnvironmentError,
  CniError,
  IncompatibleVersionError,
  NetworkConfigError,
  PluginUnavailableError,
} from './errors.js';
export { runCni, type RunCniOptions, type RunCniResult } from './run-cni.js';
