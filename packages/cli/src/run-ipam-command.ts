import { writeFile } from 'node:fs/promises';
import { systemClock } from '@ipamkit/ipam-core';
import { datastoreSecrets, redactedErrorMessage } from '@ipamkit/ipam-datastore';
import { definedFields, type Datastore } from '@ipamkit/models';
import { checkReport } from './check/check-report.js';
import { readClusterState, type ClusterState } from './check/cluster-state.js';
import { ipamCheck } from './check/ipam-check.js';
import { checkWithIntegrity, sqliteIntegrityOf } from './check/sqlite-integrity.js';
import { renderCheck } from './check/render-check.js';
import { renderedTask, type CliIo, type SetTask, type Task } from './cli-io.js';
import { leafCommand, type CommandSpec, type OptionSpec } from './command-line/command-spec.js';
import { OUTPUT_OPTION, wantsJson } from './command-line/output-option.js';
import { CommandLineEnd, parseCommandLine } from './command-line/parse-command-line.js';
import { ipamConfigure, renderConfigure } from './configure/ipam-configure.js';
import { CliUsageError } from './errors.js';
import { EXIT, exitCodeOf } from './exit-codes.js';
import { explainIP } from './explain/explain-ip.js';
import { explainNode } from './explain/explain-node.js';
import { explainPod } from './explain/explain-pod.js';
import { foresightCommands } from './foresight/foresight-commands.js';
import { migratePoolCommand } from './migrate-pool/migrate-pool-command.js';
import { renderIPExplanation, renderNodeExplanation, renderPodExplanation } from './explain/render-explain.js';
import { prettyJson } from './format/pretty-json.js';
import { installCniCommand } from './install-cni/install-cni-command.js';
import { migrateExport } from './migrate/migrate-export.js';
import { migrateImport } from './migrate/migrate-import.js';
import { renderExport, renderImport } from './migrate/render-migrate.js';
import { cliDatastoreOverrides, datastoreConfigFromFlags, openDatastore, type DatastoreFlags } from './open-datastore.js';
import { ipamRelease, type ReleaseResult } from './release/ipam-release.js';
import { renderRelease } from './release/render-release.js';
import type { DatastoreAccess } from './resources/datastore-access.js';
import { resourceCommands } from './resources/resource-commands.js';
import { ipamShow } from './show/ipam-show.js';
import { renderShow } from './show/render-show.js';
import { checkCidrArgument, ipamSplit, renderSplit } from './split/ipam-split.js';
import { CLI_VERSION } from './version.js';


async function clusterStateFrom(file: string | undefined): Promise<ClusterState> {
  return file === undefined ? {} : readClusterState(file);
}

const DATASTORE_OPTIONS: readonly OptionSpec[] = [
  { flags: '--datastore <type>', description: 'etcdv3 (or etcd), kubernetes, sqlite or memory (default: DATASTORE_TYPE, else etcdv3 when etcd endpoints are set, else kubernetes)' },
  { flags: '--sqlite-path <path>', description: 'SQLite file, with --datastore sqlite (default: IPAMKIT_SQLITE_PATH)' },
  { flags: '--etcd-endpoints <list>', description: 'comma-separated etcd URLs, with --datastore etcd (default: ETCD_ENDPOINTS)' },
  { flags: '--etcd-ca-cert-file <path>', description: 'CA bundle for the etcd servers (default: ETCD_CA_CERT_FILE)' },
  { flags: '--etcd-cert-file <path>', description: 'client certificate for etcd (default: ETCD_CERT_FILE)' },
  { flags: '--etcd-key-file <path>', description: 'client key for etcd (default: ETCD_KEY_FILE)' },
  { flags: '--etcd-username <name>', description: 'etcd user; the password comes only from ETCD_PASSWORD (default: ETCD_USERNAME)' },
  { flags: '--etcd-prefix <prefix>', description: 'key prefix in etcd (default: IPAMKIT_ETCD_PREFIX)' },
  { flags: '--kubeconfig <path>', description: 'kubeconfig, with --datastore kubernetes (default: KUBECONFIG)' },
];

/** The command tree; each action only records the task, which runs once the datastore is open. */
function buildProgram(io: CliIo, setTask: SetTask): CommandSpec {
  const stdin = (): NodeJS.ReadableStream => io.stdin ?? process.stdin;
  const ipam: CommandSpec = {
    name: 'ipam',
    description: 'IP address management commands',
    commands: [
      leafCommand<{ ip?: string; showBlocks?: boolean; showBorrowed?: boolean; showConfiguration?: boolean; output?: string }>({
        name: 'show',
        description: 'show pool and block utilization, borrowed addresses, configuration or one address',
        options: [
          { flags: '--ip <ip>', description: 'show the allocation of one address' },
          { flags: '--show-blocks', description: 'list each block under its pool' },
          { flags: '--show-borrowed', description: 'list addresses borrowed from other nodes\' blocks' },
          { flags: '--show-configuration', description: 'show the IPAM configuration' },
          OUTPUT_OPTION,
        ],
        run: (o) => setTask(renderedTask((ctx) => ipamShow(ctx, o), renderShow), wantsJson(o.output), 'read-only'),
      }),
      leafCommand<{ showAllIps?: boolean; clusterState?: string; output?: string }>({
        name: 'check',
        description: 'classify every allocation and report leaks and inconsistencies (read-only)',
        options: [
          { flags: '--show-all-ips', description: 'list every allocation and finding (default: a summary by class, then the problems); exits 1 when problems were found' },
          { flags: '--show-problem-ips', description: 'list problem allocations (the default)' },
          { flags: '--cluster-state <file>', description: 'JSON file with the cluster\'s pods and LoadBalancer services' },
          { flags: '-o, --output <target>', description: 'json for JSON on stdout, or a file to write the report to' },
        ],
        run: (o) => {
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
        },
      }),
      leafCommand<{ ip?: string; fromReport: readonly string[]; force?: boolean; dryRun?: boolean; maxReportAge: string; allowEmptyCluster?: boolean; output?: string }>({
        name: 'release',
        description: 'release one address, or the leaks of check reports (sequence-number guarded)',
        options: [
          { flags: '--ip <ip>', description: 'release this address' },
          { flags: '--from-report <file>', description: 'release what a check report found leaked (repeatable: reports are intersected)', repeatable: true },
          { flags: '--force', description: 'accept a report written by another ipamkit version' },
          { flags: '--dry-run', description: 'say what would be released, change nothing' },
          { flags: '--max-report-age <seconds>', description: 'reports older than this are stale', default: '3600' },
          { flags: '--allow-empty-cluster', description: 'accept a report whose cluster state has no pods, or fewer pods than the addresses it would free' },
          OUTPUT_OPTION,
        ],
        run: (o) => {
          const maxAge = Number(o.maxReportAge);
          if (!Number.isSafeInteger(maxAge) || maxAge < 0) throw new CliUsageError(`--max-report-age must be a non-negative integer, got ${o.maxReportAge}`);
          const options = { fromReport: o.fromReport, force: o.force === true, dryRun: o.dryRun === true, maxReportAgeSeconds: maxAge, allowEmptyCluster: o.allowEmptyCluster === true };
          const failed = (result: ReleaseResult): boolean => [...result.ips, ...result.handles].some((x) => x.outcome === 'error');
          setTask(renderedTask((ctx) => ipamRelease(ctx, { ...definedFields({ ip: o.ip }), ...options }), renderRelease, failed), wantsJson(o.output), 'must-exist');
        },
      }),
      leafCommand<{ strictaffinity?: string; maxBlocksPerHost?: string; kubevirtIpPersistence?: string; ipCooldownSeconds?: string; output?: string }>({
        name: 'configure',
        description: 'change the IPAM configuration',
        options: [
          { flags: '--strictaffinity <bool>', description: 'true or false' },
          { flags: '--max-blocks-per-host <n>', description: 'cap on blocks a node may claim (needs strict affinity)' },
          { flags: '--kubevirt-ip-persistence <mode>', description: 'Enabled or Disabled' },
          { flags: '--ip-cooldown-seconds <n>', description: 'seconds a released address rests before re-use' },
          OUTPUT_OPTION,
        ],
        run: (o) => {
          const values = { strictAffinity: o.strictaffinity, maxBlocksPerHost: o.maxBlocksPerHost, kubeVirtIPPersistence: o.kubevirtIpPersistence, ipCooldownSeconds: o.ipCooldownSeconds };
          setTask(renderedTask((ctx) => ipamConfigure(ctx, definedFields(values)), renderConfigure), wantsJson(o.output), 'must-exist');
        },
      }),
      leafCommand<{ cidr?: string; name?: string; output?: string }>({
        name: 'split',
        description: 'split a pool into NUMBER equal pools, keeping blocks and allocations',
        arguments: [{ name: 'number', description: 'how many pools (a power of two)' }],
        options: [{ flags: '--cidr <cidr>', description: 'the pool, by CIDR' }, { flags: '--name <name>', description: 'the pool, by name' }, OUTPUT_OPTION],
        run: (o, [parts = '']) => {
          const json = wantsJson(o.output);
          checkCidrArgument(o.cidr);
          setTask(renderedTask((ctx) => ipamSplit(ctx, definedFields({ parts, cidr: o.cidr, name: o.name })), renderSplit), json, 'must-exist');
        },
      }),
      leafCommand<{ ip?: string; pod?: string; node?: string; clusterState?: string; output?: string }>({
        name: 'explain',
        description: 'explain where an address came from and why, or whether a node can allocate',
        options: [
          { flags: '--ip <ip>', description: 'an address' },
          { flags: '--pod <namespace/name>', description: 'every address of a pod' },
          { flags: '--node <name>', description: 'would the next allocation on this node succeed' },
          { flags: '--cluster-state <file>', description: 'JSON file with pods (for annotations)' },
          OUTPUT_OPTION,
        ],
        run: (o) => {
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
        },
      }),
      ...foresightCommands(setTask, stdin),
      migratePoolCommand(setTask, stdin),
    ],
  };
  return {
    name: 'ipamkit',
    description: 'Operate Calico-compatible IPAM data',
    options: DATASTORE_OPTIONS,
    commands: [ipam, datastoreCommand(setTask), installCniCommand(io), ...resourceCommands(setTask, stdin)],
  };
}

function nonEmptyFile(file: string | undefined, flag: string): string | undefined {
  if (file !== undefined && file.trim() === '') throw new CliUsageError(`${flag} must name a file`);
  return file;
}

/** `datastore migrate export|import` (design/cli.md "datastore migrate"): the global datastore is the source, or the target. */
function datastoreCommand(setTask: SetTask): CommandSpec {
  const exportCommand = leafCommand<{ file?: string; k8sNodeNames?: boolean; output?: string }>({
    name: 'export',
    description: 'write everything to migrate as one JSON document (the datastore is the source; read-only)',
    options: [
      { flags: '-f, --file <path>', description: 'write the document here (default: stdout)' },
      { flags: '--k8s-node-names', description: 'rename nodes to their Kubernetes names (spec.orchRefs), rewriting tunnel handles and owners' },
      OUTPUT_OPTION,
    ],
    run: (o) => {
      const file = nonEmptyFile(o.file, '--file');
      const json = wantsJson(o.output);
      setTask(async (ctx) => {
        const result = await migrateExport(ctx, { k8sNodeNames: o.k8sNodeNames === true, ...(file === undefined ? {} : { file }) });
        if (file === undefined) return { text: prettyJson(result.document), json: result.document };
        const { document: _document, ...summary } = result;
        return { text: renderExport(result), json: summary };
      }, json, 'read-only');
    },
  });
  const importCommand = leafCommand<{ file: string; dryRun?: boolean; output?: string }>({
    name: 'import',
    description: 'create everything in an export document (the datastore is the target and must be empty)',
    options: [
      { flags: '-f, --file <path>', description: 'the export document', required: true },
      { flags: '--dry-run', description: 'validate the file and the target, write nothing' },
      OUTPUT_OPTION,
    ],
    run: (o) => {
      const file = nonEmptyFile(o.file, '--file') ?? o.file;
      const json = wantsJson(o.output);
      setTask(renderedTask((ctx) => migrateImport(ctx, { file, dryRun: o.dryRun === true }), renderImport), json, 'may-create');
    },
  });
  const migrate = { name: 'migrate', description: 'move IPAM data, pools, reservations and nodes from one datastore to another', commands: [exportCommand, importCommand] };
  return { name: 'datastore', description: 'datastore-wide operations', commands: [migrate] };
}

/**
 * Runs `ipamkit <argv>` in-process (argv excludes the program name, e.g. `['ipam', 'show']`) and
 * returns the exit status of design/cli.md "Exit codes": 0 ok, 1 problems found or the command
 * failed, 2 usage, 3 datastore missing or unreachable. Errors reach stderr as one redacted line.
 */
export async function runIpamCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const pending: { task?: Task; json: boolean; access?: DatastoreAccess } = { json: false };
  const program = buildProgram(io, (task, json, access) => {
    pending.task = task;
    pending.json = json;
    pending.access = access;
  });
  const env = io.env ?? process.env;
  let flags: DatastoreFlags;
  try {
    const parsed = parseCommandLine(program, argv, CLI_VERSION);
    flags = parsed.globals;
    await parsed.run();
  } catch (err) {
    if (!(err instanceof CommandLineEnd)) {
      io.stderr.write(`${redactedErrorMessage(err, datastoreSecrets(env))}\n`);
      return exitCodeOf(err);
    }
    (err.exitCode === 0 ? io.stdout : io.stderr).write(err.text);
    return err.exitCode;
  }
  const run = pending.task;
  if (run === undefined) return EXIT.ok;
  let datastore: Datastore | undefined;
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
