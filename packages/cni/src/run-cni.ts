import type { Clock } from '@ipamkit/ipam-core';
import { definedFields, type Datastore } from '@ipamkit/models';
import { parseCniArgs } from './config/cni-args.js';
import { readCniEnv, type CniEnv } from './config/cni-env.js';
import { PLUGIN_CNI_VERSION, requireVersionFor, SUPPORTED_VERSIONS } from './config/cni-version.js';
import { parseNetConf } from './config/net-config.js';
import { determineNodeName } from './config/node-name.js';
import { workloadOf } from './config/workload.js';
import { renderError, renderVersion } from './result/cni-result.js';
import { Invocation } from './runtime/invocation.js';
import { createLogger, parseLogLevel, type LogSink } from './runtime/logger.js';
import { OutputRedactor } from './runtime/output-redactor.js';
import { toCniError } from './runtime/to-cni-error.js';
import { cmdAdd } from './verbs/cmd-add.js';
import { cmdCheck } from './verbs/cmd-check.js';
import { cmdDel } from './verbs/cmd-del.js';
import { cmdGc } from './verbs/cmd-gc.js';
import { cmdStatus } from './verbs/cmd-status.js';

export interface RunCniOptions {
  /** The process environment of the invocation (CNI_COMMAND, CNI_CONTAINERID, …). */
  env: Readonly<Record<string, string | undefined>>;
  /** The network config, as the runtime writes it to stdin. */
  stdin: string;
  /** Use this datastore instead of the one the config names (the simulator); it is not closed. */
  datastore?: Datastore;
  clock?: Clock;
  /** Where log lines go; default process.stderr. Never stdout. */
  stderr?: LogSink;
  /**
   * The process exits right after this call (the bin): the datastore is left to the exit instead of
   * closed, which spares SQLite's checkpoint on close and its fsyncs (design/cni.md, "Start-up cost").
   */
  exitsAfter?: boolean;
}

export interface RunCniResult {
  exitCode: number;
  stdout: string;
}

const ABOUT = `ipamkit calico-ipam\nCNI protocol versions supported: ${SUPPORTED_VERSIONS.join(', ')}\n`;

async function dispatch(cni: CniEnv, options: RunCniOptions, sink: LogSink, redactor: OutputRedactor): Promise<string> {
  if (cni.command === 'VERSION') return renderVersion(SUPPORTED_VERSIONS, PLUGIN_CNI_VERSION);
  const conf = parseNetConf(options.stdin);
  redactor.knowNetConf(conf);
  if (cni.command === 'CHECK' || cni.command === 'STATUS' || cni.command === 'GC') requireVersionFor(cni.command, conf.cniVersion);
  const context = cni.command === 'GC' || cni.command === 'STATUS' ? cni.command : `${cni.command} ${cni.containerId}`;
  const log = createLogger({ level: parseLogLevel(conf.logLevel), sink, context, redact: redactor.redact, ...(conf.logFilePath === undefined ? {} : { file: conf.logFilePath }) });
  const node = determineNodeName(conf);
  const inv = new Invocation(conf, cni, options.env, node, log, {
    ...definedFields({ datastore: options.datastore, clock: options.clock }),
    ...(options.exitsAfter === true ? { leaveOpenForExit: true } : {}),
    onKubernetesAccess: () => redactor.knowKubernetesAccess(),
  });
  try {
    if (cni.command === 'STATUS') return await inv.within(() => cmdStatus(inv));
    if (cni.command === 'GC') return await inv.within(() => cmdGc(inv));
    const args = parseCniArgs(cni.args);
    const workload = workloadOf({ networkName: conf.name, containerId: cni.containerId, ifname: cni.ifname, node, cniArgs: args });
    // One budget for the whole verb, lock wait included (design/cni.md, "Deadline").
    if (cni.command === 'ADD') return await inv.within(() => cmdAdd(inv, workload, args));
    if (cni.command === 'DEL') return await inv.within(() => cmdDel(inv, workload));
    return await inv.within(() => cmdCheck(inv, workload));
  } catch (err) {
    log.error(toCniError(err).message);
    throw err;
  } finally {
    await inv.close().catch(() => undefined);
  }
}

/**
 * One CNI invocation, in-process: what the `calico-ipam` bin does with its environment and stdin.
 * Never throws: every failure becomes CNI error JSON on stdout with exit code 1. The error JSON and
 * every log line are redacted with the call's secrets (design/cni.md, "Redaction").
 */
export async function runCni(options: RunCniOptions): Promise<RunCniResult> {
  const sink: LogSink = options.stderr ?? ((line) => process.stderr.write(line));
  const redactor = new OutputRedactor(options.env);
  try {
    const cni = readCniEnv(options.env);
    if (cni === undefined) {
      sink(ABOUT);
      return { exitCode: 0, stdout: '' };
    }
    return { exitCode: 0, stdout: await dispatch(cni, options, sink, redactor) };
  } catch (err) {
    return { exitCode: 1, stdout: renderError(toCniError(err, redactor.redact)) };
  }
}
