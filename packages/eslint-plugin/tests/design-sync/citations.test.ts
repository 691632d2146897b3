import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkCitations } from '../../src/design-sync/citations/check-citations.js';
import { headingAnchors } from '../../src/design-sync/citations/heading-anchors.js';
import { Git } from '../../src/design-sync/git.js';
import { runDesignSync } from '../../src/design-sync/run-design-sync.js';
import { GitFixture } from './git-fixture.js';

/** The documents a citation may point at, present in every case's tree. */
const TREE: Record<string, string> = {
  'design/core.md': '# core\n\n## Claim protocol\n\n### Step 1: read\n\n## Claim protocol\n\n```md\n## Not a heading\n```\n',
  'packages/core/src/claim.ts': 'export const claim = 1;\n',
};

/** Built at run time so this file cites nothing outside the repository itself: [cited, reported]. */
const SECTION = String.fromCharCode(0xa7);
const OUTSIDE: Record<string, [string, string]> = {
  spec: [['spec', 'core.md'].join('/'), ['spec', 'core.md'].join('/')],
  shared: [['..', 'shared', 'x'].join('/'), ['..', 'shared'].join('/')],
  architecture: [['ARCHITECTURE', 'md'].join('.'), ['ARCHITECTURE', 'md'].join('.')],
  conventions: [['CONVENTIONS', 'md'].join('.'), ['CONVENTIONS', 'md'].join('.')],
  toolchain: [['toolchain', 'md'].join('.'), ['toolchain', 'md'].join('.')],
  'bare core': [['core', 'md'].join('.'), ['core', 'md'].join('.')],
  'numbered section': [`${SECTION}8.2`, `${SECTION}8`],
};

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ipamkit-citations-'));
  write(TREE);
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function write(files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** Writes one citing file and returns the problems the check finds in it. */
function problemsOf(path: string, content: string): string[] {
  write({ [path]: content });
  return checkCitations(root, [...Object.keys(TREE), path]).map((p) => `${p.file}:${String(p.line)}: ${p.message}`);
}

describe('checkCitations', () => {
  it.each([
    ['an existing design doc', 'packages/core/src/a.ts', '// See design/core.md.\nexport const a = 1;\n'],
    ['an existing source file', 'packages/core/src/a.ts', '/** Like packages/core/src/claim.ts does. */\nexport const a = 1;\n'],
    ['an existing directory', 'design/other.md', 'Code lives in packages/core/src/.\n'],
    ['an anchor that is a heading', 'packages/core/src/a.ts', '// design/core.md#claim-protocol\nexport const a = 1;\n'],
    ['the anchor of a repeated heading', 'design/other.md', 'See design/core.md#claim-protocol-1.\n'],
    ['an anchor with punctuation dropped', 'design/other.md', 'See design/core.md#step-1-read.\n'],
    ['a glob', 'design/other.md', 'Applies to `packages/core/src/**` and packages/*/src.\n'],
    ['a template', 'packages/core/src/a.ts', '// Writes packages/core/src/case-${n}.ts for each case.\nexport const a = 1;\n'],
    ['build output', 'design/other.md', 'The bin is packages/core/dist/core.js.\n'],
    ['a made-up path in a string', 'packages/core/tests/a.test.ts', "export const file = 'packages/core/src/missing.ts';\n"],
    ['a made-up path in a markdown example', 'design/other.md', '```ts\n// packages/core/src/missing.ts\n```\n'],
    ['design/toolchain.md, which is in the repository', 'design/other.md', 'See design/toolchain.md.\n'],
    ['a relative link to a heading of a sibling', 'design/other.md', 'See [the claim](core.md#claim-protocol).\n'],
    ['a relative link that climbs to a package', 'packages/core/README.md', 'See [claim](src/claim.ts) and [core](../../design/core.md).\n'],
    ['a relative link to design/toolchain.md', 'design/other.md', 'See [the traps](toolchain.md).\n'],
    ['a link to a heading of the file itself', 'design/other.md', '# Other\n\nSee [above](#other).\n'],
    ['a URL', 'design/other.md', 'See [spec](https://example.invalid/spec/x.md).\n'],
    ['a link written in inline code', 'design/other.md', 'Write links as `[text](target#anchor)`.\n'],
  ])('passes %s', (_name, path, content) => {
    if (content.includes('toolchain.md')) write({ 'design/toolchain.md': '# toolchain\n' });
    expect(problemsOf(path, content)).toEqual([]);
  });

  it.each([
    ['a missing design doc', 'packages/core/src/a.ts', '// See design/missing.md.\nexport const a = 1;\n', 'packages/core/src/a.ts:1: cites design/missing.md, which does not exist'],
    ['a missing source file', 'design/other.md', 'Intro.\n\nSee packages/core/src/gone.ts.\n', 'design/other.md:3: cites packages/core/src/gone.ts, which does not exist'],
    [
      'an anchor that is no heading',
      'packages/core/src/a.ts',
      'export const a = 1;\n/** design/core.md#claiming */\nexport const b = 2;\n',
      'packages/core/src/a.ts:2: cites design/core.md#claiming, which is not a heading of design/core.md',
    ],
    [
      'an anchor of a heading inside fenced code',
      'design/other.md',
      'See design/core.md#not-a-heading.\n',
      'design/other.md:1: cites design/core.md#not-a-heading, which is not a heading of design/core.md',
    ],
    [
      'an anchor on a file that is not markdown',
      'design/other.md',
      'See packages/core/src/claim.ts#L1.\n',
      'design/other.md:1: cites packages/core/src/claim.ts#L1, but only markdown files have anchors',
    ],
    ['a relative link to a missing file', 'design/other.md', 'See [x](missing.md).\n', 'design/other.md:1: cites missing.md, which does not exist'],
    [
      'a relative link to a missing heading',
      'design/other.md',
      'One.\n\nSee [x](core.md#nope).\n',
      'design/other.md:3: cites core.md#nope, which is not a heading of design/core.md',
    ],
    ['a link to a missing heading of the file itself', 'design/other.md', '# Other\n\n[x](#nope)\n', 'design/other.md:3: cites #nope, which is not a heading of design/other.md'],
    ['a relative link out of the repository', 'design/other.md', '[x](../../shared.txt)\n', 'design/other.md:1: links to ../../shared.txt, which is outside the repository'],
  ])('fails %s', (_name, path, content, problem) => {
    expect(problemsOf(path, content)).toEqual([problem]);
  });

  it.each(Object.entries(OUTSIDE))('fails a citation of the outside %s document', (_name, [cited, reported]) => {
    expect(problemsOf('packages/core/src/a.ts', `// As ${cited} says.\nexport const a = 1;\n`)).toEqual([
      `packages/core/src/a.ts:1: cites ${reported}, which is not in the repository; cite the design/ doc that states the fact`,
    ]);
  });

  it('fails an outside citation in a markdown example too, and in YAML', () => {
    const yaml = `# from ${OUTSIDE.spec?.[0] ?? ''}\nkind: List\n`;
    expect(problemsOf('design/other.md', `\`\`\`\n${OUTSIDE.conventions?.[0] ?? ''}\n\`\`\`\n`)).toHaveLength(1);
    expect(problemsOf('deploy/base/x.yaml', yaml)).toHaveLength(1);
  });

  it('skips files that are not prose and files that are gone', () => {
    write({ 'package.json': `{ "x": "${OUTSIDE.spec?.[0] ?? ''}" }\n` });
    expect(checkCitations(root, ['package.json', 'design/deleted.md'])).toEqual([]);
  });
});

describe('headingAnchors', () => {
  it('follows GitHub: lower case, punctuation dropped, spaces as hyphens, repeats numbered', () => {
    const markdown = '# A `code` Title!\n## Claim protocol\n## Claim protocol\n### CNI_ARGS keys\n#### ipam show (--ip)\n';
    expect([...headingAnchors(markdown)]).toEqual(['a-code-title', 'claim-protocol', 'claim-protocol-1', 'cni_args-keys', 'ipam-show---ip']);
  });
});

describe('design sync with citations', () => {
  let repo: GitFixture;

  beforeEach(() => {
    repo = GitFixture.create();
    repo.write({
      'design/README.md':
        '# design index\n\n| package | design doc | applies to | status |\n|---|---|---|---|\n| models | [models.md](models.md) | `packages/models/src/**` | implemented |\n',
      'design/models.md': '# models\n',
      'README.md': '# repo\n\nSee design/README.md.\n',
    });
    repo.commit('Initial layout');
  });

  afterEach(() => {
    repo.remove();
  });

  it('fails the run on a broken citation, also in an uncommitted file, and passes with --skip-citations', () => {
    expect(runDesignSync({ cwd: repo.dir, codeowners: 'skip' }).exitCode).toBe(0);
    repo.write({ 'notes.md': 'See design/gone.md#x.\n' });
    const report = runDesignSync({ cwd: repo.dir, codeowners: 'skip' });
    expect(report.exitCode).toBe(1);
    expect(report.lines).toContain('  FAIL  notes.md:1: cites design/gone.md, which does not exist');
    expect(runDesignSync({ cwd: repo.dir, codeowners: 'skip', citations: 'skip' }).exitCode).toBe(0);
  });
});

describe('the repository itself', () => {
  it('cites only paths, anchors and documents that exist in it', () => {
    const git = new Git(dirname(fileURLToPath(import.meta.url)));
    const repositoryRoot = git.run(['rev-parse', '--show-toplevel']).trim();
    expect(checkCitations(repositoryRoot, git.workingTreeFiles())).toEqual([]);
  });
});
