import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 20_000 } },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          // The real client is heavy; two cores run one session at a time reliably.
          fileParallelism: false,
        },
      },
    ],
  },
});
