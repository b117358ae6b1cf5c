import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globals: false,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'dist/**', '**/*.contract.ts'],
    pool: 'forks',
    globalSetup: ['test/setup/postgres-global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
