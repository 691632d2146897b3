import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatastore } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import { startKubeApiServer, withEtcd, type KubeApiServer } from '@ipamkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etcdBackend, seed, sqliteBackend, type TestBackend } from './helpers/backend.js';
import { cniEnv, netConf } from './helpers/cni-call.js';
import { assertBinBuilt, BIN, pluginEnv, spawnCollect } from './helpers/spawn-bin.js';

const RECORDER = fileURLToPath(new URL('./helpers/record-modules.cjs', import.meta.url));
const CRD_DIR = fileURLToPath(new URL('../../ipam-datastore/manifests/crds', import.meta.url));

/** The libraries a plugin call must not load (issue 16): the heavy Kubernetes and gRPC clients. */
const HEAVY = ['@kubernetes/client-node', '@grpc/grpc-js', 'protobufjs'];

/**
 * Node's own modules a call has no use for, which cost milliseconds to load: `node:cluster`, with
 * child_process and dgram, comes with `net.Server#listen` (design/cni.md, "Start-up cost").
 */
const NEEDLESS_BUILTINS = ['node:cluster', 'node:child_process', 'node:dgram'];

/**
 * What a call over plain TCP (an etcd or API server at an IP address, no TLS) does without: the
 * small HTTP/1.1 client speaks over libuv's TCP handle (design/ipam-datastore.md, "A small HTTP/1.1
 * client"), the hostname-hash label is hashed in JavaScript, and `node:os` is only read lazily.
 */
const PLAIN_NETWORK_NEEDLESS = ['node:net', 'node:http', 'node:https', 'node:tls', 'node:crypto', 'node:os', 'node:stream', 'node:timers/promises'];

/** Which of `names` a list of loaded modules contains. */
function loadedOf(modules: readonly string[], names: readonly string[]): string[] {
  return names.filter((name) => modules.includes(name));
}

/** How many WHATWG URL / URLSearchParams objects the bundle constructed, from the recorder's `url:<n>` line. */
function urlsConstructed(modules: readonly string[]): number {
  const line = modules.find((m) => m.startsWith('url:'));
  if (line === undefined) throw new Error('the module recorder wrote no url: line');
  return Number(line.slice('url:'.length));
}

/** How many calls of Date's time-zone methods the process made, from the recorder's `tz:<n>` line. */
function timeZoneCalls(modules: readonly string[]): number {
  const line = modules.find((m) => m.startsWith('tz:'));
  if (line === undefined) throw new Error('the module recorder wrote no tz: line');
  return Number(line.slice('tz:'.length));
}

/** The regular expressions the call ran (source and flags), from the recorder's `re:` lines. */
function expressionsRun(modules: readonly string[]): string[] {
  return modules.filter((m) => m.startsWith('re:')).map((m) => m.slice('re:'.length));
}

/** The Node timers the bundle armed, `name:count`, from the recorder's `timer:` lines. */
function timersArmed(modules: readonly string[]): string[] {
  return modules.filter((m) => m.startsWith('timer:')).map((m) => m.slice('timer:'.length)).sort();
}

/** The SQL statements the call prepared, from the recorder's `sql:<JSON>` lines. */
function preparedStatements(modules: readonly string[]): string[] {
  return modules.filter((m) => m.startsWith('sql:')).map((m) => JSON.parse(m.slice('sql:'.length)) as string);
}

/** Which of HEAVY a list of loaded module paths (or bare requests) contains. */
function heavyLoaded(modules: readonly string[]): string[] {
  return HEAVY.filter((name) => modules.some((m) => m === name || m.includes(`/node_modules/${name}/`)));
}

/** One ADD through the .cjs bundle with the module recorder preloaded; the modules it loaded. */
async function addRecordingModules(dir: string, conf: Record<string, unknown>, args?: string, options: { withoutHome?: boolean } = {}): Promise<string[]> {
  const log = join(dir, 'modules.txt');
  const env = pluginEnv({ ...cniEnv({ command: 'ADD', containerId: options.withoutHome === true ? 'graph-2' : 'graph-1', ...(args === undefined ? {} : { args }) }), IPAMKIT_MODULE_LOG: log });
  // A runtime started by systemd often has no HOME.
  if (options.withoutHome === true) delete env.HOME;
  const r = await spawnCollect(process.execPath, ['--require', RECORDER, BIN], env, JSON.stringify(conf));
  expect({ code: r.code, stdout: r.stdout }).toMatchObject({ code: 0, stdout: expect.stringContaining('"ips"') as string });
  return readFileSync(log, 'utf8').split('\n');
}

describe('the module graph of one ADD (the .cjs bundle)', () => {
  beforeAll(() => {
    assertBinBuilt();
  });

  it('has no AsyncLocalStorage, whose promise hooks slow every await (Node loads async_hooks itself, so the bundle is read)', () => {
    expect(readFileSync(BIN, 'utf8')).not.toMatch(/async_hooks|AsyncLocalStorage/);
  });

  describe('on SQLite', () => {
    let b: TestBackend;
    beforeAll(async () => {
      b = await sqliteBackend();
      await seed(b.ds);
    });
    afterAll(async () => {
      await b.close();
    });

    it('loads better-sqlite3 and none of the Kubernetes or gRPC clients', async () => {
      const modules = await addRecordingModules(b.dir, netConf(b.confKeys));
      expect(modules.some((m) => m.includes('/node_modules/better-sqlite3/'))).toBe(true);
      // One allocation per call: no assignment-context cache, so no stamps of what it read
      // (design/cni.md, "Start-up cost": "No context cache").
      const statements = preparedStatements(modules);
      expect(statements.some((sql) => sql.startsWith('INSERT INTO changes'))).toBe(true);
      expect(statements.filter((sql) => /count\(\*\)/i.test(sql))).toEqual([]);
      expect(heavyLoaded(modules)).toEqual([]);
      // No network client, and the uncontended host lock listens without node:net.
      expect(loadedOf(modules, [...NEEDLESS_BUILTINS, ...PLAIN_NETWORK_NEEDLESS])).toEqual([]);
      expect(urlsConstructed(modules)).toBe(0);
      // Timestamps are written from the UTC fields: no time zone set up (design/models.md, "ISO time without the time zone").
      expect(timeZoneCalls(modules)).toBe(0);
      // Each regular expression costs a fresh process its compilation: addresses, names, etcd keys,
      // kubeconfig lines, credentials and most of the HTTP head are read by hand (design/cni.md,
      // "Start-up cost"). A budget, not a list: 9 before on SQLite.
      expect(expressionsRun(modules).length).toBeLessThanOrEqual(4);
      // Deadlines and request timeouts are alarms (design/cni.md, "Deadline").
      expect(timersArmed(modules)).toEqual([]);
    });

    it('without HOME, does not load node:os to find a ~/.kube/config it never reads (design/cni.md, "Redaction")', async () => {
      const modules = await addRecordingModules(b.dir, netConf(b.confKeys), undefined, { withoutHome: true });
      expect(loadedOf(modules, ['node:os'])).toEqual([]);
    });
  });

  describe('on a plain etcd', () => {
    const etcd = withEtcd();
    let b: TestBackend;
    beforeAll(async () => {
      b = await etcdBackend(etcd.endpoint);
      await seed(b.ds);
    });
    afterAll(async () => {
      await b.close();
    });

    it('loads none of the Kubernetes or gRPC clients, and no node:http, node:net, TLS or crypto', async () => {
      const modules = await addRecordingModules(b.dir, netConf(b.confKeys));
      expect(heavyLoaded(modules)).toEqual([]);
      expect(loadedOf(modules, [...NEEDLESS_BUILTINS, ...PLAIN_NETWORK_NEEDLESS])).toEqual([]);
      // Endpoints and request targets are split by hand (design/ipam-datastore.md, "A small HTTP/1.1 client").
      expect(urlsConstructed(modules)).toBe(0);
      // Timestamps are written from the UTC fields: no time zone set up (design/models.md, "ISO time without the time zone").
      expect(timeZoneCalls(modules)).toBe(0);
      // Each regular expression costs a fresh process its compilation: addresses, names, etcd keys,
      // kubeconfig lines, credentials and most of the HTTP head are read by hand (design/cni.md,
      // "Start-up cost"). A budget, not a list: 25 before on etcd.
      expect(expressionsRun(modules).length).toBeLessThanOrEqual(7);
      // Deadlines and request timeouts are alarms (design/cni.md, "Deadline"). One setImmediate: the read transaction's batching turn.
      expect(timersArmed(modules)).toEqual(['setImmediate:1']);
    });
  });

  describe('on the Kubernetes API with a token kubeconfig', () => {
    let server: KubeApiServer;
    let b: TestBackend;
    let ds: Datastore;
    let kubeconfig: string;
    beforeAll(async () => {
      server = await startKubeApiServer({ crdDirectories: [CRD_DIR] });
      b = await sqliteBackend();
      kubeconfig = server.writeKubeconfig(join(b.dir, 'kubeconfig'));
      ds = await createDatastore({ type: 'kubernetes', kubeconfig });
      await seed(ds);
      server.inject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' } });
      server.inject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'ns1' } });
    });
    afterAll(async () => {
      await ds.close();
      await server.close();
      await b.close();
    });

    it('loads none of the Kubernetes or gRPC clients', async () => {
      const conf = netConf({ datastore_type: 'kubernetes', kubernetes: { kubeconfig }, policy: { type: 'k8s' }, ipam_lock_file: join(b.dir, 'ipam.lock') });
      const modules = await addRecordingModules(b.dir, conf, 'IgnoreUnknown=1;K8S_POD_NAMESPACE=ns1;K8S_POD_NAME=web');
      expect(heavyLoaded(modules)).toEqual([]);
      // The test server speaks plain HTTP on 127.0.0.1; a TLS server would need node:tls and node:crypto.
      expect(loadedOf(modules, [...NEEDLESS_BUILTINS, ...PLAIN_NETWORK_NEEDLESS])).toEqual([]);
      // The server, each request's target and its query are written and split by hand.
      expect(urlsConstructed(modules)).toBe(0);
      // Timestamps are written from the UTC fields: no time zone set up (design/models.md, "ISO time without the time zone").
      expect(timeZoneCalls(modules)).toBe(0);
      // Each regular expression costs a fresh process its compilation: addresses, names, etcd keys,
      // kubeconfig lines, credentials and most of the HTTP head are read by hand (design/cni.md,
      // "Start-up cost"). A budget, not a list: 33 before on Kubernetes.
      expect(expressionsRun(modules).length).toBeLessThanOrEqual(10);
      // Deadlines and request timeouts are alarms (design/cni.md, "Deadline"). One setImmediate: the turn that sends the pod's reads before the lock.
      expect(timersArmed(modules)).toEqual(['setImmediate:1']);
    });
  });
});
