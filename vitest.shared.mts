import { defineConfig } from 'vitest/config';

/** The one vitest configuration every package extends. */
export function packageVitestConfig(overrides: { testTimeout?: number; include?: string[] } = {}) {
  return defineConfig({
    test: {
      include: overrides.include ?? ['src/**/*.test.ts', 'tests/**/*.test.ts'],
      environment: 'node',
      testTimeout: overrides.testTimeout ?? 30_000,
      hookTimeout: 60_000,
      reporters: ['default'],
    },
  });
}
