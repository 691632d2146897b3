import { once } from 'node:events';
import { type BinIo, type Datastore, jsonLineLogger, parseFlags, stringFlag } from '@ipamkit/models';
import { createIpamClient } from '@ipamkit/ipam-core';
import { createDatastore, datastoreSecrets, redactSecrets, resolveDatastoreConfig } from '@ipamkit/ipam-datastore';
import packageJson from '../package.json' with { type: 'json' };
import { NodeNameMissingError, TunnelOptionError } from './errors.js';
import { reconcileTunnelAddresses } from './reconcile-tunnel-addresses.js';
import { startTunnelAllocDaemon } from './tunnel-alloc-daemon.js';
import { WIREGUARD_SETTINGS, type WireguardOptions, type WireguardSetting } from './wireguard-enablement.js';

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

const invalidOption = (message: string): TunnelOptionError => new TunnelOptionError(message);

async function runWithDatastore(io: BinIo, runOnce: boolean, nodeName: string, wireguard: WireguardOptions): Promise<number> {
  // Log fields and errors may carry a datastore client's raw text: everything printed is redacted
  // (design/tunnel-alloc.md, "Datastore configuration").
  const secrets = datastoreSecrets(io.env);
  const stderr = (text: string): void => void io.stderr.write(redactSecrets(text, secrets));
  const logger = jsonLineLogger({ write: stderr });
  let datastore: Datastore | undefined;
  try {
    datastore = await createDatastore(resolveDatastoreConfig(io.env));
    const ipam = createIpamClient({ datastore });
    if (runOnce) {
      await reconcileTunnelAddresses({ datastore, ipam, nodeName, wireguard, logger });
      return 0;
    }
    await startTunnelAllocDaemon({ datastore, ipam, nodeName, wireguard, logger, signal: io.signal }).done;
    return 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    stderr(runOnce ? `Tunnel IP allocator failed: ${message}\n` : `${message}\n`);
    return 1;
  } finally {
    await datastore?.close().catch(() => undefined);
  }
}

const FLAGS = {
  'run-once': { type: 'boolean' },
  'wireguard-ipv4': { type: 'string' },
  'wireguard-ipv6': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

/**
 * The `ipamkit-tunnel-alloc` bin's main (design/models.md, "Bins"): 0 on success or after a clean
 * stop (`io.signal`), 1 on any failure (Calico's fatal exit), 2 on a bad flag.
 */
export async function runTunnelAllocCli(argv: readonly string[], io: BinIo): Promise<number> {
  let runOnce: boolean;
  let wireguard: WireguardOptions;
  try {
    const values = parseFlags(argv, FLAGS, invalidOption);
    if (values['help'] === true || values['version'] === true) {
      io.stdout.write(values['help'] === true ? USAGE : `${packageJson.version}\n`);
      return 0;
    }
    runOnce = values['run-once'] === true;
    wireguard = {
      ipv4: setting(stringFlag(values, 'wireguard-ipv4'), io.env['IPAMKIT_WIREGUARD_IPV4'], 'wireguard-ipv4'),
      ipv6: setting(stringFlag(values, 'wireguard-ipv6'), io.env['IPAMKIT_WIREGUARD_IPV6'], 'wireguard-ipv6'),
      hostEncryptionEnabled: envFlag(io.env['FELIX_WIREGUARDHOSTENCRYPTIONENABLED']),
    };
  } catch (err) {
    io.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  const nodeName = io.env['NODENAME'] ?? '';
  if (nodeName === '') {
    io.stderr.write(`${new NodeNameMissingError().message}\n`);
    return 1;
  }
  if (envFlag(io.env['USE_POD_CIDR'])) {
    // Host-local IPAM: the addresses come from the pod CIDR, so there is nothing to allocate.
    if (!runOnce && !io.signal.aborted) await once(io.signal, 'abort');
    return 0;
  }
  return runWithDatastore(io, runOnce, nodeName, wireguard);
}
