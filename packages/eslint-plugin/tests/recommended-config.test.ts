import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { configs } from '../src/index.js';

// Files are matched relative to cwd, so lint as if ESLint ran at the root of /repo.
const linter = new Linter({ configType: 'flat', cwd: '/repo' });
const config: Linter.Config[] = [
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  configs.recommended as unknown as Linter.Config,
];

function lint(code: string, filename: string): { ruleId: string | null; line: number }[] {
  return linter.verify(code, config, { filename }).map((m) => ({ ruleId: m.ruleId, line: m.line }));
}

describe('configs.recommended', () => {
  it('reports a release without a sequence number under the ipamkit/ prefix', () => {
    expect(lint("client.releaseIPs([{ address: '10.0.0.1' }]);", '/repo/packages/cli/src/release.ts')).toEqual([
      { ruleId: 'ipamkit/require-release-sequence-number', line: 1 },
    ]);
  });

  it('accepts an explicit disable comment that gives a reason', () => {
    const code = [
      '// eslint-disable-next-line ipamkit/require-release-sequence-number -- operator release by address, no prior read',
      "client.releaseIPs([{ address: '10.0.0.1' }]);",
    ].join('\n');
    expect(lint(code, '/repo/packages/cli/src/release.ts')).toEqual([]);
  });

  it('scopes the GC and soft-delete rules by path', () => {
    const gcCode = 'this.confirmedLeaks.clear();';
    expect(lint(gcCode, '/repo/packages/gc/src/controller.ts')).toEqual([{ ruleId: 'ipamkit/gc-state-through-tracker', line: 1 }]);
    expect(lint(gcCode, '/repo/packages/lb-alloc/src/controller.ts')).toEqual([]);
  });

  it('reports the layering of a models file importing the core', () => {
    expect(lint("import { createIpamClient } from '@ipamkit/ipam-core';", '/repo/packages/models/src/x.ts')).toEqual([
      { ruleId: 'ipamkit/layering', line: 1 },
    ]);
  });
});
