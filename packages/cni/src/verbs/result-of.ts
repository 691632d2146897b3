import { definedFields, ipVersionOfAddress } from '@ipamkit/models';
import type { NetConf } from '../config/net-config.js';
import type { IpamResult } from '../result/cni-result.js';

/**
 * The result for a set of `<ip>/<prefix>` strings: Calico's one route per address (dst = the
 * address) unless the config lists `ipam.routes`; a gateway per family only when `ipam.gateways`
 * names one (main plugins such as ptp need it; Calico's does not).
 */
export function resultOf(conf: NetConf, addresses: readonly string[]): IpamResult {
  const gatewayFor = (address: string): string | undefined => {
    const version = ipVersionOfAddress(address.split('/')[0] ?? '');
    return conf.ipam.gateways.find((g) => ipVersionOfAddress(g) === version);
  };
  return {
    ips: addresses.map((address) => ({ address, ...definedFields({ gateway: gatewayFor(address) }) })),
    routes: conf.ipam.routes ?? addresses.map((address) => ({ dst: address })),
  };
}
