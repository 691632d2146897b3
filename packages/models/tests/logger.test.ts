import { describe, expect, it } from 'vitest';
import { jsonLineLogger } from '../src/index.js';

const at = new Date('2026-01-02T03:04:05.000Z');

function capture(options: { verbose?: boolean; redact?: (line: string) => string } = {}) {
  const lines: string[] = [];
  const log = jsonLineLogger({ write: (line) => lines.push(line), clock: { now: () => at }, ...options });
  return { lines, log };
}

describe('jsonLineLogger', () => {
  it('writes one JSON line per entry with time, level, message and fields, bigints as decimal strings', () => {
    const { lines, log } = capture();
    log.info('assigned', { ip: '10.0.0.1', sequenceNumber: 12n });
    log.warn('slow');
    log.error('failed', { code: 5 });
    expect(lines).toEqual([
      '{"time":"2026-01-02T03:04:05.000Z","level":"info","msg":"assigned","ip":"10.0.0.1","sequenceNumber":"12"}\n',
      '{"time":"2026-01-02T03:04:05.000Z","level":"warn","msg":"slow"}\n',
      '{"time":"2026-01-02T03:04:05.000Z","level":"error","msg":"failed","code":5}\n',
    ]);
  });

  it('drops debug lines unless verbose', () => {
    const quiet = capture();
    quiet.log.debug('detail');
    const verbose = capture({ verbose: true });
    verbose.log.debug('detail');
    expect([quiet.lines.length, verbose.lines.length]).toEqual([0, 1]);
  });

  it('passes every line through redact before writing it', () => {
    const { lines, log } = capture({ redact: (line) => line.replaceAll('s3cret', '***') });
    log.warn('etcd refused', { error: 'password s3cret rejected' });
    expect(lines).toEqual(['{"time":"2026-01-02T03:04:05.000Z","level":"warn","msg":"etcd refused","error":"password *** rejected"}\n']);
  });
});
