import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Datastore } from '@ipamkit/models';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCni } from '../src/index.js';
import { cniEnv, netConf } from './helpers/cni-call.js';

// design/cni.md, "Redaction": the error JSON and every log line (stderr and log_file_path) pass
// through redactSecrets with the call's secrets. A datastore client whose raw error quotes every
// secret the call holds, in no pattern the redactor knows, is the worst case: nothing of it may come out.

const CANARY = `cnry${randomBytes(8).toString('hex')}`;
const SECRET = { etcdPassword: `${CANARY}etc`, policyToken: `${CANARY}pol`, homeToken: `${CANARY}home` };

/** A datastore whose every operation fails with a raw client error quoting the given text. */
function leakyDatastore(quoted: string): Datastore {
  const fail = (): Promise<never> => Promise.reject(new Error(`etcd client: request failed (${quoted})`));
  // Every member, at any depth, is this same failing function: ds.transact(), ds.blocks.get(), …
  const member: object = new Proxy(fail, { get: (_t, prop) => (prop === 'then' ? undefined : member) });
  const close = (): Promise<void> => Promise.resolve();
  return new Proxy({}, { get: (_t, prop) => (prop === 'close' ? close : prop === 'then' ? undefined : member) }) as Datastore;
}

let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ipamkit-cni-redact-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('CNI output redaction', () => {
  it.each(['ADD', 'DEL'])('%s: a raw client error quoting the etcd password and the policy token reaches no output', async (command) => {
    const logFile = join(dir, `${command}.log`);
    const quoted = `user root:${SECRET.etcdPassword} auth ${SECRET.policyToken}`;
    const lines: string[] = [];
    const conf = netConf({ datastore_type: 'etcdv3', etcd_endpoints: 'http://127.0.0.1:9', log_level: 'debug', log_file_path: logFile, policy: { type: 'k8s', k8s_auth_token: SECRET.policyToken } });
    const result = await runCni({
      env: cniEnv({ command, env: { ETCD_PASSWORD: SECRET.etcdPassword } }),
      stdin: JSON.stringify(conf),
      datastore: leakyDatastore(quoted),
      stderr: (line) => lines.push(line),
    });
    const stderr = lines.join('');
    const file = readFileSync(logFile, 'utf8');
    // The error did reach every output, redacted.
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('[redacted]');
    expect(stderr).toContain('[redacted]');
    expect(file).toContain('[redacted]');
    for (const text of [result.stdout, stderr, file]) expect(text).not.toContain(CANARY);
  });

  it('knows the credentials of ~/.kube/config, the kubeconfig the plugin falls back to, when none is named', async () => {
    const home = join(dir, 'home');
    mkdirSync(join(home, '.kube'), { recursive: true });
    writeFileSync(join(home, '.kube', 'config'), ['apiVersion: v1', 'kind: Config', 'users:', '- name: u', '  user:', `    token: ${SECRET.homeToken}`, ''].join('\n'), { mode: 0o600 });
    const lines: string[] = [];
    const result = await runCni({
      env: cniEnv({ command: 'DEL', env: { HOME: home } }),
      stdin: JSON.stringify(netConf({ datastore_type: 'etcdv3', etcd_endpoints: 'http://127.0.0.1:9' })),
      datastore: leakyDatastore(`bearer ${SECRET.homeToken}`),
      stderr: (line) => lines.push(line),
    });
    expect(result.stdout).toContain('[redacted]');
    for (const text of [result.stdout, lines.join('')]) expect(text).not.toContain(CANARY);
  });
});
