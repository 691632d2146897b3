import { CniEnvironmentError } from '../errors.js';
import { echoInput, INPUT_LIMITS, requireMaxLength } from './input-limits.js';
import { hasIfnameForbiddenChar, isContainerId } from './name-chars.js';

export type CniCommand = 'ADD' | 'DEL' | 'CHECK' | 'VERSION' | 'STATUS' | 'GC';

/** The CNI_* environment, validated as the Go skeleton does (design/calico-callers.md#cni-environment). */
export interface CniEnv {
  command: CniCommand;
  containerId: string;
  ifname: string;
  args: string;
}

const COMMANDS: readonly CniCommand[] = ['ADD', 'DEL', 'CHECK', 'VERSION', 'STATUS', 'GC'];

const REQUIRED: Record<CniCommand, readonly string[]> = {
  ADD: ['CNI_CONTAINERID', 'CNI_NETNS', 'CNI_IFNAME', 'CNI_PATH'],
  CHECK: ['CNI_CONTAINERID', 'CNI_NETNS', 'CNI_IFNAME', 'CNI_PATH'],
  DEL: ['CNI_CONTAINERID', 'CNI_IFNAME', 'CNI_PATH'],
  GC: ['CNI_PATH'],
  STATUS: ['CNI_PATH'],
  VERSION: [],
};

function validateIfname(name: string): void {
  if (name === '') throw new CniEnvironmentError('interface name is empty');
  // Too long stays code 4, as in the Go skeleton; the name is quoted cut (design/cni.md, "Input limits").
  if (name.length > INPUT_LIMITS.ifname) throw new CniEnvironmentError('interface name is too long', echoInput(name));
  if (name === '.' || name === '..') throw new CniEnvironmentError('interface name is . or ..', name);
  if (hasIfnameForbiddenChar(name)) throw new CniEnvironmentError('interface name contains / or : or whitespace characters', name);
}

/** Reads and checks CNI_*; `undefined` when CNI_COMMAND is unset (the "about" text case). */
export function readCniEnv(env: Readonly<Record<string, string | undefined>>): CniEnv | undefined {
  const raw = env.CNI_COMMAND;
  if (raw === undefined || raw === '') return undefined;
  const command = COMMANDS.find((c) => c === raw);
  if (command === undefined) throw new CniEnvironmentError(`unknown CNI_COMMAND: ${echoInput(raw)}`);
  const missing = REQUIRED[command].filter((k) => (env[k] ?? '') === '');
  if (missing.length > 0) throw new CniEnvironmentError(`required env variables [${missing.join(',')}] missing`);
  const containerId = env.CNI_CONTAINERID ?? '';
  const ifname = env.CNI_IFNAME ?? '';
  requireMaxLength(containerId, INPUT_LIMITS.containerId, 'CNI_CONTAINERID');
  requireMaxLength(env.CNI_ARGS ?? '', INPUT_LIMITS.cniArgs, 'CNI_ARGS');
  if (REQUIRED[command].includes('CNI_CONTAINERID') && !isContainerId(containerId)) {
    throw new CniEnvironmentError('invalid characters in containerID', echoInput(containerId));
  }
  if (REQUIRED[command].includes('CNI_IFNAME')) validateIfname(ifname);
  return { command, containerId, ifname, args: env.CNI_ARGS ?? '' };
}
