import { writeFile } from 'node:fs/promises';
import { systemClock } from '@ipamkit/ipam-core';
import { datastoreSecrets, redactedErrorMessage } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import { Command, CommanderError, Option } from 'commander';
import { checkReport } from './check/check-report.js';
import { readClusterState, type ClusterState } from './check/cluster-state.js';
import { ipamCheck } from './check/ipam-check.js';
import { checkWithIntegrity, sqliteIntegrityOf } from './check/sqlite-integrity.js';
import { renderCheck } from './check/render-check.js';
import type { CliIo, CommandContext } from './cli-io.js';
import { ipamConfigure, renderConfigure } from './configure/ipam-configure.js';
import { CliUsageError } from './errors.js';
import { EXIT, exitCodeOf } from './exit-codes.js';
import { explainIP } from './explain/explain-ip.js';
import { explainNode } from './explain/explain-node.js';
import { explainPod } from './explain/explain-pod.js';
import { addForesightCommands } from './foresight/foresight-commands.js';
import { addMigratePoolCommand } from './migrate-pool/migrate-pool-command.js';
import { renderIPExplanation, renderNodeExplanation, renderPodExplanation } from './explain/render-explain.js';
import { prettyJson } from './format/pretty-json.js';
import { addInstallCniCommand } from './install-cni/install-cni-command.js';
import { migrateExport } from './migrate/migrate-export.js';
import { migrateImport } from './migrate/migrate-import.js';
import { renderExport, renderImport } from './migrate/render-migrate.js';
import { cliDatastoreOverrides, datastoreConfigFromFlags, openDatastore, type DatastoreFlags } from './open-datastore.js';
import { ipamRelease } from './release/ipam-release.js';
import { renderRelease } from './release/render-release.js';
import type { DatastoreAccess } from './resources/datastore-access.js';
import { addResourceCommands } from './resources/resource-commands.js';
import { ipamShow } from './show/ipam-show.js';
import { renderShow } from './show/render-show.js';
import { checkCidrArgument, ipamSplit, renderSplit } from './split/ipam-split.js';
import { CLI_VERSION } from './version.js';

/** What a command produced: text for the terminal, the structured value for `-o json`. */
interface Produced {
  readonly text: string;
  readonly json: unknown;
  readonly exitCode?: number;
}

/** What a task runs with: the command context, and the SQLite file behind it when there is one. */
interface TaskContext extends CommandContext {
  readonly sqlitePath?: string;
}

type Task = (ctx: TaskContext) => Promise<Produced>;

const outputOption = (): Option => new Option('-o, --output <format>', 'output format: table (default) or json');

function wantsJson(output: string | undefined): boolean {
  if (output === undefined || output === 'table') return false;
  if (output === 'json') return true;
  throw new CliUsageError(`unknown output format ${JSON.stringify(output)}: use table or json`);
}

async function clusterStateFrom(file: string | undefined): Promise<ClusterState> {
  return file === undefined ? {} : readClusterState(file);
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** The command tree; each action only records the task, which runs once the datastore is open. */
function buildProgram(io: CliIo, setTask: (task: Task, json: boolean, access?: DatastoreAccess) => void): Command {
  const program = new Command('ipamkit')
    .description('Operate Calico-compatible IPAM data')
    .version(CLI_VERSION)
    .option('--datastore <type>', 'etcdv3 (or etcd), kubernetes, sqlite or memory (default: DATASTORE_TYPE, else etcdv3 when etcd endpoints are set, else kubernetes)')
    .option('--sqlite-path <path>', 'SQLite file, with --datastore sqlite (default: IPAMKIT_SQLITE_PATH)')
    .option('--etcd-endpoints <list>', 'comma-separated etcd URLs, with --datastore etcd (default: ETCD_ENDPOINTS)')
    .option('--etcd-ca-cert-file <path>', 'CA bundle for the etcd servers (default: ETCD_CA_CERT_FILE)')
    .option('--etcd-cert-file <path>', 'client certificate for etcd (default: ETCD_CERT_FILE)')
    .option('--etcd-key-file <path>', 'client key for etcd (default: ETCD_KEY_FILE)')
    .option('--etcd-username <name>', 'etcd user; the password comes only from ETCD_PASSWORD (default: ETCD_USERNAME)')
    .option('--etcd-prefix <prefix>', 'key prefix in etcd (default: IPAMKIT_ETCD_PREFIX)')
    .option('--kubeconfig <path>', 'kubeconfig, with --datastore kubernetes (default: KUBECONFIG)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  const ipam = program.command('ipam').description('IP address management commands');

  ipam
    .command('show')
    .description('show pool and block utilization, borrowed addresses, configuration or one address')
    .option('--ip <ip>', 'show the allocation of one address')
    .option('--show-blocks', 'list each block under its pool')
    .option('--show-borrowed', 'list addresses borrowed from other nodes\' blocks')
    .option('--show-configuration', 'show the IPAM configuration')
    .addOption(outputOption())
    .action((o: { ip?: string; showBlocks?: boolean; showBorrowed?: boolean; showConfiguration?: boolean; output?: string }) => {
      setTask(async (ctx) => {
        const result = await ipamShow(ctx, o);
        return { text: renderShow(result), json: result };
      }, wantsJson(o.output), 'read-only');
    });

  ipam
    .command('check')
    .description('classify every allocation and report leaks and inconsistencies (read-only)')
    .option('--show-all-ips', 'list every allocation and finding (default: a summary by class, then the problems); exits 1 when problems were found')
    .option('--show-problem-ips', 'list problem allocations (the default)')
    .option('--cluster-state <file>', 'JSON file with the cluster\'s pods and LoadBalancer services')
    .option('-o, --output <target>', 'json for JSON on stdout, or a file to write the report to')
    .action((o: { showAllIps?: boolean; clusterState?: string; output?: string }) => {
      setTask(async (ctx) => {
        const integrity = await sqliteIntegrityOf(ctx.sqlitePath);
        const cluster = await clusterStateFrom(o.clusterState);
        const result = await checkWithIntegrity(integrity, () => ipamCheck(ctx, cluster, integrity));
        const report = checkReport(result);
        let text = renderCheck(result, { showAll: o.showAllIps === true });
        if (o.output !== undefined && o.output !== 'json' && o.output !== 'table') {
          await writeFile(o.output, prettyJson(report));
          text += `Report written to ${o.output}\n`;
        }
        // design/cli.md "Exit codes": 1 when the check found problems.
        return { text, json: report, exitCode: result.problems > 0 ? EXIT.problems : EXIT.ok };
      }, o.output === 'json', 'read-only');
    });

  ipam
    .command('release')
    .description('release one address, or the leaks of check reports (sequence-number guarded)')
    .option('--ip <ip>', 'release this address')
    .option('--from-report <file>', 'release what a check report found leaked (repeatable: reports are intersected)', collect, [])
    .option('--force', 'accept a report written by another ipamkit version')
    .option('--dry-run', 'say what would be released, change nothing')
    .option('--max-report-age <seconds>', 'reports older than this are stale', '3600')
    .option('--allow-empty-cluster', 'accept a report whose cluster state has no pods, or fewer pods than the addresses it would free')
    .addOption(outputOption())
    .action((o: { ip?: string; fromReport: string[]; force?: boolean; dryRun?: boolean; maxReportAge: string; allowEmptyCluster?: boolean; output?: string }) => {
      const maxAge = Number(o.maxReportAge);
      if (!Number.isSafeInteger(maxAge) || maxAge < 0) throw new CliUsageError(`--max-report-age must be a non-negative integer, got ${o.maxReportAge}`);
      const json = wantsJson(o.output);
      setTask(async (ctx) => {
        const result = await ipamRelease(ctx, {
          ...(o.ip === undefined ? {} : { ip: o.ip }),
          fromReport: o.fromReport,
          force: o.force === true,
          dryRun: o.dryRun === true,
          maxReportAgeSeconds: maxAge,
          allowEmptyCluster: o.allowEmptyCluster === true,
        });
        const failed = [...result.ips, ...result.handles].some((x) => x.outcome === 'error');
        return { text: renderRelease(result), json: result, exitCode: failed ? EXIT.problems : EXIT.ok };
      }, json, 'must-exist');
    });

  ipam
    .command('configure')
    .description('change the IPAM configuration')
    .option('--strictaffinity <bool>', 'true or false')
    .option('--max-blocks-per-host <n>', 'cap on blocks a node may claim (needs strict affinity)')
    .option('--kubevirt-ip-persistence <mode>', 'Enabled or Disabled')
    .option('--ip-cooldown-seconds <n>', 'seconds a released address rests before re-use')
    .addOption(outputOption())
    .action((o: { strictaffinity?: string; maxBlocksPerHost?: string; kubevirtIpPersistence?: string; ipCooldownSeconds?: string; output?: string }) => {
      const json = wantsJson(o.output);
      setTask(async (ctx) => {
        const result = await ipamConfigure(ctx, {
          ...(o.strictaffinity === undefined ? {} : { strictAffinity: o.strictaffinity }),
          ...(o.maxBlocksPerHost === undefined ? {} : { maxBlocksPerHost: o.maxBlocksPerHost }),
          ...(o.kubevirtIpPersistence === undefined ? {} : { kubeVirtIPPersistence: o.kubevirtIpPersistence }),
          ...(o.ipCooldownSeconds === undefined ? {} : { ipCooldownSeconds: o.ipCooldownSeconds }),
        });
        return { text: renderConfigure(result), json: result };
      }, json, 'must-exist');
    });

  ipam
    .command('split')
    .description('split a pool into NUMBER equal pools, keeping blocks and allocations')
    .argument('<number>', 'how many pools (a power of two)')
    .option('--cidr <cidr>', 'the pool, by CIDR')
    .option('--name <name>', 'the pool, by name')
    .addOption(outputOption())
    .action((parts: string, o: { cidr?: string; name?: string; output?: string }) => {
      const json = wantsJson(o.output);
      checkCidrArgument(o.cidr);
      setTask(async (ctx) => {
        const result = await ipamSplit(ctx, { parts, ...(o.cidr === undefined ? {} : { cidr: o.cidr }), ...(o.name === undefined ? {} : { name: o.name }) });
        return { text: renderSplit(result), json: result };
      }, json, 'must-exist');
    });

  ipam
    .command('explain')
    .description('explain where an address came from and why, or whether a node can allocate')
    .option('--ip <ip>', 'an address')
    .option('--pod <namespace/name>', 'every address of a pod')
    .option('--node <name>', 'would the next allocation on this node succeed')
    .option('--cluster-state <file>', 'JSON file with pods (for annotations)')
    .addOption(outputOption())
    .action((o: { ip?: string; pod?: string; node?: string; clusterState?: string; output?: string }) => {
      const json = wantsJson(o.output);
      const given = [o.ip, o.pod, o.node].filter((x) => x !== undefined).length;
      if (given !== 1) throw new CliUsageError('explain needs exactly one of --ip, --pod or --node');
      setTask(async (ctx) => {
        const pods = (await clusterStateFrom(o.clusterState)).pods;
        if (o.ip !== undefined) {
          const result = await explainIP(ctx, o.ip, pods);
          return { text: renderIPExplanation(result), json: result };
        }
        if (o.pod !== undefined) {
          const result = await explainPod(ctx, o.pod, pods);
          return { text: renderPodExplanation(result), json: result };
        }
        const result = await explainNode(ctx, o.node ?? '');
        return { text: renderNodeExplanation(result), json: result };
      }, json, 'read-only');
    });
  addForesightCommands(ipam, setTask, () => io.stdin ?? process.stdin);
  addMigratePoolCommand(ipam, setTask, () => io.stdin ?? process.stdin);
  addMigrateCommands(program, setTask);
  addInstallCniCommand(program, io);
  addResourceCommands(program, setTask, () => io.stdin ?? process.stdin);
  return program;
}

function nonEmptyFile(file: string | undefined, flag: string): string | undefined {
  if (file !== undefined && file.trim() === '') throw new CliUsageError(`${flag} must name a file`);
  return file;
}

/** `datastore migrate export|import` (design/cli.md "datastore migrate"): the global datastore is the source, or the target. */
function addMigrateCommands(program: Command, setTask: (task: Task, json: boolean, access: DatastoreAccess) => void): void {
  const migrate = program
    .command('datastore')
    .description('datastore-wide operations')
    .command('migrate')
    .description('move IPAM data, pools, reservations and nodes from one datastore to another');

  migrate
    .command('export')
    .description('write everything to migrate as one JSON document (the datastore is the source; read-only)')
    .option('-f, --file <path>', 'write the document here (default: stdout)')
    .option('--k8s-node-names', 'rename nodes to their Kubernetes names (spec.orchRefs), rewriting tunnel handles and owners')
    .addOption(outputOption())
    .action((o: { file?: string; k8sNodeNames?: boolean; output?: string }) => {
      const file = nonEmptyFile(o.file, '--file');
      const json = wantsJson(o.output);
      setTask(async (ctx) => {
        const result = await migrateExport(ctx, { k8sNodeNames: o.k8sNodeNames === true, ...(file === undefined ? {} : { file }) });
        if (file === undefined) return { text: prettyJson(result.document), json: result.document };
        const { document: _document, ...summary } = result;
        return { text: renderExport(result), json: summary };
      }, json, 'read-only');
    });

  migrate
    .command('import')
    .description('create everything in an export document (the datastore is the target and must be empty)')
    .requiredOption('-f, --file <path>', 'the export document')
    .option('--dry-run', 'validate the file and the target, write nothing')
    .addOption(outputOption())
    .action((o: { file: string; dryRun?: boolean; output?: string }) => {
      const file = nonEmptyFile(o.file, '--file') ?? o.file;
      const json = wantsJson(o.output);
      setTask(async (ctx) => {
        const result = await migrateImport(ctx, { file, dryRun: o.dryRun === true });
        return { text: renderImport(result), json: result };
      }, json, 'may-create');
    });
}


/**
 * Runs `ipamkit <argv>` in-process (argv excludes the program name, e.g. `['ipam', 'show']`) and
 * returns the exit status of design/cli.md "Exit codes": 0 ok, 1 problems found or the command
 * failed, 2 usage, 3 datastore missing or unreachable. Errors reach stderr as one redacted line.
 */
export async function runIpamCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const pending: { task?: Task; json: boolean; access?: DatastoreAccess | undefined } = { json: false };
  const program = buildProgram(io, (task, json, access) => {
    pending.task = task;
    pending.json = json;
    pending.access = access;
  });
  const env = io.env ?? process.env;
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (err) {
    // commander has printed its own message already.
    if (!(err instanceof CommanderError)) io.stderr.write(`${redactedErrorMessage(err, datastoreSecrets(env))}\n`);
    return exitCodeOf(err);
  }
  const run = pending.task;
  if (run === undefined) return EXIT.ok;
  let datastore: Datastore | undefined;
  const flags = program.opts<DatastoreFlags>();
  // A datastore handed in by the caller stays open; one we opened from flags or env is closed.
  const given = flags.datastore === undefined ? io.datastore : undefined;
  try {
    const access = pending.access ?? 'may-create';
    datastore = given ?? (await openDatastore(flags, env, access));
    const sqlitePath = given === undefined ? sqlitePathOf(flags, env) : undefined;
    const produced = await run({ datastore, clock: io.clock ?? systemClock, ...(sqlitePath === undefined ? {} : { sqlitePath }) });
    if (pending.json) io.stdout.write(prettyJson(produced.json));
    else io.stdout.write(produced.text);
    return produced.exitCode ?? EXIT.ok;
  } catch (err) {
    // Errors from a datastore client or a kubeconfig loader may quote credentials: redact at the
    // one place the CLI prints them (design/cli.md, "Datastore configuration").
    io.stderr.write(`${redactedErrorMessage(err, datastoreSecrets(env, cliDatastoreOverrides(flags)))}\n`);
    return exitCodeOf(err);
  } finally {
    if (given === undefined) await datastore?.close();
  }
}

/** The SQLite file the flags name, for `check`'s integrity check; undefined on other backends. */
function sqlitePathOf(flags: DatastoreFlags, env: NodeJS.ProcessEnv): string | undefined {
  const config = datastoreConfigFromFlags(flags, env);
  return config.type === 'sqlite' ? config.path : undefined;
}
