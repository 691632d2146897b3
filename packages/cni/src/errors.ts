import { IpamError, type ErrorCategory } from '@ipamkit/models';

/**
 * The CNI well-known error codes this plugin emits (design/calico-callers.md#cni-errors). Everything the handler
 * cannot classify is 999, as in Calico.
 */
export const CNI_CODES = {
  incompatibleVersion: 1,
  invalidEnvironment: 4,
  ioFailure: 5,
  decodeFailure: 6,
  invalidNetworkConfig: 7,
  tryAgainLater: 11,
  pluginNotAvailable: 50,
  internal: 999,
} as const;

export type CniCode = (typeof CNI_CODES)[keyof typeof CNI_CODES];

/** A thrown value's message, for the text of an answer or a log line. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** An error that already knows its CNI code; everything else is classified by `toCniError`. */
export class CniError extends IpamError {
  override name = 'CniError';
  readonly category: ErrorCategory;
  constructor(
    readonly code: CniCode,
    message: string,
    readonly details = '',
    options?: { cause?: unknown; category?: ErrorCategory },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.category = options?.category ?? (code === CNI_CODES.tryAgainLater ? 'transient' : 'validation');
  }
}

/** Missing or malformed CNI_* variables (code 4). */
export class CniEnvironmentError extends CniError {
  override name = 'CniEnvironmentError';
  constructor(message: string, details = '') {
    super(CNI_CODES.invalidEnvironment, message, details);
  }
}

/** The network config is not JSON (code 6). */
export class CniDecodeError extends CniError {
  override name = 'CniDecodeError';
  constructor(message: string) {
    super(CNI_CODES.decodeFailure, message);
  }
}

/** The network config is JSON but not a valid config for this plugin (code 7). */
export class NetworkConfigError extends CniError {
  override name = 'NetworkConfigError';
  constructor(message: string, details = '') {
    super(CNI_CODES.invalidNetworkConfig, message, details);
  }
}

/** The config's cniVersion is not one we speak, or the verb needs a newer one (code 1). */
export class IncompatibleVersionError extends CniError {
  override name = 'IncompatibleVersionError';
  constructor(message: string, details = '') {
    super(CNI_CODES.incompatibleVersion, message, details);
  }
}

/** A request the IPAM library could not satisfy (code 999 unless transient). */
export class AllocationError extends CniError {
  override name = 'AllocationError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(CNI_CODES.internal, message, '', options);
  }
}

/** STATUS: the plugin cannot serve ADD now (code 50). */
export class PluginUnavailableError extends CniError {
  override name = 'PluginUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(CNI_CODES.pluginNotAvailable, message, '', { ...options, category: 'transient' });
  }
}

/** CHECK found the stored allocation differs from prevResult. */
export class CheckFailedError extends CniError {
  override name = 'CheckFailedError';
  constructor(message: string) {
    super(CNI_CODES.internal, message, '', { category: 'stop-and-re-evaluate' });
  }
}
