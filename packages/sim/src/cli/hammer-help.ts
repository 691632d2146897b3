import { HAMMER_DEFAULTS } from '../hammer/hammer-options.js';
import { renderCommandHelp } from './command-help.js';
import type { HAMMER_SPEC } from './hammer-command.js';

/** `ipamkit-sim hammer --help`; the defaults are read from HAMMER_DEFAULTS, not repeated. */
export const HAMMER_HELP = renderCommandHelp<typeof HAMMER_SPEC>({
  usage: 'ipamkit-sim hammer [flags]',
  summary: [
    'Runs allocator processes doing CNI ADD/DEL against one datastore while the GC runs, SIGKILLs them',
    'at random mid-operation, then checks the accounting (no duplicate, no leak, sequence numbers).',
    'With --all-callers it runs every caller together as processes instead: calico-ipam spawned per CNI',
    'call, the GC and lb-alloc bins, tunnel-alloc per node, against sqlite or the Kubernetes API test',
    'server (--datastore kubernetes, with --fault-rate injected 409/500/410 answers), killing CNI and',
    'controller processes at random and restarting the controllers.',
    'Exits 0 when every check passes, 1 on any violation, 2 on a bad flag.',
  ].join('\n'),
  flags: {
    processes: { value: 'N', default: HAMMER_DEFAULTS.processes, description: 'allocator processes, one per simulated node, 1 to 256' },
    ops: { value: 'N', default: HAMMER_DEFAULTS.ops, description: 'CNI operations (ADD + DEL) across all processes' },
    'kill-rate': { value: 'P', default: HAMMER_DEFAULTS.killRate, description: 'chance per operation that its process is SIGKILLed, 0 to 0.5' },
    datastore: { value: 'sqlite|etcd|kubernetes', default: HAMMER_DEFAULTS.datastore, description: 'the shared datastore; etcd is started and removed by the hammer; kubernetes (the API test server) needs --all-callers' },
    'restart-etcd': { description: 'restart etcd once, half way through (implies --datastore etcd)' },
    'pods-per-process': { value: 'N', default: HAMMER_DEFAULTS.podsPerProcess, description: 'pods each allocator keeps alive at most, 1 to 60' },
    'grace-ms': { value: 'MS', default: HAMMER_DEFAULTS.gracePeriodMs, description: 'GC leak grace period in milliseconds, at least 100' },
    seed: { value: 'N', default: HAMMER_DEFAULTS.seed, description: 'seed of the random choices: the same seed gives the same run shape' },
    'all-callers': { description: 'run CNI processes, gc, lb-alloc and tunnel-alloc together (sqlite or kubernetes)' },
    'fault-rate': { value: 'P', default: HAMMER_DEFAULTS.faultRate, description: 'chance per Kubernetes API request of an injected 409 (writes), 500 or 410 (watches), 0 to 0.5; needs --all-callers' },
    services: { value: 'N', default: HAMMER_DEFAULTS.services, description: 'LoadBalancer Services kept alive at most, 0 to 200 (--all-callers)' },
    'controller-kill-ms': { value: 'MS', default: HAMMER_DEFAULTS.controllerKillMs, description: 'mean time between SIGKILLs of a controller process, 0 for none (--all-callers)' },
    json: { value: 'FILE', description: 'also write the full result as JSON to FILE' },
  },
});
