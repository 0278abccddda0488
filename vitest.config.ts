import { availableParallelism } from 'node:os';

import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Tests that measure request latency while other work runs: they run after the rest, one file at
 * a time, so no other test file's load lands in their figures.
 */
const timing = ['test/reliability/embedding-stalls.int.test.ts', 'test/reliability/load.int.test.ts'];

export default defineConfig({
  test: {
    // Transpiles src/ once for the `engram` child processes the tests start (test/cli-build.ts).
    globalSetup: ['test/cli-build.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...timing],
          // Most of the suite waits on child processes, PostgreSQL and sockets rather than the CPU:
          // two files at a time even on two cores (Vitest's default there is one).
          maxWorkers: Math.max(2, availableParallelism() - 1),
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'timing', include: timing, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
