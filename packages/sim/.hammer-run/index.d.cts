import { Datastore, IPPool, AllocationBlock, IPAMHandle, BlockAffinity, IpamError } from '@ipamkit/models';
import { ClusterState, CheckResult } from '@ipamkit/cli';
import { Clock } from '@ipamkit/ipam-core';

/**
 * Block sequence numbers only increase (spec/hammer.md Part B) — within one life of a block: a
 * block that is deleted and claimed again starts over, so a delete forgets what was seen.
 */
declare class SequenceTracker {
    private readonly last;
    private readonly found;
    observed: number;
    /** A block was seen (created, updated, or listed) at `sequenceNumber`. */
    seen(cidr: string, sequenceNumber: bigint, deleted: boolean): void;
    /** The block is gone (delete event). */
    gone(cidr: string): void;
    /** After a gap in the event stream, nothing seen before can be compared with what comes next. */
    forget(): void;
    get violations(): readonly string[];
}

interface FinalCheckInput {
    readonly datastore: Datastore;
    readonly clock: Clock;
    /** Pods and Services alive at the end, so that `ipam check` can tell a leak from a live owner. */
    readonly cluster: ClusterState;
    /** Handles whose owner is known to be gone (killed allocators, pods deleted without a DEL). */
    readonly goneHandles?: ReadonlySet<string>;
    readonly sequence?: SequenceTracker;
}
interface FinalCheckResult {
    /** Empty when every invariant holds. */
    readonly violations: string[];
    /** The `ipam check` result, for the summary. */
    readonly check: CheckResult;
    readonly allocations: number;
    readonly leaks: number;
    readonly duplicates: number;
}
/**
 * The end-of-run verdict: `ipam check` (leaks, duplicates, structural findings) plus the accounting
 * checks of spec/hammer.md Part B, which `ipam check` does not make (handle counts, pending
 * affinities, orphans of killed owners, sequence numbers).
 */
declare function finalCheck(input: FinalCheckInput): Promise<FinalCheckResult>;

/** One timed operation: when it finished (ms since the run started), how long it took, what it was. */
interface LatencySample {
    readonly atMs: number;
    readonly ms: number;
    readonly op: 'add' | 'del';
}
/** The value at quantile q (0..1) of an ascending list; 0 for an empty list. */
declare function quantile(sorted: readonly number[], q: number): number;
interface LatencySummary {
    readonly count: number;
    readonly p50: number;
    readonly p90: number;
    readonly p99: number;
    readonly max: number;
}
declare function summarize(values: readonly number[]): LatencySummary;
/** Collects operation latencies against a monotonic clock started with the run. */
declare class LatencyRecorder {
    readonly samples: LatencySample[];
    private readonly t0;
    elapsedMs(): number;
    /** Times `fn` and records it; the result or error passes through. */
    time<T>(op: LatencySample['op'], fn: () => Promise<T>): Promise<T>;
    summary(op: LatencySample['op']): LatencySummary;
}

/** Counters the node workers share. */
interface ChurnStats {
    adds: number;
    dels: number;
    lostDeletes: number;
    failures: number;
    firstFailure?: string;
    /** Datastore round trips made during ADDs (in-process mode only). */
    addRoundTrips: number;
}

/** Where progress goes: a TTY stream (the bar redraws one line) or nothing. */
interface ProgressSink {
    readonly isTTY?: boolean;
    write(text: string): unknown;
}

type SimDatastoreType = 'sqlite' | 'etcd';
/** `ipamkit-sim run` settings (design/sim.md, "The run"). */
interface RunOptions {
    readonly nodes: number;
    /** Pods alive at the end; every pod slot is filled `churn` times. */
    readonly pods: number;
    readonly churn: number;
    readonly datastore: SimDatastoreType;
    /** SQLite file to use (kept afterwards); default a temp dir removed at the end. */
    readonly sqlitePath?: string;
    /** Use this etcd instead of starting one. */
    readonly etcdEndpoints?: readonly string[];
    /** Run the real `calico-ipam` bin as a child process per operation instead of `runCni` in-process. */
    readonly spawn: boolean;
    /** LoadBalancer Services created during the run. */
    readonly services: number;
    /** Share of nodes deleted half way through, with their pods and no CNI DEL. */
    readonly nodeDeleteRatio: number;
    /** Share of pod deletions whose CNI DEL never runs (the GC must reclaim them). */
    readonly lostDeleteRatio: number;
    /** GC leak grace period. */
    readonly gracePeriodMs: number;
    /** How long the end-of-run settling may take before the run fails. */
    readonly settleTimeoutMs: number;
    readonly seed: number;
    readonly reportPath?: string;
}
declare const RUN_DEFAULTS: RunOptions;
/** Fills defaults and rejects settings that cannot run, before anything is created. */
declare function resolveRunOptions(partial: Partial<RunOptions>): RunOptions;
/** A small deterministic PRNG (mulberry32): a seed reproduces the same run shape. */
declare function seededRandom(seed: number): () => number;

/** One block of a heatmap: how full it is and who owns it. */
interface HeatmapCell {
    readonly cidr: string;
    readonly used: number;
    readonly size: number;
    /** `host:<node>`, `virtual:load-balancer`, or '' for an unaffine block. */
    readonly owner: string;
}
interface PoolHeatmap {
    readonly pool: string;
    readonly cidr: string;
    /** Every block the pool could hold. */
    readonly possibleBlocks: bigint;
    readonly cells: HeatmapCell[];
}
/** Per pool, its claimed blocks in address order with their use and owner. */
declare function collectHeatmaps(ds: Datastore): Promise<PoolHeatmap[]>;

interface SimHooks {
    /** Progress bar target (drawn only when it is a TTY). */
    readonly progress?: ProgressSink;
    /** Runs after the cluster settled, before the final check: the place to inject faults (tests). */
    readonly beforeCheck?: (ds: Datastore) => Promise<void>;
}
interface SimResult {
    readonly options: RunOptions;
    readonly durationMs: number;
    readonly churnMs: number;
    readonly stats: ChurnStats;
    readonly allocationsPerSecond: number;
    readonly latency: {
        readonly add: LatencySummary;
        readonly del: LatencySummary;
    };
    /** Undefined with `--spawn` (the bin's own datastore cannot be counted). */
    readonly roundTripsPerAdd: number | undefined;
    readonly nodesDeleted: number;
    readonly servicesCreated: number;
    readonly servicesDeleted: number;
    readonly tunnelAddresses: number;
    readonly settleMs: number;
    /** Time of the `ipam show` utilization read of the final state. */
    readonly utilizationMs: number;
    readonly showTable: string;
    readonly check: FinalCheckResult;
    readonly heatmaps: PoolHeatmap[];
    readonly samples: LatencyRecorder['samples'];
}
/**
 * `ipamkit-sim run` (design/sim.md, "The run"): a cluster on a fresh datastore, pod churn through the
 * real CNI entry point, LoadBalancer Services, node deletions and the GC with a short grace period,
 * then settling and the final check. Never throws for a broken invariant: the result carries it.
 */
declare function runSim(partial?: Partial<RunOptions>, hooks?: SimHooks): Promise<SimResult>;

/** The end-of-run text: summary, the `ipam show` table, and the check verdict. */
declare function renderSummary(r: SimResult): string;

/**
 * The simulated cluster's pools: v4 per zone (one of them node-selected), v6 for every node, and a
 * LoadBalancer-only pool. IPIP on the v4 pools gives every node a tunnel address.
 */
declare const SIM_POOLS: readonly IPPool[];

/** The `--report` page: one self-contained HTML file (inline CSS and SVG, no scripts, no fetches). */
declare function renderReport(r: SimResult): string;

/** Fill colours by share of the block in use: empty, then five steps up to full. */
declare const USE_COLOURS: readonly ["#dbe9f6", "#ffffb2", "#fecc5c", "#fd8d3c", "#f03b20", "#bd0026"];
declare function useColour(used: number, size: number): string;

/** `ipamkit-sim hammer` settings (design/sim.md, "The hammer"). */
interface HammerOptions {
    readonly processes: number;
    /** CNI operations (ADD + DEL) across all processes. */
    readonly ops: number;
    /** Chance per operation that its process is SIGKILLed while it runs. */
    readonly killRate: number;
    readonly datastore: SimDatastoreType;
    /** Restart the etcd the hammer started, once, half way (etcd only). */
    readonly restartEtcd: boolean;
    /** Pods each allocator keeps alive at most. */
    readonly podsPerProcess: number;
    readonly gracePeriodMs: number;
    readonly settleTimeoutMs: number;
    readonly seed: number;
}
declare const HAMMER_DEFAULTS: HammerOptions;
declare function resolveHammerOptions(partial: Partial<HammerOptions>): HammerOptions;

interface HammerResult {
    readonly options: HammerOptions;
    readonly durationMs: number;
    readonly opsPerSecond: number;
    readonly adds: number;
    readonly dels: number;
    readonly kills: number;
    /** Calls that failed without a kill (expected while etcd restarts). */
    readonly failures: number;
    readonly etcdRestarts: number;
    readonly watchRestarts: number;
    readonly sequenceObservations: number;
    readonly settleMs: number;
    readonly allocationsAtEnd: number;
    readonly violations: string[];
}
/** The built allocator entry: next to this file in dist/, or in dist/ when running from src/. */
declare function hammerWorkerPath(): string;
/**
 * `ipamkit-sim hammer` (design/sim.md, "The hammer"): allocator processes against one datastore,
 * the GC running, random SIGKILLs mid-operation, optionally one etcd restart; then the accounting
 * checks of spec/hammer.md Part B once the GC has settled.
 */
declare function runHammer(partial?: Partial<HammerOptions>, progress?: ProgressSink): Promise<HammerResult>;

/** The hammer's report: what ran, then each Part B check with its verdict. */
declare function renderHammer(r: HammerResult): string;

/** What the post-run checks read: one consistent listing of the IPAM objects. */
interface IpamSnapshot {
    readonly blocks: readonly AllocationBlock[];
    readonly handles: readonly IPAMHandle[];
    readonly affinities: readonly BlockAffinity[];
}
/** One allocated ordinal, with the address it stands for. */
interface AllocatedAddress {
    readonly ip: string;
    readonly block: string;
    readonly ordinal: number;
    readonly handleId: string | undefined;
    readonly attrs: Readonly<Record<string, string>>;
}
/** Every allocated ordinal of every live block (cooling ordinals included: they hold the address). */
declare function allocatedAddresses(blocks: readonly AllocationBlock[]): AllocatedAddress[];
/** spec/hammer.md Part B: no address is allocated twice (in two blocks, so to two handles). */
declare function duplicateAddressViolations(addresses: readonly AllocatedAddress[]): string[];
/**
 * Every handle's per-block count equals the ordinals of that block carrying the handle, and every
 * handle an allocation names exists. Keys are compared sanitized, as the handle store keys them.
 */
declare function handleCountViolations(snapshot: IpamSnapshot, addresses: readonly AllocatedAddress[]): string[];
/** A claim that never finished leaves a `pending` affinity behind (spec/core.md, claim protocol). */
declare function pendingAffinityViolations(affinities: readonly BlockAffinity[]): string[];
/** Allocations still held by handles whose owner is gone (a killed process, a deleted pod). */
declare function orphanViolations(addresses: readonly AllocatedAddress[], goneHandles: ReadonlySet<string>, why: string): string[];

/** Round trips made through one counting view. */
declare class RoundTripCounter {
    count: number;
}
/**
 * The same datastore, counting every request it makes. A transaction is one round trip however
 * many reads its body makes: on SQLite and etcd those reads happen inside one exchange.
 */
declare function countingDatastore(ds: Datastore, counter: RoundTripCounter): Datastore;

/** A throw-away single-member etcd the simulator starts for `--datastore etcd` and the hammer. */
interface LocalEtcd {
    readonly endpoint: string;
    /** Kills etcd and starts it again on the same ports and data: keys and revisions survive. */
    restart(): Promise<void>;
    stop(): Promise<void>;
}
/** Starts etcd on free loopback ports in a temp dir; `stop()` kills it and removes the dir. */
declare function startLocalEtcd(binary?: string, timeoutMs?: number): Promise<LocalEtcd>;

/** Where the commands write: the process streams in the bin, collectors in tests. */
interface SimIo {
    readonly stdout: {
        write(text: string): unknown;
    };
    readonly stderr: {
        readonly isTTY?: boolean;
        write(text: string): unknown;
    };
}

declare const USAGE = "usage:\n  ipamkit-sim run [--nodes 50] [--pods 2000] [--churn 3] [--datastore sqlite|etcd] [--spawn]\n                  [--services 20] [--grace-ms 2000] [--seed 1] [--sqlite-path FILE]\n                  [--etcd-endpoints URL,...] [--report out.html]\n  ipamkit-sim hammer [--processes 16] [--ops 100000] [--kill-rate 0.01] [--datastore sqlite|etcd]\n                  [--restart-etcd] [--grace-ms 1000] [--seed 1] [--json out.json]\n";
/** The `ipamkit-sim` command line; returns the exit code. Errors are printed, never thrown. */
declare function main(argv: readonly string[], io: SimIo): Promise<number>;

/** A flag or option that cannot work (validation: fix the command line, retrying cannot help). */
declare class SimConfigError extends IpamError {
    name: string;
    readonly category = "validation";
}
/**
 * The cluster reached a state an invariant forbids (stop-and-re-evaluate: a bug to investigate).
 * Carries every violation so that the report names all of them, not just the first.
 */
declare class InvariantViolationError extends IpamError {
    readonly violations: readonly string[];
    name: string;
    readonly category = "stop-and-re-evaluate";
    constructor(violations: readonly string[]);
}
/** A step of the simulation failed in a way the run cannot continue from (e.g. etcd did not start). */
declare class SimStepError extends IpamError {
    readonly step: string;
    name: string;
    readonly category = "transient";
    constructor(step: string, message: string, options?: {
        cause?: unknown;
    });
}

export { type AllocatedAddress, type FinalCheckInput, type FinalCheckResult, HAMMER_DEFAULTS, type HammerOptions, type HammerResult, type HeatmapCell, InvariantViolationError, type IpamSnapshot, LatencyRecorder, type LatencySample, type LatencySummary, type LocalEtcd, type PoolHeatmap, RUN_DEFAULTS, RoundTripCounter, type RunOptions, SIM_POOLS, SequenceTracker, SimConfigError, type SimDatastoreType, type SimHooks, type SimResult, SimStepError, USAGE, USE_COLOURS, allocatedAddresses, collectHeatmaps, countingDatastore, duplicateAddressViolations, finalCheck, hammerWorkerPath, handleCountViolations, main, orphanViolations, pendingAffinityViolations, quantile, renderHammer, renderReport, renderSummary, resolveHammerOptions, resolveRunOptions, runHammer, runSim, seededRandom, startLocalEtcd, summarize, useColour };
