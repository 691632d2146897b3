import type { Datastore, IPPool } from '@ipamkit/models';
import type { IpamClient } from '@ipamkit/ipam-core';
import type { Logger } from '@ipamkit/models';

/** What one reconcile works with: the clients, the node it serves and the pools it listed once. */
export interface TunnelContext {
  readonly datastore: Datastore;
  readonly ipam: IpamClient;
  readonly nodeName: string;
  readonly pools: readonly IPPool[];
  readonly logger: Logger;
}
