import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { MULTI_DOCUMENT_YAML } from './resource-documents.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bin.js');

describe('the built ipamkit bin: resources on SQLite', () => {
  let dir: string;
  let db: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ipamkit-resources-bin-'));
    db = join(dir, 'ipam.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function ipamkit(args: readonly string[], input?: string): { status: number | null; stdout: string; stderr: string } {
    const result = spawnSync(process.execPath, [BIN, '--datastore', 'sqlite', '--sqlite-path', db, ...args], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '' },
      ...(input === undefined ? {} : { input }),
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  it.each([
    [['get', 'ippools']],
    [['replace', '-f', '-']],
    [['delete', 'ippool', 'my.ippool-1']],
  ])('%j on a missing database says so and creates nothing', (args) => {
    const run = ipamkit(args, args.includes('-') ? MULTI_DOCUMENT_YAML : undefined);
    expect(run).toEqual({
      status: 3,
      stdout: '',
      stderr: `no ipamkit database at ${db}: check --sqlite-path; only create, apply, install-cni and datastore migrate import make a new one\n`,
    });
    expect(existsSync(db)).toBe(false);
  });

  it('apply -f - creates the database from stdin; get -o yaml reads it back', () => {
    expect(ipamkit(['apply', '-f', '-'], MULTI_DOCUMENT_YAML)).toEqual({ status: 0, stdout: 'Successfully applied 4 resource(s)\n', stderr: '' });
    const got = ipamkit(['get', 'node', 'node-hostname', '-o', 'yaml']);
    expect(got.status).toBe(0);
    expect(parse(got.stdout)).toMatchObject({ kind: 'Node', spec: { orchRefs: [{ nodeName: 'node-hostname', orchestrator: 'k8s' }] } });
    expect(ipamkit(['delete', 'ippool', 'my.ippool-1'])).toEqual({ status: 0, stdout: "Successfully deleted 1 'IPPool' resource(s)\n", stderr: '' });
  });

  it('a file that does not parse fails before a database is created', () => {
    const run = ipamkit(['create', '-f', '-'], 'kind: IPPool\n  metadata: [\n');
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^stdin: not valid YAML or JSON: /);
    expect(existsSync(db)).toBe(false);
  });
});
