import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { INPUT_LIMITS, requireMaxLength } from './input-limits.js';
import type { NetConf } from './net-config.js';

export const DEFAULT_NODENAME_FILE = '/var/lib/calico/nodename';

/**
 * The node name, first match wins (design/calico-callers.md#node-name): `nodename`, the nodename file, `hostname`, the
 * OS host name. Unlike Calico we trim the file's content: a trailing newline written by `echo`
 * would otherwise become part of the node name and silently create a second "node".
 */
export function determineNodeName(conf: Pick<NetConf, 'nodename' | 'nodenameFile' | 'hostname'>, osHostname: () => string = () => hostname()): string {
  // Whatever the source, a node name is a Kubernetes object name (design/cni.md, "Input limits").
  return requireMaxLength(firstNodeName(conf, osHostname), INPUT_LIMITS.nodeName, 'the node name');
}

function firstNodeName(conf: Pick<NetConf, 'nodename' | 'nodenameFile' | 'hostname'>, osHostname: () => string): string {
  if (conf.nodename !== undefined && conf.nodename !== '') return conf.nodename;
  try {
    const fromFile = readFileSync(conf.nodenameFile ?? DEFAULT_NODENAME_FILE, 'utf8').trim();
    if (fromFile !== '') return fromFile;
  } catch {
    // A missing file is the normal case outside a Calico node; fall through.
  }
  if (conf.hostname !== undefined && conf.hostname !== '') return conf.hostname;
  return osHostname().trim().toLowerCase();
}
