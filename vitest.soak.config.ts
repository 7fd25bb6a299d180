import { defineConfig } from 'vitest/config';

// `npm run test:soak`: the long runs (thousands of requests) that `npm test` leaves out; CI runs both.
export default defineConfig({
  test: {
    include: ['test/soak/**/*.test.ts'],
    // Spawned CLIs run the compiled dist/: rebuilt first when src/ changed (scripts/build-cli.mjs).
    globalSetup: ['test/global-setup.mjs'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 300_000,
    hookTimeout: 60_000,
  },
});
