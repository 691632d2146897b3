// src/run/run-sim.ts
import { mkdtempSync as mkdtempSync2, rmSync as rmSync2 } from "fs";
import { tmpdir as tmpdir2 } from "os";
import { join as join4 } from "path";
import { ipamShow, renderShow } from "@ipamkit/cli";
import { GcController } from "@ipamkit/gc";
import { createIpamClient, systemClock } from "@ipamkit/ipam-core";
import { createDatastore } from "@ipamkit/ipam-datastore";
import { LbController, MemoryLbClusterView } from "@ipamkit/lb-alloc";
import { reconcileTunnelAddresses } from "@ipamkit/tunnel-alloc";

// src/checks/final-check.ts
import { ipamCheck, blockProblem } from "@ipamkit/cli";

// src/checks/accounting-checks.ts
import { addressAt, sanitizeHandleId, WINDOWS_RESERVED_HANDLE } from "@ipamkit/models";
function allocatedAddresses(blocks) {
  const out = [];
  for (const block of blocks) {
    if (block.deleted) continue;
    block.allocations.forEach((index, ordinal) => {
      if (index === null) return;
      const attr = block.attributes[index];
      out.push({
        ip: addressAt(block.cidr, ordinal),
        block: block.cidr,
        ordinal,
        handleId: attr?.handleId,
        attrs: attr?.activeOwnerAttrs ?? {}
      });
    });
  }
  return out;
}
function duplicateAddressViolations(addresses) {
  const byIP = /* @__PURE__ */ new Map();
  for (const a of addresses) byIP.set(a.ip, [...byIP.get(a.ip) ?? [], a]);
  const out = [];
  for (const [ip, holders] of byIP) {
    if (holders.length < 2) continue;
    const who = holders.map((h) => `${h.handleId ?? "(no handle)"} in ${h.block}`).join(", ");
    out.push(`duplicate allocation: ${ip} is held ${holders.length} times (${who})`);
  }
  return out;
}
function handleCountViolations(snapshot, addresses) {
  const counted = /* @__PURE__ */ new Map();
  for (const a of addresses) {
    if (a.handleId === void 0 || a.handleId.toLowerCase() === WINDOWS_RESERVED_HANDLE) continue;
    const key = sanitizeHandleId(a.handleId);
    const perBlock = counted.get(key) ?? /* @__PURE__ */ new Map();
    perBlock.set(a.block, (perBlock.get(a.block) ?? 0) + 1);
    counted.set(key, perBlock);
  }
  const out = [];
  const seen = /* @__PURE__ */ new Set();
  for (const handle of snapshot.handles) {
    if (handle.deleted) continue;
    const key = sanitizeHandleId(handle.handleId);
    seen.add(key);
    const actual = counted.get(key) ?? /* @__PURE__ */ new Map();
    const blocks = /* @__PURE__ */ new Set([...Object.keys(handle.block), ...actual.keys()]);
    for (const cidr of blocks) {
      const stored = handle.block[cidr] ?? 0;
      const real = actual.get(cidr) ?? 0;
      if (stored !== real) out.push(`handle ${handle.handleId} counts ${stored} allocation(s) in ${cidr}, the block holds ${real}`);
    }
  }
  for (const [key, perBlock] of counted) {
    if (!seen.has(key)) out.push(`allocation(s) in ${[...perBlock.keys()].join(", ")} name handle ${key}, which does not exist`);
  }
  return out;
}
function pendingAffinityViolations(affinities) {
  return affinities.filter((a) => !a.deleted && a.state === "pending").map((a) => `pending affinity left behind: ${a.type}:${a.host} on ${a.cidr}`);
}
function orphanViolations(addresses, goneHandles, why) {
  return addresses.filter((a) => a.handleId !== void 0 && goneHandles.has(a.handleId)).map((a) => `${a.ip} (handle ${a.handleId ?? ""}) is still allocated: ${why}`);
}

// src/checks/final-check.ts
async function finalCheck(input) {
  const ds = input.datastore;
  const check = await ipamCheck({ datastore: ds, clock: input.clock }, input.cluster);
  const [blocks, handles, affinities] = await Promise.all([ds.blocks.list(), ds.handles.list(), ds.affinities.list()]);
  const addresses = allocatedAddresses(blocks);
  const violations = [];
  for (const a of check.allocations) {
    if (a.classification === "duplicate" || a.releasable) {
      violations.push(`ipam check: ${a.ip} (${a.handle ?? "no handle"}) is ${a.classification}: ${a.reason}`);
    }
  }
  for (const f of check.findings) if (f.problem) violations.push(`ipam check: ${f.kind} ${f.subject}: ${f.reason}`);
  const now = input.clock.now();
  for (const b of blocks) {
    if (b.deleted) continue;
    const problem = blockProblem(b, now);
    if (problem !== void 0) violations.push(`block ${b.cidr} is malformed: ${problem}`);
  }
  const duplicates = duplicateAddressViolations(addresses);
  violations.push(...duplicates, ...handleCountViolations({ blocks, handles, affinities }, addresses), ...pendingAffinityViolations(affinities));
  if (input.goneHandles !== void 0) violations.push(...orphanViolations(addresses, input.goneHandles, "its owner is gone and the grace period passed"));
  if (input.sequence !== void 0) violations.push(...input.sequence.violations);
  return {
    violations: [...new Set(violations)],
    check,
    allocations: addresses.length,
    leaks: check.allocations.filter((a) => a.classification === "leak").length,
    duplicates: Math.max(duplicates.length, check.allocations.filter((a) => a.classification === "duplicate").length)
  };
}

// src/checks/sequence-tracker.ts
var SequenceTracker = class {
  last = /* @__PURE__ */ new Map();
  found = [];
  observed = 0;
  /** A block was seen (created, updated, or listed) at `sequenceNumber`. */
  seen(cidr, sequenceNumber, deleted) {
    this.observed += 1;
    if (deleted) {
      this.last.delete(cidr);
      return;
    }
    const before = this.last.get(cidr);
    if (before !== void 0 && sequenceNumber < before) {
      this.found.push(`block ${cidr} sequence number went back from ${before} to ${sequenceNumber}`);
    }
    this.last.set(cidr, sequenceNumber);
  }
  /** The block is gone (delete event). */
  gone(cidr) {
    this.observed += 1;
    this.last.delete(cidr);
  }
  /** After a gap in the event stream, nothing seen before can be compared with what comes next. */
  forget() {
    this.last.clear();
  }
  get violations() {
    return this.found;
  }
};

// src/checks/sequence-monitor.ts
var SequenceMonitor = class {
  constructor(datastore) {
    this.datastore = datastore;
  }
  datastore;
  tracker = new SequenceTracker();
  abort = new AbortController();
  loop;
  /** Watch restarts after an error (an etcd restart ends the stream). */
  restarts = 0;
  async start() {
    const { items, revision } = await this.datastore.blocks.listWithRevision();
    for (const b of items) this.tracker.seen(b.cidr, b.sequenceNumber, b.deleted);
    this.loop = this.follow(revision);
  }
  async follow(from) {
    let revision = from;
    while (!this.abort.signal.aborted) {
      try {
        for await (const ev of this.datastore.blocks.watch({ fromRevision: revision, signal: this.abort.signal })) {
          revision = ev.revision;
          if (ev.type === "deleted") {
            if (ev.previous === void 0) this.tracker.forget();
            else this.tracker.gone(ev.previous.cidr);
          } else if (ev.type !== "bookmark") this.tracker.seen(ev.object.cidr, ev.object.sequenceNumber, ev.object.deleted);
        }
      } catch {
        if (this.stopping()) return;
        this.restarts += 1;
        await new Promise((r) => setTimeout(r, 200));
        try {
          const { items, revision: now } = await this.datastore.blocks.listWithRevision();
          this.tracker.forget();
          for (const b of items) this.tracker.seen(b.cidr, b.sequenceNumber, b.deleted);
          revision = now;
        } catch {
        }
      }
    }
  }
  stopping() {
    return this.abort.signal.aborted;
  }
  async stop() {
    this.abort.abort();
    await this.loop;
  }
};

// src/datastore/counting-datastore.ts
var RoundTripCounter = class {
  count = 0;
};
var STORES = ["ipPools", "ipReservations", "nodes", "namespaces", "blocks", "affinities", "handles", "ipamConfig"];
var NOT_COUNTED = /* @__PURE__ */ new Set(["watch"]);
function countingStore(store, counter) {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function" || NOT_COUNTED.has(prop)) return value;
      return (...args) => {
        counter.count += 1;
        return value.apply(target, args);
      };
    }
  });
}
function countingDatastore(ds, counter) {
  const stores = Object.fromEntries(STORES.map((name) => [name, countingStore(ds[name], counter)]));
  const transact = ds.transact;
  return {
    ...stores,
    kind: ds.kind,
    ...transact === void 0 ? {} : {
      transact: (body) => {
        counter.count += 1;
        return transact.call(ds, body);
      }
    },
    upgradeHost: (node) => ds.upgradeHost(node),
    // The simulator owns the real datastore; a view must never close it.
    close: () => Promise.resolve()
  };
}

// src/datastore/local-etcd.ts
import { spawn } from "child_process";
import { existsSync, mkdtempSync, rmSync } from "fs";
import { createServer } from "net";
import { tmpdir } from "os";
import { join } from "path";

// src/errors.ts
import { IpamError } from "@ipamkit/models";
var SimConfigError = class extends IpamError {
  name = "SimConfigError";
  category = "validation";
};
var InvariantViolationError = class extends IpamError {
  constructor(violations) {
    super(`${violations.length} invariant violation(s):
${violations.map((v) => `  - ${v}`).join("\n")}`);
    this.violations = violations;
  }
  violations;
  name = "InvariantViolationError";
  category = "stop-and-re-evaluate";
};
var SimStepError = class extends IpamError {
  constructor(step, message, options) {
    super(`${step}: ${message}`, options);
    this.step = step;
  }
  step;
  name = "SimStepError";
  category = "transient";
};

// src/datastore/local-etcd.ts
var ETCD_BINARY = "/usr/bin/etcd";
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
async function healthy(endpoint, timeoutMs, child) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new SimStepError("etcd", `etcd exited with code ${child.exitCode} while starting`);
    try {
      const res = await fetch(`${endpoint}/health`);
      const body = await res.json();
      if (body.health === "true") return;
    } catch {
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new SimStepError("etcd", `etcd at ${endpoint} was not healthy within ${timeoutMs} ms`);
}
function kill(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}
async function startLocalEtcd(binary = ETCD_BINARY, timeoutMs = 6e4) {
  if (!existsSync(binary)) throw new SimStepError("etcd", `${binary} not found: install etcd (Debian: etcd-server) or use --datastore sqlite`);
  const root = mkdtempSync(join(tmpdir(), "ipamkit-sim-etcd-"));
  const clientPort = await freePort();
  const peerPort = await freePort();
  const endpoint = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const launch = async () => {
    const args = [
      "--name",
      "sim",
      "--data-dir",
      join(root, "data"),
      "--listen-client-urls",
      endpoint,
      "--advertise-client-urls",
      endpoint,
      "--listen-peer-urls",
      peer,
      "--initial-advertise-peer-urls",
      peer,
      "--initial-cluster",
      `sim=${peer}`,
      "--initial-cluster-state",
      "new",
      "--log-level",
      "error",
      "--heartbeat-interval",
      "10",
      "--election-timeout",
      "100",
      // Simulation data is disposable; fsync would only measure the disk.
      "--unsafe-no-fsync"
    ];
    const child2 = spawn(binary, args, { stdio: "ignore" });
    try {
      await healthy(endpoint, timeoutMs, child2);
    } catch (err) {
      await kill(child2);
      throw err;
    }
    return child2;
  };
  let child = await launch();
  const onExit = () => {
    child.kill("SIGKILL");
  };
  process.once("exit", onExit);
  return {
    endpoint,
    async restart() {
      await kill(child);
      child = await launch();
    },
    async stop() {
      process.removeListener("exit", onExit);
      await kill(child);
      rmSync(root, { recursive: true, force: true });
    }
  };
}

// src/run/cni-driver.ts
import { spawn as spawn2 } from "child_process";
import { createRequire } from "module";
import { dirname, join as join2 } from "path";
import { runCni } from "@ipamkit/cni";
function cniEnv(call) {
  return {
    CNI_COMMAND: call.command,
    CNI_CONTAINERID: call.containerId,
    CNI_NETNS: `/var/run/netns/${call.containerId}`,
    CNI_IFNAME: "eth0",
    CNI_PATH: "/opt/cni/bin",
    CNI_ARGS: `IgnoreUnknown=1;K8S_POD_NAMESPACE=${call.namespace};K8S_POD_NAME=${call.pod};K8S_POD_INFRA_CONTAINER_ID=${call.containerId}`
  };
}
function inProcessDriver(datastore) {
  return (call) => runCni({ env: cniEnv(call), stdin: call.netConf, datastore, stderr: () => void 0 });
}
function calicoIpamBinPath() {
  const require2 = createRequire(import.meta.url);
  return join2(dirname(require2.resolve("@ipamkit/cni/package.json")), "dist", "calico-ipam.cjs");
}
function spawnDriver(bin = calicoIpamBinPath()) {
  return (call) => new Promise((resolve, reject) => {
    const child = spawn2(process.execPath, [bin], { env: { ...process.env, ...cniEnv(call) }, stdio: ["pipe", "pipe", "ignore"] });
    const out = [];
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.once("error", reject);
    child.once("close", (code) => resolve({ exitCode: code ?? 1, stdout: Buffer.concat(out).toString("utf8") }));
    child.stdin.end(call.netConf);
  });
}
function resultAddresses(stdout) {
  const parsed = JSON.parse(stdout);
  return (parsed.ips ?? []).map((i) => (i.address ?? "").split("/")[0] ?? "").filter((a) => a !== "");
}

// src/run/latency-recorder.ts
function quantile(sorted, q) {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] ?? 0;
}
function summarize(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? 0 };
}
var LatencyRecorder = class {
  samples = [];
  t0 = performance.now();
  elapsedMs() {
    return performance.now() - this.t0;
  }
  /** Times `fn` and records it; the result or error passes through. */
  async time(op, fn) {
    const start2 = performance.now();
    try {
      return await fn();
    } finally {
      const end = performance.now();
      this.samples.push({ atMs: end - this.t0, ms: end - start2, op });
    }
  }
  summary(op) {
    return summarize(this.samples.filter((s) => s.op === op).map((s) => s.ms));
  }
};

// src/run/sim-cluster.ts
import { randomBytes } from "crypto";
import { join as join3 } from "path";
import { MemoryClusterView } from "@ipamkit/gc";
import { cniHandleId } from "@ipamkit/models";

// src/run/sim-pools.ts
var ZONE_LABEL = "zone";
var SIM_POOLS = [
  { name: "pods-v4", cidr: "10.244.0.0/16", blockSize: 26, nodeSelector: `${ZONE_LABEL} == 'a'`, ipipMode: "Always", natOutgoing: true },
  { name: "pods-v4-zone-b", cidr: "10.245.0.0/19", blockSize: 26, nodeSelector: `${ZONE_LABEL} == 'b'`, ipipMode: "Always", natOutgoing: true },
  { name: "pods-v6", cidr: "fd00:10:244::/112", blockSize: 122 },
  { name: "load-balancer", cidr: "10.96.200.0/24", blockSize: 28, allowedUses: ["LoadBalancer"] }
];
function zoneOf(index) {
  return index % 4 === 3 ? "b" : "a";
}

// src/run/sim-cluster.ts
var NETWORK_NAME = "k8s-pod-network";
var NAMESPACES = ["default", "shop", "batch"];
var SimCluster = class {
  nodes = [];
  view = new MemoryClusterView();
  goneHandles = /* @__PURE__ */ new Set();
  deletedNodes = /* @__PURE__ */ new Set();
  constructor(nodeCount, pods, churn, dir) {
    for (let i = 0; i < nodeCount; i++) {
      const name = `sim-node-${String(i).padStart(3, "0")}`;
      const share = Math.floor(pods / nodeCount) + (i < pods % nodeCount ? 1 : 0);
      const slots = Array.from({ length: share }, (_, index) => ({ index, stepsLeft: 2 * churn - 1 }));
      this.nodes.push({ name, labels: { [ZONE_LABEL]: zoneOf(i) }, slots, lockFile: join3(dir, `${name}.lock`), deleted: false, generation: 0 });
      this.view.upsertNode(name, { [ZONE_LABEL]: zoneOf(i) });
    }
  }
  /** A new pod for a slot, known to the cluster before its CNI ADD (as the kubelet sees it). */
  newPod(node, slot) {
    node.generation += 1;
    const namespace = NAMESPACES[(slot.index + node.generation) % NAMESPACES.length] ?? "default";
    const containerId = randomBytes(16).toString("hex");
    const pod = { name: `${node.name}-p${slot.index}-g${node.generation}`, namespace, containerId, handleId: cniHandleId(NETWORK_NAME, containerId), ips: [] };
    this.view.upsertPod({ name: pod.name, namespace, nodeName: node.name, ips: [], phase: "Running" });
    return pod;
  }
  podRunning(node, pod, ips) {
    pod.ips = ips;
    this.view.upsertPod({ name: pod.name, namespace: pod.namespace, nodeName: node.name, ips, phase: "Running" });
  }
  /** The pod object is gone; its handle must end with no allocation (by DEL, or by the GC). */
  podGone(pod) {
    this.view.deletePod(pod.namespace, pod.name);
    this.goneHandles.add(pod.handleId);
  }
  livePods() {
    return this.nodes.flatMap((node) => node.slots.flatMap((s) => s.live === void 0 ? [] : [{ node, pod: s.live }]));
  }
};

// src/run/node-worker.ts
var isDeleted = (node) => node.deleted;
async function runNodeWorker(node, ctx) {
  const { cluster, stats } = ctx;
  for (; ; ) {
    if (node.deleted) return;
    const pending = node.slots.filter((s) => s.stepsLeft > 0);
    if (pending.length === 0) return;
    const slot = pending[Math.floor(ctx.random() * pending.length)] ?? pending[0];
    if (slot === void 0) return;
    slot.stepsLeft -= 1;
    const conf = ctx.netConf(node);
    if (slot.live === void 0) {
      const pod = cluster.newPod(node, slot);
      const before = ctx.roundTrips?.() ?? 0;
      const out = await ctx.recorder.time("add", () => ctx.driver({ command: "ADD", containerId: pod.containerId, namespace: pod.namespace, pod: pod.name, netConf: conf }));
      stats.adds += 1;
      stats.addRoundTrips += (ctx.roundTrips?.() ?? 0) - before;
      if (isDeleted(node)) {
        cluster.podGone(pod);
      } else if (out.exitCode === 0) {
        cluster.podRunning(node, pod, resultAddresses(out.stdout));
        slot.live = pod;
      } else {
        stats.failures += 1;
        stats.firstFailure ??= `ADD ${pod.name} on ${node.name}: ${out.stdout.trim()}`;
        cluster.podGone(pod);
      }
    } else {
      const pod = slot.live;
      slot.live = void 0;
      cluster.podGone(pod);
      if (ctx.random() < ctx.lostDeleteRatio) {
        stats.lostDeletes += 1;
      } else {
        const out = await ctx.recorder.time("del", () => ctx.driver({ command: "DEL", containerId: pod.containerId, namespace: pod.namespace, pod: pod.name, netConf: conf }));
        stats.dels += 1;
        if (out.exitCode !== 0) {
          stats.failures += 1;
          stats.firstFailure ??= `DEL ${pod.name} on ${node.name}: ${out.stdout.trim()}`;
        }
      }
    }
    ctx.onStep();
  }
}
function netConfFor(node, datastoreKeys) {
  return JSON.stringify({
    cniVersion: "1.0.0",
    name: NETWORK_NAME,
    type: "calico",
    nodename: node.name,
    ipam: { type: "calico-ipam", assign_ipv4: "true", assign_ipv6: "true" },
    ipam_lock_file: node.lockFile,
    ...datastoreKeys
  });
}

// src/run/progress-bar.ts
var WIDTH = 30;
var ProgressBar = class {
  constructor(sink, total, label2) {
    this.sink = sink;
    this.total = total;
    this.label = label2;
  }
  sink;
  total;
  label;
  lastDraw = 0;
  get enabled() {
    return this.sink?.isTTY === true;
  }
  update(done, note = "") {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.lastDraw < 100 && done < this.total) return;
    this.lastDraw = now;
    const ratio2 = this.total === 0 ? 1 : Math.min(1, done / this.total);
    const filled = Math.round(ratio2 * WIDTH);
    const bar = `${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}`;
    this.sink?.write(`\r${this.label} [${bar}] ${Math.round(ratio2 * 100)}% ${done}/${this.total} ${note}\x1B[K`);
  }
  done() {
    if (this.enabled) this.sink?.write("\n");
  }
};

// src/run/run-options.ts
var RUN_DEFAULTS = {
  nodes: 50,
  pods: 2e3,
  churn: 3,
  datastore: "sqlite",
  spawn: false,
  services: 20,
  nodeDeleteRatio: 0.1,
  lostDeleteRatio: 0.05,
  gracePeriodMs: 2e3,
  settleTimeoutMs: 12e4,
  seed: 1
};
function positiveInt(name, v, min, max) {
  if (!Number.isInteger(v) || v < min || v > max) throw new SimConfigError(`--${name} must be an integer from ${min} to ${max}, got ${v}`);
}
function ratio(name, v) {
  if (!Number.isFinite(v) || v < 0 || v > 1) throw new SimConfigError(`--${name} must be between 0 and 1, got ${v}`);
}
function resolveRunOptions(partial) {
  const o = { ...RUN_DEFAULTS, ...partial };
  positiveInt("nodes", o.nodes, 2, 1e3);
  positiveInt("pods", o.pods, o.nodes, o.nodes * 200);
  positiveInt("churn", o.churn, 1, 100);
  positiveInt("services", o.services, 0, 200);
  positiveInt("seed", o.seed, 0, 2 ** 31);
  ratio("node-delete-ratio", o.nodeDeleteRatio);
  ratio("lost-delete-ratio", o.lostDeleteRatio);
  const datastore = o.datastore;
  if (datastore !== "sqlite" && datastore !== "etcd") throw new SimConfigError(`--datastore must be sqlite or etcd, got ${datastore}`);
  if (!Number.isFinite(o.gracePeriodMs) || o.gracePeriodMs < 100) throw new SimConfigError(`--grace-ms must be at least 100, got ${o.gracePeriodMs}`);
  if (Math.floor(o.nodes * o.nodeDeleteRatio) >= o.nodes) throw new SimConfigError("--node-delete-ratio would delete every node");
  return o;
}
function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = a + 1831565813 >>> 0;
    let t = a;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}

// src/run/settle.ts
async function unsettled(ds, target) {
  const [blocks, affinities] = await Promise.all([ds.blocks.list(), ds.affinities.list()]);
  const addresses = allocatedAddresses(blocks);
  const left = orphanViolations(addresses, target.goneHandles, "its pod is gone");
  for (const a of addresses) {
    const node = a.attrs["node"];
    if (node !== void 0 && target.deletedNodes.has(node)) left.push(`${a.ip} (handle ${a.handleId ?? ""}) still belongs to deleted node ${node}`);
  }
  for (const aff of affinities) {
    if (!aff.deleted && aff.type === "host" && target.deletedNodes.has(aff.host)) left.push(`deleted node ${aff.host} still holds the affinity for ${aff.cidr}`);
  }
  return left;
}
var MAX_FAILED_PASSES = 3;
async function settle(args) {
  const start2 = Date.now();
  let failedPasses = 0;
  for (; ; ) {
    await args.gc.whenIdle();
    let passError;
    try {
      await args.gc.syncNow({ full: true });
      failedPasses = 0;
    } catch (err) {
      failedPasses += 1;
      passError = `GC pass failed ${failedPasses} time(s) in a row: ${err instanceof Error ? err.message : String(err)}`;
    }
    const left = await unsettled(args.ds, args.target);
    const timedOut = Date.now() - start2 > args.timeoutMs;
    if (passError !== void 0 && (failedPasses >= MAX_FAILED_PASSES || timedOut)) return { left: [passError, ...left], ms: Date.now() - start2 };
    if (passError === void 0 && left.length === 0 || timedOut) return { left, ms: Date.now() - start2 };
    await new Promise((r) => setTimeout(r, args.pollMs));
  }
}

// src/report/collect-heatmaps.ts
import { addressToBigInt, cidrContains, cidrSize } from "@ipamkit/models";
var start = (cidr) => addressToBigInt(cidr.split("/")[0] ?? "");
async function collectHeatmaps(ds) {
  const [pools, blocks] = await Promise.all([ds.ipPools.list(), ds.blocks.list()]);
  return pools.map((pool) => {
    const blockSize = pool.blockSize ?? (pool.cidr.includes(":") ? 122 : 26);
    const prefix = Number(pool.cidr.split("/")[1] ?? blockSize);
    const cells = blocks.filter((b) => !b.deleted && cidrContains(pool.cidr, b.cidr)).map((b) => ({
      cidr: b.cidr,
      used: b.allocations.filter((a) => a !== null).length,
      size: Number(cidrSize(b.cidr)),
      owner: b.affinity === void 0 ? "" : `${b.affinity.type}:${b.affinity.host}`
    })).sort((a, b) => start(a.cidr) < start(b.cidr) ? -1 : start(a.cidr) > start(b.cidr) ? 1 : 0);
    return { pool: pool.name, cidr: pool.cidr, possibleBlocks: 2n ** BigInt(Math.max(0, blockSize - prefix)), cells };
  });
}

// src/run/run-sim.ts
async function openBackend(o, dir) {
  if (o.datastore === "sqlite") {
    const path = o.sqlitePath ?? join4(dir, "ipam.db");
    const ds2 = await createDatastore({ type: "sqlite", path });
    return { ds: ds2, confKeys: { datastore_type: "sqlite", sqlite_path: path }, close: () => ds2.close() };
  }
  let etcd;
  const endpoints = o.etcdEndpoints ?? [(etcd = await startLocalEtcd()).endpoint];
  const prefix = `/ipamkit-sim-${process.pid}-${Date.now()}`;
  const ds = await createDatastore({ type: "etcd", endpoints: [...endpoints], prefix });
  return {
    ds,
    confKeys: { datastore_type: "etcdv3", etcd_endpoints: endpoints.join(","), etcd_prefix: prefix },
    close: async () => {
      await ds.close();
      await etcd?.stop();
    }
  };
}
async function createCluster(ds, cluster) {
  for (const pool of SIM_POOLS) await ds.ipPools.create(pool);
  const ipam = createIpamClient({ datastore: ds, clock: systemClock });
  let tunnels = 0;
  for (const node of cluster.nodes) {
    await ds.nodes.create({ name: node.name, labels: node.labels });
    const result = await reconcileTunnelAddresses({ datastore: ds, ipam, nodeName: node.name });
    tunnels += result.decisions.filter((d) => d.enabled).length;
  }
  return tunnels;
}
async function runSim(partial = {}, hooks = {}) {
  const o = resolveRunOptions(partial);
  const started = Date.now();
  const dir = mkdtempSync2(join4(tmpdir2(), "ipamkit-sim-"));
  const backend = await openBackend(o, dir).catch((err) => {
    rmSync2(dir, { recursive: true, force: true });
    throw err;
  });
  const { ds } = backend;
  const stops = [];
  try {
    const random = seededRandom(o.seed);
    const cluster = new SimCluster(o.nodes, o.pods, o.churn, dir);
    const tunnelAddresses = await createCluster(ds, cluster);
    const sequence = new SequenceMonitor(ds);
    await sequence.start();
    stops.push(() => sequence.stop());
    const gc = new GcController({ datastore: ds, view: cluster.view, leakGracePeriodMs: o.gracePeriodMs, nodeSource: "cluster-view", deleteNodes: false, batchWaitMs: 100 });
    await gc.start();
    stops.push(() => gc.stop());
    const lbView = new MemoryLbClusterView();
    const lb = new LbController({ datastore: ds, view: lbView, fullSyncIntervalMs: 0 });
    await lb.start();
    stops.push(() => lb.stop());
    cluster.view.setServicesWatched(true);
    for (let i = 0; i < o.services; i++) {
      lbView.upsertService({ name: `svc-${i}`, namespace: "default" });
      cluster.view.upsertService("default", `svc-${i}`);
    }
    const recorder = new LatencyRecorder();
    const stats = { adds: 0, dels: 0, lostDeletes: 0, failures: 0, addRoundTrips: 0 };
    const totalSteps = cluster.nodes.reduce((n, node) => n + node.slots.reduce((m, s) => m + s.stepsLeft, 0), 0);
    const bar = new ProgressBar(hooks.progress, totalSteps, "churn");
    let steps = 0;
    const deleteCount = Math.floor(o.nodes * o.nodeDeleteRatio);
    const stride = Math.max(1, Math.floor(o.nodes / Math.max(1, deleteCount)));
    const toDelete = new Set(Array.from({ length: deleteCount }, (_, j) => cluster.nodes[(j * stride + 1) % o.nodes]?.name ?? ""));
    let midpoint;
    let servicesDeleted = 0;
    const atMidpoint = async () => {
      for (const node of cluster.nodes.filter((n) => toDelete.has(n.name))) {
        node.deleted = true;
        for (const slot of node.slots) {
          if (slot.live !== void 0) cluster.podGone(slot.live);
          slot.live = void 0;
        }
        cluster.deletedNodes.add(node.name);
        cluster.view.deleteNode(node.name);
        await ds.nodes.delete(node.name);
      }
      for (let i = 0; i < Math.floor(o.services / 4); i++) {
        lbView.deleteService("default", `svc-${i}`);
        cluster.view.deleteService("default", `svc-${i}`);
        servicesDeleted += 1;
      }
    };
    const workers = cluster.nodes.map((node) => {
      const counter = new RoundTripCounter();
      const driver = o.spawn ? spawnDriver() : inProcessDriver(countingDatastore(ds, counter));
      return runNodeWorker(node, {
        cluster,
        driver,
        recorder,
        stats,
        random,
        lostDeleteRatio: o.lostDeleteRatio,
        roundTrips: o.spawn ? void 0 : () => counter.count,
        netConf: (n) => netConfFor(n, backend.confKeys),
        onStep: () => {
          steps += 1;
          bar.update(steps, `${stats.failures} failed`);
          if (midpoint === void 0 && steps >= totalSteps / 2) midpoint = atMidpoint();
        }
      });
    });
    await Promise.all(workers);
    await midpoint;
    bar.done();
    const churnMs = recorder.elapsedMs();
    await lb.syncNow();
    await lb.whenIdle();
    const settled = await settle({ ds, gc, target: cluster, timeoutMs: o.settleTimeoutMs, pollMs: Math.min(500, o.gracePeriodMs) });
    await hooks.beforeCheck?.(ds);
    const services = [...lbView.listServices()].map((s) => ({ namespace: s.namespace, name: s.name, ingressIPs: [...s.ingressIPs] }));
    const pods = cluster.livePods().map(({ node, pod }) => ({ namespace: pod.namespace, name: pod.name, nodeName: node.name, phase: "Running", ips: pod.ips }));
    const check = await finalCheck({ datastore: ds, clock: systemClock, cluster: { pods, services }, goneHandles: cluster.goneHandles, sequence: sequence.tracker });
    check.violations.unshift(...settled.left.map((l) => `GC did not settle (timeout ${o.settleTimeoutMs} ms): ${l}`));
    if (stats.failures > 0) check.violations.unshift(`${stats.failures} CNI call(s) failed; first: ${stats.firstFailure ?? ""}`);
    const showStart = performance.now();
    const show = await ipamShow({ datastore: ds, clock: systemClock }, {});
    const utilizationMs = performance.now() - showStart;
    const heatmaps = await collectHeatmaps(ds);
    return {
      options: o,
      durationMs: Date.now() - started,
      churnMs,
      stats,
      allocationsPerSecond: churnMs > 0 ? stats.adds * 1e3 / churnMs : 0,
      latency: { add: recorder.summary("add"), del: recorder.summary("del") },
      roundTripsPerAdd: o.spawn || stats.adds === 0 ? void 0 : stats.addRoundTrips / stats.adds,
      nodesDeleted: cluster.deletedNodes.size,
      servicesCreated: o.services,
      servicesDeleted,
      tunnelAddresses,
      settleMs: settled.ms,
      utilizationMs,
      showTable: renderShow(show),
      check,
      heatmaps,
      samples: recorder.samples
    };
  } catch (err) {
    throw err instanceof SimStepError ? err : new SimStepError("run", err instanceof Error ? err.message : String(err), { cause: err });
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => void 0);
    await backend.close().catch(() => void 0);
    rmSync2(dir, { recursive: true, force: true });
  }
}

// src/run/render-summary.ts
var ms = (v) => `${v.toFixed(1)}ms`;
function renderSummary(r) {
  const o = r.options;
  const lines = [
    `ipamkit-sim run: ${o.nodes} nodes, ${o.pods} pods x churn ${o.churn} on ${o.datastore}${o.spawn ? " (calico-ipam bin per call)" : ""} in ${(r.durationMs / 1e3).toFixed(1)}s`,
    `  operations      ${r.stats.adds} ADD, ${r.stats.dels} DEL, ${r.stats.lostDeletes} lost DEL (left to the GC), ${r.stats.failures} failed`,
    `  cluster         ${r.tunnelAddresses} tunnel addresses, ${r.servicesCreated} LoadBalancer Services (${r.servicesDeleted} deleted), ${r.nodesDeleted} nodes deleted`,
    `  allocations/s   ${r.allocationsPerSecond.toFixed(1)} (churn phase ${(r.churnMs / 1e3).toFixed(1)}s)`,
    `  ADD latency     p50 ${ms(r.latency.add.p50)}  p90 ${ms(r.latency.add.p90)}  p99 ${ms(r.latency.add.p99)}  max ${ms(r.latency.add.max)}`,
    `  DEL latency     p50 ${ms(r.latency.del.p50)}  p90 ${ms(r.latency.del.p90)}  p99 ${ms(r.latency.del.p99)}  max ${ms(r.latency.del.max)}`,
    `  round trips/ADD ${r.roundTripsPerAdd === void 0 ? "n/a (spawned bin)" : r.roundTripsPerAdd.toFixed(2)}`,
    `  GC settled in   ${ms(r.settleMs)}`,
    "",
    "ipam show:",
    r.showTable.trimEnd(),
    "",
    `ipam check: ${r.check.allocations} allocations, ${r.check.leaks} leaked, ${r.check.duplicates} duplicated, ${r.check.check.problems} problem(s)`
  ];
  if (r.check.violations.length === 0) lines.push("RESULT: OK \u2014 no leak, no duplicate, every invariant holds");
  else lines.push(`RESULT: FAILED \u2014 ${r.check.violations.length} violation(s):`, ...r.check.violations.map((v) => `  - ${v}`));
  return `${lines.join("\n")}
`;
}

// src/report/escape-html.ts
var ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

// src/report/heatmap-svg.ts
var USE_COLOURS = ["#dbe9f6", "#ffffb2", "#fecc5c", "#fd8d3c", "#f03b20", "#bd0026"];
function useColour(used, size) {
  if (used <= 0 || size <= 0) return USE_COLOURS[0];
  const step = Math.min(5, 1 + Math.floor(used / size * 5));
  return USE_COLOURS[step] ?? USE_COLOURS[5];
}
var COLUMNS = 6;
var CELL_W = 188;
var CELL_H = 40;
var GAP = 4;
function label(owner) {
  if (owner === "") return "(no affinity)";
  return owner.startsWith("host:") ? owner.slice("host:".length) : owner;
}
function heatmapSvg(map) {
  if (map.cells.length === 0) return '<p class="empty">no blocks claimed</p>';
  const rows = Math.ceil(map.cells.length / COLUMNS);
  const width = COLUMNS * (CELL_W + GAP);
  const height = rows * (CELL_H + GAP);
  const cells = map.cells.map((c, i) => {
    const x = i % COLUMNS * (CELL_W + GAP);
    const y = Math.floor(i / COLUMNS) * (CELL_H + GAP);
    const fill = useColour(c.used, c.size);
    const dark = c.used / Math.max(1, c.size) > 0.6;
    const text = dark ? "#ffffff" : "#1a1a1a";
    return `<g class="cell"><title>${escapeHtml(`${c.cidr} \u2014 ${c.used}/${c.size} used \u2014 ${c.owner || "no affinity"}`)}</title><rect x="${x}" y="${y}" width="${CELL_W}" height="${CELL_H}" rx="3" fill="${fill}"/><text x="${x + 6}" y="${y + 16}" fill="${text}" font-size="12">${escapeHtml(label(c.owner))}</text><text x="${x + 6}" y="${y + 32}" fill="${text}" font-size="11">${escapeHtml(c.cidr)} ${c.used}/${c.size}</text></g>`;
  });
  return `<svg class="heatmap" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${cells.join("")}</svg>`;
}

// src/report/latency-svg.ts
var W = 900;
var H = 320;
var PAD = { left: 56, right: 16, top: 16, bottom: 36 };
var BUCKETS = 40;
var MAX_DOTS = 3e3;
var LINE_COLOURS = { p50: "#1f77b4", p90: "#ff7f0e", p99: "#d62728" };
function latencySvg(samples) {
  if (samples.length === 0) return '<p class="empty">no operations recorded</p>';
  const tMax = Math.max(...samples.map((s) => s.atMs), 1);
  const buckets = Array.from({ length: BUCKETS }, () => []);
  for (const s of samples) buckets[Math.min(BUCKETS - 1, Math.floor(s.atMs / tMax * BUCKETS))]?.push(s.ms);
  const stats = buckets.map((b) => {
    const sorted = [...b].sort((x2, y2) => x2 - y2);
    return sorted.length === 0 ? void 0 : { p50: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), p99: quantile(sorted, 0.99) };
  });
  const yMax = Math.max(1, ...stats.map((s) => s?.p99 ?? 0)) * 1.15;
  const x = (t) => PAD.left + t / tMax * (W - PAD.left - PAD.right);
  const y = (ms3) => PAD.top + (1 - Math.min(ms3, yMax) / yMax) * (H - PAD.top - PAD.bottom);
  const step = Math.max(1, Math.ceil(samples.length / MAX_DOTS));
  const dots = samples.filter((_, i) => i % step === 0).map((s) => `<circle cx="${x(s.atMs).toFixed(1)}" cy="${y(s.ms).toFixed(1)}" r="1.5" fill="${s.op === "add" ? "#7f7f7f" : "#17becf"}" fill-opacity="0.35"/>`).join("");
  const line = (key) => {
    const points = stats.flatMap((s, i) => s === void 0 ? [] : [`${x((i + 0.5) / BUCKETS * tMax).toFixed(1)},${y(s[key]).toFixed(1)}`]);
    return `<polyline points="${points.join(" ")}" fill="none" stroke="${LINE_COLOURS[key]}" stroke-width="2"/>`;
  };
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const ms3 = f * yMax;
    return `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(ms3)}" y2="${y(ms3)}" stroke="#eee"/><text x="${PAD.left - 6}" y="${y(ms3) + 4}" text-anchor="end" font-size="11">${ms3.toFixed(ms3 < 10 ? 1 : 0)} ms</text>`;
  }).join("");
  const axis = `<text x="${W / 2}" y="${H - 8}" text-anchor="middle" font-size="12">time since start (${(tMax / 1e3).toFixed(1)} s total)</text>`;
  const legend = ["p50", "p90", "p99"].map((k, i) => `<rect x="${W - 220 + i * 70}" y="${PAD.top}" width="12" height="12" fill="${LINE_COLOURS[k]}"/><text x="${W - 204 + i * 70}" y="${PAD.top + 11}" font-size="12">${k}</text>`).join("");
  return `<svg class="latency" xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${ticks}${dots}${line("p50")}${line("p90")}${line("p99")}${axis}${legend}</svg>`;
}

// src/report/render-report.ts
var STYLE = `body{font-family:system-ui,sans-serif;margin:24px;color:#1a1a1a;background:#fff}
h1{font-size:22px}h2{font-size:18px;margin-top:28px}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;font-size:13px}
.ok{color:#1a7f37;font-weight:bold}.bad{color:#c62828;font-weight:bold}
.legend span{display:inline-block;width:18px;height:12px;margin:0 4px 0 10px;vertical-align:middle}
pre{background:#f6f8fa;padding:8px;font-size:12px;overflow:auto}.empty{color:#777}`;
var ms2 = (v) => `${v.toFixed(1)} ms`;
function renderReport(r) {
  const verdict = r.check.violations.length === 0 ? '<p class="ok">ipam check: no leak, no duplicate, every invariant holds</p>' : `<p class="bad">${r.check.violations.length} violation(s)</p><pre>${escapeHtml(r.check.violations.join("\n"))}</pre>`;
  const rows = [
    ["datastore", r.options.datastore + (r.options.spawn ? " (calico-ipam bin per call)" : " (runCni in-process)")],
    ["nodes / deleted", `${r.options.nodes} / ${r.nodesDeleted}`],
    ["CNI ADD / DEL / lost DEL / failed", `${r.stats.adds} / ${r.stats.dels} / ${r.stats.lostDeletes} / ${r.stats.failures}`],
    ["allocations per second", r.allocationsPerSecond.toFixed(1)],
    ["ADD latency p50 / p90 / p99", `${ms2(r.latency.add.p50)} / ${ms2(r.latency.add.p90)} / ${ms2(r.latency.add.p99)}`],
    ["DEL latency p50 / p90 / p99", `${ms2(r.latency.del.p50)} / ${ms2(r.latency.del.p90)} / ${ms2(r.latency.del.p99)}`],
    ["datastore round trips per ADD", r.roundTripsPerAdd === void 0 ? "n/a" : r.roundTripsPerAdd.toFixed(2)],
    ["allocations at the end", String(r.check.allocations)],
    ["GC settle time", ms2(r.settleMs)]
  ];
  const legend = USE_COLOURS.map((c, i) => `<span style="background:${c}"></span>${i === 0 ? "empty" : `\u2264 ${i * 20}%`}`).join("");
  const pools = r.heatmaps.map((m) => `<h3>${escapeHtml(m.pool)} <small>${escapeHtml(m.cidr)} \u2014 ${m.cells.length} of ${m.possibleBlocks} blocks claimed</small></h3>${heatmapSvg(m)}`).join("");
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>ipamkit-sim report</title><style>${STYLE}</style></head><body>
<h1>ipamkit-sim run</h1>${verdict}
<table>${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join("")}</table>
<h2>Blocks per pool</h2><p class="legend">use:${legend}</p>${pools}
<h2>Latency over time</h2><p>dots: single CNI calls (grey ADD, teal DEL); lines: per-interval percentiles</p>${latencySvg(r.samples)}
<h2>ipam show</h2><pre>${escapeHtml(r.showTable)}</pre>
</body></html>
`;
}

// src/hammer/run-hammer.ts
import { existsSync as existsSync2, mkdtempSync as mkdtempSync3, rmSync as rmSync3 } from "fs";
import { tmpdir as tmpdir3 } from "os";
import { dirname as dirname2, join as join5 } from "path";
import { fileURLToPath } from "url";
import { GcController as GcController2 } from "@ipamkit/gc";
import { systemClock as systemClock2 } from "@ipamkit/ipam-core";
import { createDatastore as createDatastore2 } from "@ipamkit/ipam-datastore";

// src/hammer/allocator-process.ts
import { fork } from "child_process";

// src/hammer/hammer-protocol.ts
var WORKER_ENV = "IPAMKIT_HAMMER_WORKER";
var READY = "ready";

// src/hammer/allocator-process.ts
var AllocatorProcess = class _AllocatorProcess {
  constructor(child) {
    this.child = child;
    this.exit = new Promise((resolve) => {
      child.once("exit", () => {
        this.exited = true;
        for (const resolveCall of this.waiting.values()) resolveCall({ killed: true });
        this.waiting.clear();
        resolve();
      });
    });
    child.on("error", () => void 0);
    child.on("message", (msg) => {
      if (typeof msg === "string") return;
      this.waiting.get(msg.id)?.(msg);
      this.waiting.delete(msg.id);
    });
  }
  child;
  waiting = /* @__PURE__ */ new Map();
  nextId = 1;
  exited = false;
  exit;
  /** Forks the worker and waits until it has opened the datastore. */
  static async start(workerPath, config, timeoutMs = 6e4) {
    const child = fork(workerPath, [], { env: { ...process.env, [WORKER_ENV]: JSON.stringify(config) }, stdio: ["ignore", "ignore", "inherit", "ipc"] });
    const proc = new _AllocatorProcess(child);
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new SimStepError("allocator", `allocator process did not start within ${timeoutMs} ms`));
      }, timeoutMs);
      child.on("message", (msg) => {
        if (msg !== READY) return;
        clearTimeout(timer);
        resolve();
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new SimStepError("allocator", `allocator process exited with code ${String(code)} while starting`));
      });
    });
    return proc;
  }
  get pid() {
    return this.child.pid ?? -1;
  }
  call(req) {
    if (this.exited) return Promise.resolve({ killed: true });
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.send({ ...req, id }, (err) => {
        if (err === null) return;
        this.waiting.delete(id);
        resolve({ killed: true });
      });
    });
  }
  /** SIGKILL, mid-operation if one is running; resolves once the process is gone. */
  async kill() {
    if (!this.exited) this.child.kill("SIGKILL");
    await this.exit;
  }
  /** Lets the worker close its datastore and exit; kills it if it does not within the timeout. */
  async stop(timeoutMs = 1e4) {
    if (this.exited) return;
    this.child.disconnect();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), timeoutMs);
    await this.exit;
    clearTimeout(timer);
  }
};

// src/hammer/hammer-options.ts
var HAMMER_DEFAULTS = {
  processes: 16,
  ops: 1e5,
  killRate: 0.01,
  datastore: "sqlite",
  restartEtcd: false,
  podsPerProcess: 8,
  gracePeriodMs: 1e3,
  settleTimeoutMs: 12e4,
  seed: 1
};
function resolveHammerOptions(partial) {
  const o = { ...HAMMER_DEFAULTS, ...partial };
  const int = (name, v, min, max) => {
    if (!Number.isInteger(v) || v < min || v > max) throw new SimConfigError(`--${name} must be an integer from ${min} to ${max}, got ${v}`);
  };
  int("processes", o.processes, 1, 256);
  int("ops", o.ops, 1, 1e8);
  int("pods-per-process", o.podsPerProcess, 1, 60);
  int("seed", o.seed, 0, 2 ** 31);
  if (!Number.isFinite(o.killRate) || o.killRate < 0 || o.killRate > 0.5) throw new SimConfigError(`--kill-rate must be between 0 and 0.5, got ${o.killRate}`);
  const datastore = o.datastore;
  if (datastore !== "sqlite" && datastore !== "etcd") throw new SimConfigError(`--datastore must be sqlite or etcd, got ${datastore}`);
  if (o.restartEtcd && o.datastore !== "etcd") throw new SimConfigError("--restart-etcd needs --datastore etcd");
  if (!Number.isFinite(o.gracePeriodMs) || o.gracePeriodMs < 100) throw new SimConfigError(`--grace-ms must be at least 100, got ${o.gracePeriodMs}`);
  return o;
}

// src/hammer/run-hammer.ts
function hammerWorkerPath() {
  const here = dirname2(fileURLToPath(import.meta.url));
  const candidates = [join5(here, "hammer-worker.js"), join5(here, "..", "..", "dist", "hammer-worker.js")];
  const found = candidates.find((p) => existsSync2(p));
  if (found === void 0) throw new SimStepError("hammer", `hammer-worker.js not found (looked in ${candidates.join(", ")}): build @ipamkit/sim first`);
  return found;
}
var START_ATTEMPTS = 4;
var POOL = { name: "hammer-v4", cidr: "10.200.0.0/16", blockSize: 26 };
async function runHammer(partial = {}, progress) {
  const o = resolveHammerOptions(partial);
  const workerPath = hammerWorkerPath();
  const started = Date.now();
  const dir = mkdtempSync3(join5(tmpdir3(), "ipamkit-hammer-"));
  let etcd;
  const cleanups = [async () => Promise.resolve(rmSync3(dir, { recursive: true, force: true }))];
  const procs = [];
  try {
    let config;
    let confKeys;
    if (o.datastore === "etcd") {
      const e = await startLocalEtcd();
      etcd = e;
      cleanups.push(() => e.stop());
      config = { type: "etcd", endpoints: [e.endpoint], prefix: "/hammer" };
      confKeys = { datastore_type: "etcdv3", etcd_endpoints: e.endpoint, etcd_prefix: "/hammer" };
    } else {
      const path = join5(dir, "ipam.db");
      config = { type: "sqlite", path };
      confKeys = { datastore_type: "sqlite", sqlite_path: path };
    }
    const ds = await createDatastore2(config);
    cleanups.push(() => ds.close());
    const cluster = new SimCluster(o.processes, o.processes * o.podsPerProcess, 1, dir);
    await ds.ipPools.create(POOL);
    for (const node of cluster.nodes) await ds.nodes.create({ name: node.name, labels: node.labels });
    const sequence = new SequenceMonitor(ds);
    await sequence.start();
    cleanups.push(() => sequence.stop());
    const gc = new GcController2({ datastore: ds, view: cluster.view, leakGracePeriodMs: o.gracePeriodMs, nodeSource: "cluster-view", deleteNodes: false, batchWaitMs: 100 });
    await gc.start();
    cleanups.push(() => gc.stop());
    const workerConfig = (node) => ({ datastore: config, netConf: netConfFor(node, { ...confKeys, ipam: { type: "calico-ipam", assign_ipv4: "true" } }) });
    const startAllocator = async (node) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await AllocatorProcess.start(workerPath, workerConfig(node));
        } catch (err) {
          if (attempt >= START_ATTEMPTS || aborted) throw err;
          await new Promise((r) => setTimeout(r, 2e3 * attempt));
        }
      }
    };
    let aborted = false;
    for (const node of cluster.nodes) procs.push(await startAllocator(node));
    const random = seededRandom(o.seed);
    const bar = new ProgressBar(progress, o.ops, "hammer");
    let issued = 0;
    let adds = 0;
    let dels = 0;
    let kills = 0;
    let failures = 0;
    let etcdRestarts = 0;
    let restart;
    const drive = async (index, node) => {
      while (issued < o.ops && !aborted) {
        issued += 1;
        if (o.restartEtcd && etcd !== void 0 && restart === void 0 && issued >= o.ops / 2) {
          const e = etcd;
          restart = e.restart().then(() => {
            etcdRestarts += 1;
          });
        }
        const proc = procs[index];
        if (proc === void 0) return;
        const live = node.slots.filter((s) => s.live !== void 0);
        const free = node.slots.filter((s) => s.live === void 0);
        const doAdd = free.length > 0 && (live.length === 0 || random() < 0.55);
        const slot = (doAdd ? free : live)[Math.floor(random() * (doAdd ? free : live).length)];
        if (slot === void 0) continue;
        const pod = doAdd ? cluster.newPod(node, slot) : slot.live;
        if (pod === void 0) continue;
        if (!doAdd) {
          slot.live = void 0;
          cluster.podGone(pod);
        }
        const killNow = random() < o.killRate;
        if (killNow) setTimeout(() => void proc.kill(), Math.floor(random() * 4));
        const out = await proc.call({ command: doAdd ? "ADD" : "DEL", containerId: pod.containerId, namespace: pod.namespace, pod: pod.name });
        if ("killed" in out) {
          kills += 1;
          if (doAdd) cluster.podGone(pod);
          for (const s of node.slots) {
            if (s.live !== void 0) cluster.podGone(s.live);
            s.live = void 0;
          }
          procs[index] = await startAllocator(node);
        } else if (doAdd) {
          adds += 1;
          if (out.exitCode === 0) {
            slot.live = pod;
            cluster.podRunning(node, pod, resultAddresses(out.stdout));
          } else {
            failures += 1;
            cluster.podGone(pod);
          }
        } else {
          dels += 1;
          if (out.exitCode !== 0) failures += 1;
        }
        bar.update(issued, `${kills} kills, ${failures} failed`);
      }
    };
    const driven = await Promise.allSettled(
      cluster.nodes.map(
        (node, i) => drive(i, node).catch((err) => {
          aborted = true;
          throw err;
        })
      )
    );
    const failed = driven.find((d) => d.status === "rejected");
    if (failed !== void 0) throw failed.reason;
    await restart;
    bar.done();
    const opsMs = Date.now() - started;
    await Promise.all(procs.map((p) => p?.stop() ?? Promise.resolve()));
    const settled = await settle({ ds, gc, target: cluster, timeoutMs: o.settleTimeoutMs, pollMs: Math.min(500, o.gracePeriodMs) });
    const pods = cluster.livePods().map(({ node, pod }) => ({ namespace: pod.namespace, name: pod.name, nodeName: node.name, phase: "Running", ips: pod.ips }));
    const check = await finalCheck({ datastore: ds, clock: systemClock2, cluster: { pods, services: [] }, goneHandles: cluster.goneHandles, sequence: sequence.tracker });
    const violations = [...settled.left.map((l) => `not released within ${o.settleTimeoutMs} ms of the last operation: ${l}`), ...check.violations];
    return {
      options: o,
      durationMs: Date.now() - started,
      opsPerSecond: issued * 1e3 / Math.max(1, opsMs),
      adds,
      dels,
      kills,
      failures,
      etcdRestarts,
      watchRestarts: sequence.restarts,
      sequenceObservations: sequence.tracker.observed,
      settleMs: settled.ms,
      allocationsAtEnd: check.allocations,
      violations: [...new Set(violations)]
    };
  } finally {
    await Promise.all(procs.map((p) => p?.kill() ?? Promise.resolve()));
    for (const c of cleanups.reverse()) await c().catch(() => void 0);
  }
}

// src/hammer/render-hammer.ts
function renderHammer(r) {
  const o = r.options;
  const has = (word) => r.violations.some((v) => v.includes(word));
  const verdict = (ok) => ok ? "ok  " : "FAIL";
  const lines = [
    `ipamkit-sim hammer: ${o.processes} processes, ${o.ops} operations, kill rate ${o.killRate}, ${o.datastore}${o.restartEtcd ? " with one etcd restart" : ""}`,
    `  ran in ${(r.durationMs / 1e3).toFixed(1)}s: ${r.adds} ADD, ${r.dels} DEL, ${r.kills} SIGKILLs, ${r.failures} failed calls, ${r.opsPerSecond.toFixed(0)} ops/s`,
    `  etcd restarts ${r.etcdRestarts}, block watch restarts ${r.watchRestarts}, ${r.sequenceObservations} block versions observed`,
    `  GC settled ${(r.settleMs / 1e3).toFixed(1)}s after the last operation; ${r.allocationsAtEnd} allocations left (live pods)`,
    "checks (spec/hammer.md Part B):",
    `  ${verdict(!has("duplicate"))} no address held by two handles`,
    `  ${verdict(!has("counts") && !has("does not exist"))} every handle count equals its block allocations`,
    `  ${verdict(!has("still allocated") && !has("not released"))} every allocation of a killed process or deleted pod released by the GC`,
    `  ${verdict(!has("pending affinity"))} no pending affinity left behind`,
    `  ${verdict(!has("sequence number went back"))} block sequence numbers only increase`,
    `  ${verdict(!has("malformed") && !has("ipam check"))} every block well-formed; ipam check clean`
  ];
  if (r.violations.length === 0) lines.push("RESULT: OK");
  else lines.push(`RESULT: FAILED \u2014 ${r.violations.length} violation(s):`, ...r.violations.slice(0, 50).map((v) => `  - ${v}`));
  if (r.violations.length > 50) lines.push(`  \u2026 and ${r.violations.length - 50} more`);
  return `${lines.join("\n")}
`;
}

// src/cli/main.ts
import { IpamError as IpamError2 } from "@ipamkit/models";

// src/cli/hammer-command.ts
import { writeFileSync } from "fs";

// src/cli/parse-flags.ts
import { parseArgs } from "util";
function parseFlags(args, spec) {
  try {
    const { values } = parseArgs({ args: [...args], options: spec, strict: true, allowPositionals: false });
    return values;
  } catch (err) {
    throw new SimConfigError(err instanceof Error ? err.message : String(err));
  }
}
function numberFlag(values, name) {
  const v = values[name];
  if (v === void 0 || typeof v === "boolean") return void 0;
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n)) throw new SimConfigError(`--${name} must be a number, got ${JSON.stringify(v)}`);
  return n;
}
function stringFlag(values, name) {
  const v = values[name];
  return typeof v === "string" ? v : void 0;
}

// src/cli/hammer-command.ts
var SPEC = {
  processes: { type: "string" },
  ops: { type: "string" },
  "kill-rate": { type: "string" },
  datastore: { type: "string" },
  "restart-etcd": { type: "boolean" },
  "pods-per-process": { type: "string" },
  "grace-ms": { type: "string" },
  seed: { type: "string" },
  json: { type: "string" }
};
async function hammerCommand(args, io) {
  const f = parseFlags(args, SPEC);
  const restart = f["restart-etcd"] === true;
  const partial = {
    processes: numberFlag(f, "processes"),
    ops: numberFlag(f, "ops"),
    killRate: numberFlag(f, "kill-rate"),
    datastore: stringFlag(f, "datastore") ?? (restart ? "etcd" : void 0),
    restartEtcd: restart ? true : void 0,
    podsPerProcess: numberFlag(f, "pods-per-process"),
    gracePeriodMs: numberFlag(f, "grace-ms"),
    seed: numberFlag(f, "seed")
  };
  const options = Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== void 0));
  const result = await runHammer(options, io.stderr);
  io.stdout.write(renderHammer(result));
  const json = stringFlag(f, "json");
  if (json !== void 0) writeFileSync(json, `${JSON.stringify(result, null, 2)}
`);
  return result.violations.length === 0 ? 0 : 1;
}

// src/cli/run-command.ts
import { writeFileSync as writeFileSync2 } from "fs";
var SPEC2 = {
  nodes: { type: "string" },
  pods: { type: "string" },
  churn: { type: "string" },
  datastore: { type: "string" },
  "sqlite-path": { type: "string" },
  "etcd-endpoints": { type: "string" },
  spawn: { type: "boolean" },
  services: { type: "string" },
  "grace-ms": { type: "string" },
  seed: { type: "string" },
  report: { type: "string" }
};
async function runCommand(args, io) {
  const f = parseFlags(args, SPEC2);
  const partial = {
    nodes: numberFlag(f, "nodes"),
    pods: numberFlag(f, "pods"),
    churn: numberFlag(f, "churn"),
    datastore: stringFlag(f, "datastore"),
    sqlitePath: stringFlag(f, "sqlite-path"),
    etcdEndpoints: stringFlag(f, "etcd-endpoints")?.split(","),
    spawn: f["spawn"] === true ? true : void 0,
    services: numberFlag(f, "services"),
    gracePeriodMs: numberFlag(f, "grace-ms"),
    seed: numberFlag(f, "seed"),
    reportPath: stringFlag(f, "report")
  };
  const options = Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== void 0));
  const result = await runSim(options, { progress: io.stderr });
  io.stdout.write(renderSummary(result));
  if (options.reportPath !== void 0) {
    writeFileSync2(options.reportPath, renderReport(result));
    io.stdout.write(`report written to ${options.reportPath}
`);
  }
  return result.check.violations.length === 0 ? 0 : 1;
}

// src/cli/main.ts
var USAGE = `usage:
  ipamkit-sim run [--nodes 50] [--pods 2000] [--churn 3] [--datastore sqlite|etcd] [--spawn]
                  [--services 20] [--grace-ms 2000] [--seed 1] [--sqlite-path FILE]
                  [--etcd-endpoints URL,...] [--report out.html]
  ipamkit-sim hammer [--processes 16] [--ops 100000] [--kill-rate 0.01] [--datastore sqlite|etcd]
                  [--restart-etcd] [--grace-ms 1000] [--seed 1] [--json out.json]
`;
async function main(argv, io) {
  const [command, ...rest] = argv;
  try {
    if (command === "run") return await runCommand(rest, io);
    if (command === "hammer") return await hammerCommand(rest, io);
    if (command === void 0 || command === "help" || command === "--help" || command === "-h") {
      io.stdout.write(USAGE);
      return command === void 0 ? 2 : 0;
    }
    io.stderr.write(`unknown command ${JSON.stringify(command)}
${USAGE}`);
    return 2;
  } catch (err) {
    const kind = err instanceof IpamError2 ? err.name : "error";
    io.stderr.write(`ipamkit-sim: ${kind}: ${err instanceof Error ? err.message : String(err)}
`);
    return err instanceof IpamError2 && err.category === "validation" ? 2 : 1;
  }
}
export {
  HAMMER_DEFAULTS,
  InvariantViolationError,
  LatencyRecorder,
  RUN_DEFAULTS,
  RoundTripCounter,
  SIM_POOLS,
  SequenceTracker,
  SimConfigError,
  SimStepError,
  USAGE,
  USE_COLOURS,
  allocatedAddresses,
  collectHeatmaps,
  countingDatastore,
  duplicateAddressViolations,
  finalCheck,
  hammerWorkerPath,
  handleCountViolations,
  main,
  orphanViolations,
  pendingAffinityViolations,
  quantile,
  renderHammer,
  renderReport,
  renderSummary,
  resolveHammerOptions,
  resolveRunOptions,
  runHammer,
  runSim,
  seededRandom,
  startLocalEtcd,
  summarize,
  useColour
};
//# sourceMappingURL=index.js.map