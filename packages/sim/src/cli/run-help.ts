import { RUN_DEFAULTS } from '../run/run-options.js';
import { renderCommandHelp } from './command-help.js';
import type { RUN_SPEC } from './run-command.js';

/** `ipamkit-sim run --help`; the defaults are read from RUN_DEFAULTS, not repeated. */
export const RUN_HELP = renderCommandHelp<typeof RUN_SPEC>({
  usage: 'ipamkit-sim run [flags]',
  summary: [
    'Simulates a whole cluster (CNI, GC, tunnel and LoadBalancer allocators) against one datastore, then',
    'prints a summary, the `ipam show` table and the `ipam check` verdict.',
    'Exits 0 when clean, 1 on any leak, duplicate or broken invariant, 2 on a bad flag.',
  ].join('\n'),
  flags: {
    nodes: { value: 'N', default: RUN_DEFAULTS.nodes, description: 'simulated nodes, 2 to 1000' },
    pods: { value: 'N', default: RUN_DEFAULTS.pods, description: 'pods alive at the end, 1 to 200 per node' },
    churn: { value: 'N', default: RUN_DEFAULTS.churn, description: 'times each pod slot is filled (ADD, then DEL + ADD), 1 to 100' },
    datastore: { value: 'sqlite|etcd', default: RUN_DEFAULTS.datastore, description: 'the datastore; etcd is started and removed by the run' },
    'sqlite-path': { value: 'FILE', description: 'SQLite file to use and keep (default: a temp file removed at the end)' },
    'etcd-endpoints': { value: 'URL,...', description: 'with --datastore etcd: use this etcd instead of starting one' },
    spawn: { description: 'run the calico-ipam bin as a child process per CNI call instead of in-process' },
    services: { value: 'N', default: RUN_DEFAULTS.services, description: 'LoadBalancer Services created during the run, 0 to 200' },
    'grace-ms': { value: 'MS', default: RUN_DEFAULTS.gracePeriodMs, description: 'GC leak grace period in milliseconds, at least 100' },
    seed: { value: 'N', default: RUN_DEFAULTS.seed, description: 'seed of the random choices: the same seed gives the same run shape' },
    report: { value: 'FILE', description: 'also write the self-contained HTML report (heatmaps, latency) to FILE' },
    'what-if': {
      value: '"FLAGS"',
      description: 'instead of the churn run: predict with the planner, make the change (ipam what-if flags after =, e.g. --what-if="--strict-affinity true") for real on two /23 pools and --nodes nodes (default 8), fill through the CNI plugin, compare; exits 1 on disagreement',
    },
  },
});
