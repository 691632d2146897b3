import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/** The tested package's version, defined as the build defines it (tsup.shared.mts). */
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

/** The one vitest configuration every package extends. */
export function packageVitestConfig(overrides: { testTimeout?: number; include?: string[] } = {}) {
  return defineConfig({
    define: { __PACKAGE_VERSION__: JSON.stringify(version) },
    test: {
      include: overrides.include ?? ['src/**/*.test.ts', 'tests/**/*.test.ts'],
      environment: 'node',
      testTimeout: overrides.testTimeout ?? 30_000,
      hookTimeout: 60_000,
      reporters: ['default'],
    },
  });
}
