import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type * as NodeOs from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseNetConf } from '../../src/config/net-config.js';
import { OutputRedactor } from '../../src/runtime/output-redactor.js';
import { netConf } from '../helpers/cni-call.js';

// design/cni.md, "Redaction": without HOME, the ~/.kube/config fallback is looked up (node:os, the
// user database) only for a call that may read it: one that reaches the Kubernetes API.
const home = vi.hoisted(() => ({ dir: '', lookups: 0 }));
vi.mock('node:os', async (importOriginal) => {
  const os = await importOriginal<typeof NodeOs>();
  return {
    ...os,
    homedir: () => {
      home.lookups += 1;
      return home.dir;
    },
  };
});

const TOKEN = 'home-token-7f3a9c2e51';
home.dir = mkdtempSync(join(process.env['TMPDIR'] ?? '/tmp', 'ipamkit-redactor-home-'));
mkdirSync(join(home.dir, '.kube'));
writeFileSync(join(home.dir, '.kube', 'config'), ['apiVersion: v1', 'kind: Config', 'users:', '- name: u', '  user:', `    token: ${TOKEN}`, ''].join('\n'), { mode: 0o600 });

afterAll(() => {
  rmSync(home.dir, { recursive: true, force: true });
});

describe('OutputRedactor without HOME', () => {
  const sqliteConf = parseNetConf(JSON.stringify(netConf({ datastore_type: 'sqlite', sqlite_path: '/tmp/x.db' })));

  it('does not look up the home directory for a call that never reaches the Kubernetes API', () => {
    home.lookups = 0;
    const redactor = new OutputRedactor({});
    redactor.knowNetConf(sqliteConf);
    expect(redactor.redact('assigned 10.0.0.1')).toBe('assigned 10.0.0.1');
    expect(home.lookups).toBe(0);
  });

  it("knows ~/.kube/config's credentials once the call reaches for the Kubernetes API, even after a line was written", () => {
    home.lookups = 0;
    const redactor = new OutputRedactor({});
    redactor.knowNetConf(sqliteConf);
    expect(redactor.redact('first line')).toBe('first line');
    redactor.knowKubernetesAccess();
    expect(redactor.redact(`the server said ${TOKEN}`)).toBe('the server said [redacted]');
    expect(home.lookups).toBe(1);
  });

  it('looks the fallback up for output written before the network config is known', () => {
    home.lookups = 0;
    expect(new OutputRedactor({}).redact(`early ${TOKEN}`)).toBe('early [redacted]');
    expect(home.lookups).toBe(1);
  });
});
