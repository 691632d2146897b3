import { createIpamClient } from '@ipamkit/ipam-core';
import { validateIPAMConfig, type IPAMConfig, type KubeVirtVMAddressPersistence } from '@ipamkit/models';
import type { CommandContext } from '../cli-io.js';
import { CliUsageError } from '../errors.js';

/** Raw flag values, as typed; parsed and checked here before anything is read or written. */
export interface ConfigureOptions {
  readonly strictAffinity?: string;
  readonly maxBlocksPerHost?: string;
  readonly kubeVirtIPPersistence?: string;
  readonly ipCooldownSeconds?: string;
}

export interface ConfigureResult {
  readonly config: IPAMConfig;
  /** The fields given, in calicoctl's print order. */
  readonly set: { readonly field: string; readonly value: string }[];
}

const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const GO_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

function parseGoBool(text: string): boolean {
  if (GO_TRUE.has(text)) return true;
  if (GO_FALSE.has(text)) return false;
  throw new CliUsageError('invalid value. Use true or false to set strictaffinity');
}

function parseInteger(text: string, message: string): number {
  if (!/^[+-]?\d+$/.test(text.trim())) throw new CliUsageError(message);
  const value = Number(text.trim());
  if (!Number.isSafeInteger(value)) throw new CliUsageError(message);
  return value;
}

function parsePersistence(text: string): KubeVirtVMAddressPersistence {
  if (text === 'Enabled' || text === 'Disabled') return text;
  throw new CliUsageError('invalid value for --kubevirt-ip-persistence. Use Enabled or Disabled');
}

/**
 * `ipam configure` (design/calico-callers.md#ipam-configure): overwrite only the given fields of the current config. The
 * cross-field rules of design/calico-ipam.md#ipam-configuration (and the CRD ranges) are checked before the write, so a
 * refused change writes nothing.
 */
export async function ipamConfigure(ctx: CommandContext, options: ConfigureOptions): Promise<ConfigureResult> {
  const updates: Partial<IPAMConfig> = {};
  const set: { field: string; value: string }[] = [];
  if (options.strictAffinity !== undefined) {
    updates.strictAffinity = parseGoBool(options.strictAffinity);
    set.push({ field: 'StrictAffinity', value: String(updates.strictAffinity) });
  }
  if (options.maxBlocksPerHost !== undefined) {
    updates.maxBlocksPerHost = parseInteger(options.maxBlocksPerHost, 'invalid value for maxblockhost. Use a valid number');
    set.push({ field: 'MaxBlocksPerHost', value: String(updates.maxBlocksPerHost) });
  }
  if (options.kubeVirtIPPersistence !== undefined) {
    updates.kubeVirtVMAddressPersistence = parsePersistence(options.kubeVirtIPPersistence);
    set.push({ field: 'KubeVirtVMAddressPersistence', value: updates.kubeVirtVMAddressPersistence });
  }
  if (options.ipCooldownSeconds !== undefined) {
    updates.ipCooldownSeconds = parseInteger(options.ipCooldownSeconds, 'invalid value for --ip-cooldown-seconds. Use a valid number');
    set.push({ field: 'IPCooldownSeconds', value: String(updates.ipCooldownSeconds) });
  }
  if (set.length === 0) throw new CliUsageError('at least one configuration option must be specified');
  const client = createIpamClient({ datastore: ctx.datastore, clock: ctx.clock });
  const config: IPAMConfig = { ...(await client.getIPAMConfig()), ...updates };
  validateIPAMConfig(config);
  await client.setIPAMConfig(config);
  return { config, set };
}

export function renderConfigure(result: ConfigureResult): string {
  return result.set.map((s) => `Successfully set ${s.field} to: ${s.value}\n`).join('');
}
