// One datastore per call however many callers ask, opened early only where opening writes nothing
// (design/cni.md, "Start-up cost").
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as IpamDatastore from '@ipamkit/ipam-datastore';
import { silentLogger } from '@ipamkit/models';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readCniEnv } from '../../src/config/cni-env.js';
import { parseNetConf } from '../../src/config/net-config.js';
import { Invocation } from '../../src/runtime/invocation.js';

const opened = vi.hoisted(() => ({ count: 0 }));
vi.mock('@ipamkit/ipam-datastore', async (importOriginal) => {
  const real = await importOriginal<typeof IpamDatastore>();
  return {
    ...real,
    createDatastore: (...args: Parameters<typeof real.createDatastore>) => {
      opened.count += 1;
      return real.createDatastore(...args);
    },
  };
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cni-opening-'));
  opened.count = 0;
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const KUBECONFIG = `apiVersion: v1
kind: Config
current-context: c
contexts:
- name: c
  context:
    cluster: k
    user: u
clusters:
- name: k
  cluster:
    server: http://127.0.0.1:9
users:
- name: u
  user:
    token: not-a-real-token
`;

function invocation(keys: Record<string, unknown>): Invocation {
  const conf = parseNetConf(JSON.stringify({ cniVersion: '1.0.0', name: 'net', type: 'calico', nodename: 'n1', ipam: { type: 'calico-ipam' }, ...keys }));
  const env = { CNI_COMMAND: 'ADD', CNI_CONTAINERID: 'c1', CNI_NETNS: '/proc/self/ns/net', CNI_IFNAME: 'eth0', CNI_PATH: '/usr/lib/cni' };
  const cni = readCniEnv(env);
  if (cni === undefined) throw new Error('no CNI environment');
  return new Invocation(conf, cni, env, 'n1', silentLogger, {});
}

describe('Invocation.store', () => {
  it('opens one datastore for a background opening and two callers', async () => {
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, KUBECONFIG);
    const inv = invocation({ datastore_type: 'kubernetes', kubernetes: { kubeconfig } });
    inv.openInBackground();
    const [a, b] = await Promise.all([inv.store(), inv.store()]);
    expect(a).toBe(b);
    expect(await inv.store()).toBe(a);
    expect(opened.count).toBe(1);
    await inv.close();
  });

  it('forgets a failed opening, so the next caller opens again and meets its own error', async () => {
    const kubeconfig = join(dir, 'kubeconfig');
    const inv = invocation({ datastore_type: 'kubernetes', kubernetes: { kubeconfig } });
    inv.openInBackground();
    await expect(inv.store()).rejects.toThrow(/kubeconfig/);
    writeFileSync(kubeconfig, KUBECONFIG);
    await expect(inv.store()).resolves.toBeDefined();
    expect(opened.count).toBe(2);
    await inv.close();
  });

  it('never opens SQLite in the background: the file is created only when the call needs it', async () => {
    const path = join(dir, 'sub', 'ipam.db');
    const inv = invocation({ datastore_type: 'sqlite', sqlite_path: path });
    inv.openInBackground();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(opened.count).toBe(0);
    expect(existsSync(path)).toBe(false);
    await inv.close();
  });

  it('closes a datastore whose background opening nobody awaited', async () => {
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, KUBECONFIG);
    const inv = invocation({ datastore_type: 'kubernetes', kubernetes: { kubeconfig } });
    inv.openInBackground();
    await inv.close();
    expect(opened.count).toBe(1);
  });
});
