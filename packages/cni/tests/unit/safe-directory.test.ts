import { mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CniError } from '../../src/errors.js';
import { ensureDirectory, resolvedPath } from '../../src/runtime/safe-directory.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ipamkit-cni-dir-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function failure(run: () => unknown): CniError {
  try {
    run();
  } catch (err) {
    if (err instanceof CniError) return err;
    throw err;
  }
  throw new Error('expected a CNI error');
}

describe('ensureDirectory', () => {
  it('creates each missing component with mode 0700 and leaves existing ones alone', () => {
    const before = statSync(dir).mode & 0o777;
    expect(ensureDirectory(join(dir, 'a', 'b', 'c'), 'sqlite_path')).toBe(join(dir, 'a', 'b', 'c'));
    expect(['a', 'a/b', 'a/b/c'].map((p) => statSync(join(dir, p)).mode & 0o777)).toEqual([0o700, 0o700, 0o700]);
    expect(statSync(dir).mode & 0o777).toBe(before);
    expect(ensureDirectory(join(dir, 'a', 'b', 'c'), 'sqlite_path')).toBe(join(dir, 'a', 'b', 'c'));
  });

  it('follows a link to a directory', () => {
    symlinkSync(dir, join(dir, 'link'));
    expect(ensureDirectory(join(dir, 'link', 'x'), 'sqlite_path')).toBe(join(dir, 'x'));
  });

  it.each([
    { case: '/proc', path: '/proc/ipamkit/x', msg: 'sqlite_path "/proc/ipamkit/x" is under /proc: choose a path on a real file system' },
    { case: '/sys', path: '/sys/fs/ipamkit', msg: 'sqlite_path "/sys/fs/ipamkit" is under /sys: choose a path on a real file system' },
  ])('refuses a directory under $case with code 7, creating nothing', ({ path, msg }) => {
    expect(failure(() => ensureDirectory(path, 'sqlite_path'))).toMatchObject({ code: 7, message: msg });
  });

  it('refuses a link that leads into /proc', () => {
    symlinkSync('/proc/self', join(dir, 'self'));
    expect(failure(() => ensureDirectory(join(dir, 'self', 'x'), 'log_file_path'))).toMatchObject({ code: 7, message: expect.stringMatching(/^log_file_path "\/proc\/\d+\/x" is under \/proc/) });
  });

  it('refuses a file where a directory should be', () => {
    writeFileSync(join(dir, 'file'), '');
    expect(failure(() => ensureDirectory(join(dir, 'file', 'x'), 'sqlite_path'))).toMatchObject({ code: 7, message: `sqlite_path: "${join(dir, 'file')}" exists and is not a directory` });
  });
});

describe('resolvedPath', () => {
  it('resolves the existing prefix and keeps the missing rest', () => {
    symlinkSync(dir, join(dir, 'link'));
    expect(resolvedPath(join(dir, 'link', 'missing', 'file'))).toBe(join(dir, 'missing', 'file'));
  });
});
