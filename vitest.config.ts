import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The soaks run apart: `npm run test:soak` (vitest.soak.config.ts), which CI runs before `npm test`.
    exclude: [...configDefaults.exclude, 'test/soak/**'],
    // Spawned CLIs run the compiled dist/: rebuilt first when src/ changed (scripts/build-cli.mjs).
    globalSetup: ['test/global-setup.mjs'],
    // The machines are shared and have two cores: keep forks few so timing tests stay honest.
    pool: 'forks',
    maxWorkers: 2,
    // One module graph per worker, not per file: importing it again for each of 120 files cost
    // 55 s of a 150 s run. Tests restore what they change (fake timers, env) in their own hooks.
    isolate: false,
    // Bounds against a hang, not a speed requirement: a busy runner may take many times a quiet one's time.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
