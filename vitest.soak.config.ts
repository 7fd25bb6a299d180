import { defineConfig } from 'vitest/config';

// `npm run test:soak`: the long runs (thousands of requests) that `npm test` leaves out; CI runs both.
export default defineConfig({
  test: {
    include: ['test/soak/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 300_000,
    hookTimeout: 60_000,
  },
});
