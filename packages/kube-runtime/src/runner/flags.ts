import { type FlagSpec, type FlagValues, stringFlag } from '@ipamkit/models';
import { parseDuration } from '../duration.js';
import { ControllerConfigError } from '../errors.js';

/** The flags every leader-elected controller takes (design/kube-runtime.md "Bin runner"). */
export const COMMON_FLAGS = {
  'metrics-port': { type: 'string' },
  'leader-elect': { type: 'boolean' },
  'lease-duration': { type: 'string' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean' },
  version: { type: 'boolean' },
} as const satisfies FlagSpec;

export interface CommonSettings {
  readonly help: boolean;
  /** `--version`: print the bin's version and exit 0. */
  readonly version: boolean;
  readonly verbose: boolean;
  /** -1 disables the metrics server; 0 picks a free port. */
  readonly metricsPort: number;
  readonly leaderElect: boolean;
  readonly leaseDurationMs: number | undefined;
  readonly lease: { readonly namespace: string; readonly identity: string };
}

export function commonSettings(values: FlagValues, env: NodeJS.ProcessEnv, defaults: { metricsPort: number; metricsPortEnv: string; hostname: string }): CommonSettings {
  const portText = stringFlag(values, 'metrics-port') ?? env[defaults.metricsPortEnv] ?? String(defaults.metricsPort);
  const metricsPort = Number(portText);
  if (portText.trim() === '' || !Number.isInteger(metricsPort) || metricsPort < -1 || metricsPort > 65_535) {
    throw new ControllerConfigError(`invalid metrics port: ${portText}`);
  }
  const leaseText = stringFlag(values, 'lease-duration');
  const inCluster = (env['KUBERNETES_SERVICE_HOST'] ?? '') !== '';
  return {
    help: values['help'] === true,
    version: values['version'] === true,
    verbose: values['verbose'] === true,
    metricsPort,
    leaderElect: values['leader-elect'] === true || inCluster,
    leaseDurationMs: leaseText === undefined ? undefined : parseDuration(leaseText),
    lease: { namespace: env['POD_NAMESPACE'] ?? 'kube-system', identity: env['POD_NAME'] ?? defaults.hostname },
  };
}
