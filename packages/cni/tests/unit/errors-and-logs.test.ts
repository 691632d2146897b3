import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MaxRetriesError } from '@ipamkit/ipam-core';
import { DatastoreConfigError } from '@ipamkit/ipam-datastore';
import { ConflictError, DatastoreUnavailableError, NoQualifiedPoolError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { CniEnvironmentError, PluginUnavailableError } from '../../src/index.js';
import { createLogger, parseLogLevel } from '../../src/runtime/logger.js';
import { toCniError } from '../../src/runtime/to-cni-error.js';

describe('toCniError', () => {
  const rows: { name: string; err: unknown; code: number; msg: string }[] = [
    { err: new CniEnvironmentError('bad env'), code: 4, msg: 'bad env' },
    { err: new DatastoreConfigError('no path'), code: 7, msg: 'no path' },
    { err: new ConflictError('block x'), code: 11, msg: 'update conflict on block x: the object changed since it was read' },
    { err: new DatastoreUnavailableError('etcd down'), code: 11, msg: 'etcd down' },
    { err: new MaxRetriesError('assign', 100), code: 11, msg: 'Max retries hit - excessive concurrent IPAM requests (assign, 100 attempts)' },
    { err: new PluginUnavailableError('no pool'), code: 50, msg: 'no pool' },
    { err: new NoQualifiedPoolError('cannot find a qualified ippool'), code: 999, msg: 'cannot find a qualified ippool' },
    { err: 'a string', code: 999, msg: 'a string' },
  ].map((r) => ({ ...r, name: r.err instanceof Error ? r.err.name : typeof r.err }));
  it.each(rows)('maps $name to code $code', ({ err, code, msg }) => {
    expect(toCniError(err)).toMatchObject({ code, message: msg });
  });
});

describe('createLogger', () => {
  it('filters by level and writes the sink and the log file, never stdout', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ipamkit-cni-log-'));
    try {
      const lines: string[] = [];
      const file = join(dir, 'sub', 'cni.log');
      const log = createLogger({ level: parseLogLevel('INFO'), sink: (l) => lines.push(l), file, context: 'ADD c1' });
      log.debug('hidden');
      log.info('shown');
      log.error('also shown');
      expect(lines.map((l) => l.replace(/^\S+ /, ''))).toEqual(['[INFO] ADD c1 shown\n', '[ERROR] ADD c1 also shown\n']);
      expect(readFileSync(file, 'utf8')).toBe(lines.join(''));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['debug', 'debug'],
    ['Error', 'error'],
    ['verbose', 'info'],
    [undefined, 'info'],
  ])('reads log_level %s as %s', (text, level) => {
    expect(parseLogLevel(text)).toBe(level);
  });
});
