import { ValidationError } from '@ipamkit/models';

// lb-alloc's own errors (design/lb-alloc.md, "Error taxonomy"). Datastore and IPAM errors come from
// @ipamkit/models and @ipamkit/ipam-core unchanged.

/** A Service's Calico annotations or `spec.loadBalancerIP` cannot be used; the Service is skipped. */
export class ServiceAnnotationError extends ValidationError {
  override name = 'ServiceAnnotationError';
  constructor(readonly service: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The controller was configured with something it cannot run with (bad `assignIPs`, bad interval). */
export class LbConfigError extends ValidationError {
  override name = 'LbConfigError';
}
