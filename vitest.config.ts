import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The soaks run apart: `npm run test:soak` (vitest.soak.config.ts), which CI runs after `npm test`.
    exclude: [...configDefaults.exclude, 'test/soak/**'],
    // The machines are shared and have two cores: keep forks few so timing tests stay honest.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
