/**
 * Every `npx chatbench` line of the manual's shell blocks (README.md and docs/) runs as printed,
 * against the simulator, in-process (test/helpers/run-example), in the examples' world
 * (test/helpers/examples-world), in the manual's order; the curl examples of `serve --help` and of
 * the manual run through bash and curl (when installed) against the simulator, as pasted. The
 * --help examples run in help-examples-make.test.ts and help-examples-read.test.ts.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { joinContinuations } from '../helpers/run-example.js';
import { ROOT, TOKEN, useExamplesWorld } from '../helpers/examples-world.js';

// Its examples read reports/2026-11-20T10-00-00-eval (and copies) and runs/shard-1, 3, 4 (they write shard-2).
const examplesWorld = useExamplesWorld(['eval', 'shards']);

/**
 * The manual in the order a reader meets it (the README, then the pages it grew into): its examples
 * run in this order, in one working directory, so a page may read what an earlier one wrote.
 * Every page of docs/ is listed, here or in NOT_RUN with the reason.
 */
const MANUAL = [
  'README.md',
  'docs/configuration.md',
  'docs/commands/eval.md',
  'docs/commands/validate.md',
  'docs/commands/draft-expectations.md',
  'docs/commands/demo.md',
  'docs/commands/report.md',
  'docs/conversations.md',
  'docs/tools.md',
  'docs/answer-quality.md',
  'docs/commands/compare.md',
  'docs/ci.md',
  'docs/commands/baseline.md',
  'docs/commands/view.md',
  'docs/commands/load.md',
  'docs/health-probe.md',
  'docs/abandon.md',
  'docs/commands/capacity.md',
  'docs/commands/merge.md',
  'docs/reliability.md',
  'docs/limits.md',
  'docs/releases.md',
  'docs/benchmarks.md',
  'docs/benchmarks-log.md',
  'docs/reference/exit-codes.md',
  'docs/simulator.md',
  'docs/reference/README.md',
  'docs/reference/service-api.md',
  'docs/reference/wire-format.md',
  'docs/reference/onyx-releases.md',
  'docs/reference/metrics.md',
  'docs/reference/results-jsonl.md',
  'docs/figures.md',
  'docs/architecture.md',
  'docs/dependencies.md',
  'docs/development.md',
  'docs/glossary.md',
  'docs/install.md',
  'docs/resume.md',
  'docs/project-instructions.md',
  'docs/terminal.md',
  'docs/telemetry.md',
  'docs/github-action.md',
  'docs/history.md',
  'docs/tokens.md',
];

/** Pages whose shell blocks are recipes for another machine, not examples to run here. */
const NOT_RUN: Record<string, string> = {
  'docs/mock-llm.md': 'registers the mock LLM in a real deployment ($ONYX, an admin token)',
  'docs/onyx-loadtest-kit.md': "runs the service's own Locust kit from the onyx repository (test/soak runs it)",
  'docs/tls.md':
    'names a deployment behind a private CA; test/integration/ca-file.test.ts runs --ca-file against a loopback HTTPS server',
  'docs/scale-out.md':
    'recipes for a Kubernetes Job and a CI matrix; their commands run from docs/commands/merge.md and deploy/',
};

/** Every markdown page of docs/, relative to the root. */
function docsPages(dir = 'docs'): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? docsPages(`${dir}/${e.name}`) : e.name.endsWith('.md') ? [`${dir}/${e.name}`] : [],
  );
}

/** The manual's `npx chatbench` commands of its `sh` blocks (continuations joined), in order. */
function manualExamples(pages: readonly string[] = MANUAL): string[] {
  const blocks = pages.flatMap((page) =>
    [...readFileSync(join(ROOT, page), 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!),
  );
  return blocks.flatMap((block) => joinContinuations(block.split('\n')).filter((line) => /^npx chatbench /.test(line)));
}

describe('every example of the manual (README and docs/) runs as printed', () => {
  it('lists every page of docs/', () => {
    expect(docsPages().filter((page) => !MANUAL.includes(page) && NOT_RUN[page] === undefined)).toEqual([]);
  });

  it("in the manual's order, with the variables it exports pointing at the simulator", async () => {
    // The scale-out page's shard example writes runs/shard-2 itself, before it merges the four.
    const { world, expectRuns } = examplesWorld();
    const cwd = world(['runs/shard-2']);
    const lines = manualExamples();
    expect(lines.length).toBeGreaterThan(12);
    for (const line of lines) await expectRuns(line, cwd);
  }, 240_000);
});

describe('curl examples paste as printed', () => {
  const curlAvailable = spawnSync('curl', ['--version']).status === 0;

  /** The `curl` commands of `text` (continuations joined). */
  const curls = (text: string) => joinContinuations(text.split('\n')).filter((line) => line.startsWith('curl '));

  it.skipIf(!curlAvailable)(
    'serve --help and the manual: each answers with what it describes',
    async () => {
      const fake = createFakeIo({ env: {} });
      expect(await main(['serve', '--help'], fake.io)).toBe(0);
      const help = fake.stdout();
      for (const line of help.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
      const manual = MANUAL.map((page) => readFileSync(join(ROOT, page), 'utf8')).join('\n');
      const commands = [...curls(help), ...curls(manual)];
      expect(commands.length).toBeGreaterThanOrEqual(9);
      for (const command of commands) {
        // Not spawnSync: the simulator answering curl runs in this process. --norc: with its stdin a
        // socket (execFile's) and no SHLVL, bash takes itself for one started by sshd and reads
        // ~/.bashrc, a machine's own (this one's ran `pyenv init`, 0.55 s a command: 15 s quiet).
        const result = await promisify(execFile)('bash', ['--norc', '-c', command], {
          env: { PATH: process.env.PATH ?? '', B: examplesWorld().sim.baseUrl, T: TOKEN },
          encoding: 'utf8',
          timeout: 30_000,
        });
        expect(result.stdout, command).not.toBe('');
        expect(result.stdout, command).not.toMatch(/"detail"|Not Found|Unauthorized/i);
      }
      // A bound against a hang: with ~/.bashrc read, a dozen commands took over 60 s at load average 8.
    },
    240_000,
  );
});
