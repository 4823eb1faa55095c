import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/web/**/*.test.mjs'],
    environment: 'node',
    // The cross-runner test starts both runners once per case file.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ['verbose'],
  },
});
