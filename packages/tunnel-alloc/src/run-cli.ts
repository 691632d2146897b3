import { parseArgs } from 'node:util';
import { type Datastore, jsonLineLogger } from '@ipamkit/models';
import { createIpamClient } from '@ipamkit/ipam-core';
import { createDatastore, datastoreSecrets, redactSecrets } from '@ipamkit/ipam-datastore';
import packageJson from '../package.json' with { type: 'json' };
import { tunnelDatastoreConfig } from './datastore-config.js';
import { NodeNameMissingError, TunnelOptionError } from './errors.js';
import { reconcileTunnelAddresses } from './reconcile-tunnel-addresses.js';
import { startTunnelAllocDaemon } from './tunnel-alloc-daemon.js';
import { WIREGUARD_SETTINGS, type WireguardOptions, type WireguardSetting } from './wireguard-enablement.js';

export interface TunnelCliIo {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Stops the daemon (the bin wires SIGTERM/SIGINT here). */
  readonly signal?: AbortSignal;
}

const USAGE = `Usage: ipamkit-tunnel-alloc [--run-once] [--wireguard-ipv4 infer|enabled|disabled] [--wireguard-ipv6 infer|enabled|disabled] [--version]

Allocates this node's IPIP, VXLAN and WireGuard tunnel addresses from IPAM and records them on the
Node. Environment: NODENAME (required), DATASTORE_TYPE and its companions, USE_POD_CIDR,
FELIX_WIREGUARDHOSTENCRYPTIONENABLED, IPAMKIT_WIREGUARD_IPV4 / IPAMKIT_WIREGUARD_IPV6.
`;

/** Go's strconv.ParseBool, which Calico uses for these variables; anything else is false. */
export function envFlag(value: string | undefined): boolean {
  return value !== undefined && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value);
}

function setting(flag: string | undefined, envValue: string | undefined, name: string): WireguardSetting {
  const raw = flag ?? (envValue === undefined || envValue === '' ? 'infer' : envValue);
  if (!(WIREGUARD_SETTINGS as readonly string[]).includes(raw)) {
    throw new TunnelOptionError(`${name} must be one of ${WIREGUARD_SETTINGS.join(', ')}; got ${JSON.stringify(raw)}`);
  }
  return raw as WireguardSetting;
}

function untilAborted(signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return new Promise<void>(() => undefined);
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

async function runWithDatastore(io: TunnelCliIo, runOnce: boolean, nodeName: string, wireguard: WireguardOptions): Promise<number> {
  // Log fields and errors may carry a datastore client's raw text: everything printed is redacted
  // (design/tunnel-alloc.md, "Datastore configuration").
  const secrets = datastoreSecrets(io.env);
  const stderr = (text: string): void => io.stderr(redactSecrets(text, secrets));
  const logger = jsonLineLogger({ write: stderr });
  let datastore: Datastore | undefined;
  try {
    datastore = await createDatastore(tunnelDatastoreConfig(io.env));
    const ipam = createIpamClient({ datastore });
    if (runOnce) {
      await reconcileTunnelAddresses({ datastore, ipam, nodeName, wireguard, logger });
      return 0;
    }
    const daemon = startTunnelAllocDaemon({
      datastore,
      ipam,
      nodeName,
      wireguard,
      logger,
      ...(io.signal === undefined ? {} : { signal: io.signal }),
    });
    await daemon.done;
    return 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    stderr(runOnce ? `Tunnel IP allocator failed: ${message}\n` : `${message}\n`);
    return 1;
  } finally {
    await datastore?.close().catch(() => undefined);
  }
}

/**
 * The `ipamkit-tunnel-alloc` command, importable so tests drive it in-process. Returns the exit
 * code: 0 on success or after a clean stop, 1 on any failure (Calico's fatal exit).
 */
export async function runTunnelAllocCli(io: TunnelCliIo): Promise<number> {
  let runOnce: boolean;
  let wireguard: WireguardOptions;
  try {
    const { values } = parseArgs({
      args: [...io.argv],
      options: {
        'run-once': { type: 'boolean', default: false },
        'wireguard-ipv4': { type: 'string' },
        'wireguard-ipv6': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      io.stdout(USAGE);
      return 0;
    }
    if (values.version) {
      io.stdout(`${packageJson.version}\n`);
      return 0;
    }
    runOnce = values['run-once'];
    wireguard = {
      ipv4: setting(values['wireguard-ipv4'], io.env['IPAMKIT_WIREGUARD_IPV4'], 'wireguard-ipv4'),
      ipv6: setting(values['wireguard-ipv6'], io.env['IPAMKIT_WIREGUARD_IPV6'], 'wireguard-ipv6'),
      hostEncryptionEnabled: envFlag(io.env['FELIX_WIREGUARDHOSTENCRYPTIONENABLED']),
    };
  } catch (err) {
    io.stderr(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  const nodeName = io.env['NODENAME'] ?? '';
  if (nodeName === '') {
    io.stderr(`${new NodeNameMissingError().message}\n`);
    return 1;
  }
  if (envFlag(io.env['USE_POD_CIDR'])) {
    // Host-local IPAM: the addresses come from the pod CIDR, so there is nothing to allocate.
    if (!runOnce) await untilAborted(io.signal);
    return 0;
  }
  return runWithDatastore(io, runOnce, nodeName, wireguard);
}
