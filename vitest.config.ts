import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The soaks run apart: `npm run test:soak` (vitest.soak.config.ts), which CI runs before `npm test`.
    exclude: [...configDefaults.exclude, 'test/soak/**'],
    // Spawned CLIs run the compiled dist/: rebuilt first when src/ changed (scripts/build-cli.mjs).
    globalSetup: ['test/global-setup.mjs'],
    // Each file's CPU, for `npm run bench:test` (scripts/bench-test.mjs); it does nothing unless that
    // asks. Always listed: a config that changed with it would miss the transform cache below.
    setupFiles: ['test/bench/suite/file-cpu.ts'],
    // Two cores, four forks, so one's real waits (sockets, schedules, a browser, Prometheus) overlap
    // the others' CPU work. A fourth fork imports the module graph once more (16–20 CPU s): it pays
    // only because npm test's static checks run at the lowest priority (scripts/test.mjs); with them
    // at the usual one it made npm test slower (docs/development.md, sessions 48 and 49). Timing
    // tests judge with tolerances from the loop delay they measured, and `npm run test:stress` runs
    // the suite beside two busy loops: a busier machine is what they are built for.
    pool: 'forks',
    maxWorkers: 4,
    // One module graph per worker, not per file: importing it again for each of 120 files cost
    // 55 s of a 150 s run. Tests restore what they change (fake timers, env) in their own hooks.
    isolate: false,
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache, keyed by each file's
    // content and the config) for the next run: vite's transform of ~700 TypeScript modules cost
    // 20 s of a run, and a warm run reads them instead (the main module graph: 2.5 → 1.7 CPU s).
    // `npx vitest --clearCache` empties it; a fresh clone fills it on its first run.
    experimental: { fsModuleCache: true },
    // Bounds against a hang, not a speed requirement: a busy runner may take many times a quiet one's time.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll's own default (1 s) is a speed bound: a viewer page took longer to render beside a
    // profiler. Its bound is a hang's, as the tests' own.
    expect: { poll: { timeout: 30_000 } },
  },
});
