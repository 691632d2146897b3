import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runApiReportCommand } from '../../src/api-report/api-report-command.js';
import { reportPath, runApiReport } from '../../src/api-report/run-api-report.js';

let root: string;

function write(files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

function manifest(name: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    name,
    type: 'module',
    exports: {
      '.': { import: { types: './dist/index.d.ts', default: './dist/index.js' } },
      './package.json': './package.json',
    },
    ...extra,
  });
}

const DEMO_DTS = `/** Adds. */
declare function add(a: number, b: number): number;
interface Shape { kind: 'box'; side: number }
declare const LIMIT = 5;
export { add, LIMIT, type Shape };
`;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ipamkit-api-report-'));
  write({
    'packages/demo/package.json': manifest('@fixture/demo'),
    'packages/demo/src/index.ts': "export { add } from './add.js';\n",
    'packages/demo/dist/index.d.ts': DEMO_DTS,
  });
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

// Each run builds a TypeScript program: slow on a loaded machine, so generous timeouts (not a speed test).
const SLOW = { timeout: 120_000 };

describe('api report', SLOW, () => {
  it('writes a sorted, comment-free report with one section per entry point', () => {
    expect(runApiReport({ root, update: true }).exitCode).toBe(0);
    const report = readFileSync(join(root, reportPath('demo')), 'utf8');
    expect(report).toContain('## `@fixture/demo` (3 exports)');
    expect(report.indexOf('// LIMIT (const)')).toBeLessThan(report.indexOf('// Shape (interface)'));
    expect(report.indexOf('// Shape (interface)')).toBeLessThan(report.indexOf('// add (function)'));
    expect(report).toContain('function add(a: number, b: number): number;');
    expect(report).not.toContain('Adds.');
  });

  it('passes when the committed report matches the built surface', () => {
    runApiReport({ root, update: true });
    const result = runApiReport({ root, update: false });
    expect(result.exitCode).toBe(0);
    expect(result.lines).toContain('  ok    @fixture/demo (. 3)');
  });

  it('fails, naming the update command, when the surface changes without the report', () => {
    runApiReport({ root, update: true });
    write({ 'packages/demo/dist/index.d.ts': `${DEMO_DTS}declare function sub(a: number, b: number): number;\nexport { sub };\n` });
    const result = runApiReport({ root, update: false });
    expect(result.exitCode).toBe(1);
    expect(result.lines.join('\n')).toMatch(/FAIL {2}@fixture\/demo: packages\/demo\/api\/demo\.api\.md differs/);
    expect(result.lines.join('\n')).toContain('npm run api:update');
  });

  it('fails when a signature changes but the names stay', () => {
    runApiReport({ root, update: true });
    write({ 'packages/demo/dist/index.d.ts': DEMO_DTS.replace('b: number): number', 'b: bigint): number') });
    expect(runApiReport({ root, update: false }).exitCode).toBe(1);
  });

  it('ignores comment-only changes in the declarations', () => {
    runApiReport({ root, update: true });
    write({ 'packages/demo/dist/index.d.ts': DEMO_DTS.replace('/** Adds. */', '/** Adds two numbers. */') });
    expect(runApiReport({ root, update: false }).exitCode).toBe(0);
  });

  it('fails when a public package has no committed report', () => {
    const result = runApiReport({ root, update: false });
    expect(result.exitCode).toBe(1);
    expect(result.lines.join('\n')).toContain('is missing for the built surface');
  });

  it('skips private packages', () => {
    write({
      'packages/internal/package.json': manifest('@fixture/internal', { private: true }),
      'packages/internal/dist/index.d.ts': 'export declare const x = 1;\n',
    });
    runApiReport({ root, update: true });
    expect(runApiReport({ root, update: false }).lines.join('\n')).not.toContain('@fixture/internal');
  });

  it('records a name re-exported from another package as that package', () => {
    write({
      'packages/base/package.json': manifest('@fixture/base'),
      'packages/base/dist/index.d.ts': 'export declare function greet(): string;\n',
      'node_modules/@fixture/base/package.json': manifest('@fixture/base'),
      'node_modules/@fixture/base/dist/index.d.ts': 'export declare function greet(): string;\n',
      'packages/demo/dist/index.d.ts': `${DEMO_DTS}export { greet } from '@fixture/base';\n`,
    });
    runApiReport({ root, update: true });
    expect(readFileSync(join(root, reportPath('demo')), 'utf8')).toContain('greet from @fixture/base');
  });

  it('cannot run without the build output', () => {
    rmSync(join(root, 'packages/demo/dist'), { recursive: true });
    const result = runApiReport({ root, update: false });
    expect(result.exitCode).toBe(2);
    expect(result.lines.join('\n')).toContain('packages/demo/dist/index.d.ts not found: build @fixture/demo first');
  });
});

describe('no export * in an index', SLOW, () => {
  it('fails on export * and export * as, naming the line', () => {
    write({ 'packages/demo/src/index.ts': "export { add } from './add.js';\nexport * from './b.js';\nexport * as c from './c.js';\n" });
    runApiReport({ root, update: true });
    const result = runApiReport({ root, update: false });
    expect(result.exitCode).toBe(1);
    expect(result.lines).toContain('  FAIL  packages/demo/src/index.ts:2: `export *` hides the contract; name each export');
    expect(result.lines).toContain('  FAIL  packages/demo/src/index.ts:3: `export *` hides the contract; name each export');
  });

  it('checks private packages too', () => {
    write({
      'packages/internal/package.json': manifest('@fixture/internal', { private: true }),
      'packages/internal/src/index.ts': "export * from './x.js';\n",
    });
    runApiReport({ root, update: true });
    expect(runApiReport({ root, update: false }).lines).toContain(
      '  FAIL  packages/internal/src/index.ts:1: `export *` hides the contract; name each export',
    );
  });
});

describe('ipamkit-api-report command', SLOW, () => {
  it('rewrites with --update and checks by default, reporting failures on stderr', () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { cwd: root, out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
    expect(runApiReportCommand([], io)).toBe(1);
    expect(err.join('\n')).toContain('npm run api:update');
    expect(runApiReportCommand(['--update'], io)).toBe(0);
    expect(runApiReportCommand(['--root', root], io)).toBe(0);
    expect(runApiReportCommand(['--bogus'], io)).toBe(2);
  });
});
