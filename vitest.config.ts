import { defineConfig } from 'vitest/config';

// Four projects: the contract itself (spec rules, Prism sandbox, client types), engine-free units
// (statement parsing, storage back ends), and the real server's contract tests run once against
// PostgreSQL and once against the embedded engine.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        test: {
          name: 'spec',
          include: ['contract-tests/spec/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'unit',
          include: ['contract-tests/unit/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'postgres',
          include: ['contract-tests/api/**/*.test.ts'],
          env: { TEST_DB: 'pg' },
          globalSetup: ['contract-tests/support/global-setup-pg.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'pglite',
          include: ['contract-tests/api/**/*.test.ts'],
          env: { TEST_DB: 'pglite' },
          globalSetup: ['contract-tests/support/global-setup-pglite.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
