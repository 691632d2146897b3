import { describe, expect, it } from 'vitest';
import { generateCodeowners, missingOwners } from '../../src/design-sync/codeowners.js';
import { parseDesignTable } from '../../src/design-sync/design-table.js';
import { parseChangeset, parseExemptions } from '../../src/design-sync/exemptions.js';
import { DesignTableError } from '../../src/errors.js';
import { matchesGlob } from '../../src/utils/glob.js';

describe('parseDesignTable', () => {
  it('reads rows in any column order, resolving doc links against the README', () => {
    const md = [
      'Intro.',
      '',
      '| status | package | applies to | design doc | owners |',
      '| :--- | --- | --- | ---: | --- |',
      '| planned | `@ipamkit/cli` | `packages/cli/src/**`, `packages/cli/bin/*` | [cli.md](cli.md#top) | @ops @cli |',
      '| implemented | test-utils | `packages/test-utils/src/**` | [ipam-datastore.md](./ipam-datastore.md) | |',
      '',
      '| other | table |',
    ].join('\n');
    expect(parseDesignTable(md)).toEqual([
      { package: 'cli', designDoc: 'design/cli.md', appliesTo: ['packages/cli/src/**', 'packages/cli/bin/*'], status: 'planned', owners: ['@ops', '@cli'] },
      { package: 'test-utils', designDoc: 'design/ipam-datastore.md', appliesTo: ['packages/test-utils/src/**'], status: 'implemented', owners: [] },
    ]);
  });

  it.each([
    ['no table at all', '# Nothing here\n', 'design/README.md: no table with the columns package | design doc | applies to | status'],
    ['a row without globs', '| package | design doc | applies to | status |\n|---|---|---|---|\n| gc | [gc.md](gc.md) | src | planned |', 'has no `glob` in "applies to"'],
    ['a row without a doc', '| package | design doc | applies to | status |\n|---|---|---|---|\n| gc | none | `packages/gc/**` | planned |', 'has no design doc link'],
    ['a table without rows', '| package | design doc | applies to | status |\n|---|---|---|---|\n', 'the package table has no rows'],
  ])('rejects %s with a DesignTableError', (_name, md, message) => {
    expect(() => parseDesignTable(md)).toThrow(DesignTableError);
    expect(() => parseDesignTable(md)).toThrow(message);
  });
});

describe('exemptions', () => {
  it.each([
    ['Fix\n\nDesign-Sync-Exempt: bug-fix', ['bug-fix']],
    ['Fix\n\ndesign-sync-exempt: Refactor (rename only)', ['refactor']],
    ['Bump\n\nDesign-Sync-Exempt: deps\nDesign-Sync-Exempt: comments', ['deps', 'comments']],
    ['Mentions Design-Sync-Exempt: deps mid-line only', []],
    ['No trailer', []],
  ])('reads the kinds in %j', (message, kinds) => {
    expect(parseExemptions(message, 'commit')).toEqual(kinds);
  });

  it('reads the packages and kinds of a changeset', () => {
    const text = "---\n'@ipamkit/gc': patch\n\"@ipamkit/cli\": minor\n---\n\nBump prom-client.\n\nDesign-Sync-Exempt: deps\n";
    expect(parseChangeset(text, '.changeset/a.md')).toEqual({ path: '.changeset/a.md', packages: ['gc', 'cli'], kinds: ['deps'] });
  });

  it('rejects a changeset without front matter', () => {
    expect(() => parseChangeset('Just text', '.changeset/b.md')).toThrow('.changeset/b.md: not a changeset (no --- front matter)');
  });
});

describe('codeowners', () => {
  const entries = parseDesignTable(
    '| package | design doc | applies to | status |\n|---|---|---|---|\n| gc | [gc.md](gc.md) | `packages/gc/src/**` | x |\n| test-utils | [gc.md](gc.md) | `packages/test-utils/src/**` | x |',
  );

  it('generates one line per package path and per design doc, merging shared docs', () => {
    expect(generateCodeowners(entries).split('\n').filter((l) => !l.startsWith('#') && l !== '')).toEqual([
      '/packages/gc/ @ipamkit/gc',
      '/packages/test-utils/ @ipamkit/test-utils',
      '/design/gc.md @ipamkit/gc @ipamkit/test-utils',
    ]);
  });

  it.each([
    ['/packages/gc/ @a\n/packages/test-utils/** @b', []],
    ['packages/gc @a\n# /packages/test-utils/ @b', [{ package: 'test-utils', path: 'packages/test-utils/' }]],
    ['/packages/gc/\n/packages/test-utils/ @b', [{ package: 'gc', path: 'packages/gc/' }]],
  ])('finds the packages %j leaves without an owner', (codeowners, missing) => {
    expect(missingOwners(codeowners, entries)).toEqual(missing);
  });
});

describe('matchesGlob', () => {
  it.each([
    ['packages/gc/src/a.ts', 'packages/gc/src/**', true],
    ['packages/gc/src/deep/a.ts', 'packages/gc/src/**', true],
    ['packages/gc/tests/a.ts', 'packages/gc/src/**', false],
    ['packages/gc/src/a.ts', 'packages/*/src/*.ts', true],
    ['packages/gc/src/x/a.ts', 'packages/*/src/*.ts', false],
    ['packages/gc/src/handle-id.ts', '**/handle-id*.ts', true],
    ['handle-id.ts', '**/handle-id*.ts', true],
    ['packages/gc/a.mts', 'packages/gc/*.{ts,mts}', true],
    ['packages/gc/a+b.ts', 'packages/gc/a+b.ts', true],
    ['packages/gc/aab.ts', 'packages/gc/a+b.ts', false],
  ])('%s against %s is %s', (path, glob, expected) => {
    expect(matchesGlob(path, glob)).toBe(expected);
  });
});
