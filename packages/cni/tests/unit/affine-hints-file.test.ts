// The client's read hints kept between calls (design/cni.md, "Read hints between calls").
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAffineHints, parseAffineHints, saveAffineHints } from '../../src/runtime/affine-hints-file.js';

describe('parseAffineHints', () => {
  it.each<[string, string, Record<string, string[]>]>([
    ['a node of each family', '{"host:node-a:v4":["10.0.0.0/26"],"host:node-a:v6":["fd00::/122"]}', { 'host:node-a:v4': ['10.0.0.0/26'], 'host:node-a:v6': ['fd00::/122'] }],
    ['a LoadBalancer owner', '{"virtual:load-balancer:v4":["10.9.0.0/26"]}', { 'virtual:load-balancer:v4': ['10.9.0.0/26'] }],
    ['nothing', '', {}],
    ['not JSON', '{"host:n:v4":', {}],
    ['a list, not an object', '[["host:n:v4",["10.0.0.0/26"]]]', {}],
    ['null', 'null', {}],
    ['an unknown owner type', '{"pod:n:v4":["10.0.0.0/26"]}', {}],
    ['a family that does not exist', '{"host:n:v5":["10.0.0.0/26"]}', {}],
    ['a value that is no list', '{"host:n:v4":"10.0.0.0/26"}', {}],
    ['entries that are no CIDR, dropped one by one', '{"host:n:v4":["10.0.0.0/26","x",7,"10.0.0.64/26; rm -rf /"]}', { 'host:n:v4': ['10.0.0.0/26'] }],
    ['an owner whose every entry is bad', '{"host:n:v4":["x"]}', {}],
  ])('%s', (_, text, expected) => {
    expect(Object.fromEntries(parseAffineHints(text))).toEqual(expected);
  });

  it('reads at most 8 blocks per owner and 16 owners, and nothing from an oversized file', () => {
    const blocks = Array.from({ length: 12 }, (_, i) => `10.0.${i}.0/26`);
    const owners = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`host:n${i}:v4`, blocks]));
    const hints = parseAffineHints(JSON.stringify(owners));
    expect(hints.size).toBe(16);
    expect(hints.get('host:n0:v4')).toEqual(blocks.slice(0, 8));
    expect(parseAffineHints(JSON.stringify({ 'host:n:v4': ['10.0.0.0/26'], pad: 'x'.repeat(20_000) })).size).toBe(0);
  });
});

describe('loadAffineHints and saveAffineHints', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cni-hints-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts empty without a file, and writes what the client kept, for its owner only', () => {
    const path = join(dir, 'ipam.lock.hints');
    const file = loadAffineHints(path);
    expect(file.hints.size).toBe(0);
    file.hints.set('host:node-a:v4', ['10.0.0.0/26']);
    saveAffineHints(file);
    expect(Object.fromEntries(loadAffineHints(path).hints)).toEqual({ 'host:node-a:v4': ['10.0.0.0/26'] });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['ipam.lock.hints']);
  });

  it('does not write hints that did not change', () => {
    const path = join(dir, 'ipam.lock.hints');
    writeFileSync(path, '{"host:node-a:v4":["10.0.0.0/26"]}');
    const before = statSync(path).mtimeMs;
    const file = loadAffineHints(path);
    saveAffineHints(file);
    expect(statSync(path).mtimeMs).toBe(before);
    expect(readFileSync(path, 'utf8')).toBe('{"host:node-a:v4":["10.0.0.0/26"]}');
  });

  it('replaces a damaged file with what the client kept, and leaves no temporary file when it cannot write', () => {
    const path = join(dir, 'ipam.lock.hints');
    writeFileSync(path, 'garbage');
    const file = loadAffineHints(path);
    expect(file.hints.size).toBe(0);
    file.hints.set('host:node-a:v4', ['10.0.0.64/26']);
    saveAffineHints(file);
    expect(readFileSync(path, 'utf8')).toBe('{"host:node-a:v4":["10.0.0.64/26"]}');
    const nowhere = loadAffineHints(join(dir, 'missing-dir', 'ipam.lock.hints'));
    nowhere.hints.set('host:node-a:v4', ['10.0.0.0/26']);
    expect(() => saveAffineHints(nowhere)).toThrow();
    expect(existsSync(join(dir, 'missing-dir'))).toBe(false);
  });
});
