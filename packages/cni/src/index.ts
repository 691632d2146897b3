// The public API of @ipamkit/cni (design/architecture.md#public-api): the in-process CNI entry point and its errors.
export { runCni, type RunCniOptions, type RunCniResult } from './run-cni.js';
export {
  AllocationError,
  CheckFailedError,
  CNI_CODES,
  CniDecodeError,
  CniEnvironmentError,
  CniError,
  IncompatibleVersionError,
  NetworkConfigError,
  PluginUnavailableError,
  type CniCode,
} from './errors.js';
export { SUPPORTED_VERSIONS, PLUGIN_CNI_VERSION, type CniVersion } from './config/cni-version.js';
export { parseNetConf, type NetConf } from './config/net-config.js';
export { parseCniArgs, type CniArgs } from './config/cni-args.js';
export { datastoreConfigFor, netconfDatastoreOverrides, NETCONF_DATASTORE_KEYS, DEFAULT_SQLITE_PATH } from './config/datastore-config.js';
export { allocationRequest, type AllocationRequest } from './request/allocation-request.js';
export { renderResult, renderError, type IpamResult } from './result/cni-result.js';
export { staleHandles } from './verbs/cmd-gc.js';
export { DEFAULT_LOCK_FILE } from './runtime/ipam-lock.js';
