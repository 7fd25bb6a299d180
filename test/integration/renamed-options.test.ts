/**
 * Issue 26, one name per concept: every retired option name still works for the commands that had
 * it — on the command line, as CHATBENCH_<OLD> and as a config file's key — reaches the option under
 * its new name, and prints one line saying where it went (cli/options/renamed, docs/glossary.md).
 * In-process through main(); nothing is sent anywhere (each run stops at a check before sending, or
 * sends nothing at all).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createFakeIo } from '../helpers/fake-io.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const DATASET = join(root, 'datasets/sample.csv');
const SETS = join(root, 'datasets/models.example.json');
const scratch = mkdtempSync(join(tmpdir(), 'chatbench-renamed-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function run(argv: string[], options: { env?: Record<string, string>; cwd?: string } = {}) {
  const fake = createFakeIo({ env: options.env, cwd: options.cwd ?? scratch });
  const code = await main(argv, fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

const note = (old: string, now: string) => `chatbench: ${old} is now ${now} (the old name still works)\n`;

describe('a retired flag works and says where it went', () => {
  it('validate --models FILE reads the sets file', async () => {
    const r = await run(['validate', '--dataset', DATASET, '--models', SETS]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(note('--models', '--sets-file'));
    expect(r.stdout).toContain(`Sets (${SETS})\n  fast `);
  });

  it.each([
    ['compare', ['compare', join(scratch, 'no-run-a'), join(scratch, 'no-run-b'), '--gates', 'none.json']],
    ['merge', ['merge', join(scratch, 'no-shard'), '--gates', 'none.json', '--out', join(scratch, 'm')]],
  ])('%s --gates FILE is taken as --gates-file', async (_command, argv) => {
    const r = await run(argv);
    expect(r.stderr.startsWith(note('--gates', '--gates-file'))).toBe(true);
    expect(r.stderr).not.toMatch(/Unknown argument/);
    expect(r.code).toBe(2);
  });

  it('eval --gates FILE reaches the gates file before anything is sent', async () => {
    const r = await run(['eval', '--sim', '--dataset', DATASET, '--gates', 'none.json', '--out', join(scratch, 'e2')]);
    expect(r.stderr).toBe(`${note('--gates', '--gates-file')}chatbench: none.json: no such file\n`);
  });

  it('load --model closed is the load model', async () => {
    const r = await run(['load', '--sim', '--dataset', DATASET, '--model', 'closed', '--rate', '5', '--requests', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `${note('--model', '--load-model')}chatbench: --load-model closed takes --concurrency, not --rate\n`,
    );
  });

  it('serve --config FILE is the simulator config', async () => {
    const r = await run(['serve', '--port', '0', '--config', 'missing.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `${note('--config', '--sim-config')}chatbench: missing.json: cannot read the config file (ENOENT)\n`,
    );
  });

  it('--help lists the new names only', async () => {
    const r = await run(['load', '--help']);
    expect(r.stdout).toContain('--load-model');
    expect(r.stdout).toContain('--sets-file');
    expect(r.stdout).not.toMatch(/^\s+--models?\s/m);
  });
});

describe('a retired name in the environment or a config file works and says where it went', () => {
  it('CHATBENCH_MODELS is CHATBENCH_SETS_FILE', async () => {
    const r = await run(['validate', '--dataset', DATASET], { env: { CHATBENCH_MODELS: SETS } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(note('CHATBENCH_MODELS', 'CHATBENCH_SETS_FILE'));
    expect(r.stdout).toContain(`Sets (${SETS})`);
  });

  it("a config file's models key, at the top level or under the command, is sets-file", async () => {
    const cwd = mkdtempSync(join(scratch, 'cwd-'));
    writeFileSync(join(cwd, 'chatbench.config.json'), JSON.stringify({ validate: { models: SETS } }));
    const r = await run(['validate', '--dataset', DATASET], { cwd });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(note('chatbench.config.json: validate.models', 'validate.sets-file'));
    expect(r.stdout).toContain(`Sets (${SETS})`);
    writeFileSync(join(cwd, 'chatbench.config.json'), JSON.stringify({ models: SETS, load: { model: 'closed' } }));
    const other = await run(['validate', '--dataset', DATASET], { cwd });
    expect(other.code).toBe(0);
    expect(other.stderr).toBe(note('chatbench.config.json: models', 'sets-file'));
  });
});

describe("the simulator config's retired key", () => {
  it('serve reads chat.first_part_ms as chat.ttfp_ms and says so', async () => {
    const file = join(scratch, 'sim.json');
    // An invalid time_scale stops serve once the file is read and checked, before it listens.
    writeFileSync(file, JSON.stringify({ chat: { first_part_ms: { median: 5, p99: 10 }, time_scale: -1 } }));
    const r = await run(['serve', '--port', '0', '--sim-config', file]);
    expect(r.code).toBe(2);
    expect(
      r.stderr.startsWith(`chatbench: ${file}: chat.first_part_ms is now chat.ttfp_ms (the old name still works)\n`),
    ).toBe(true);
    expect(r.stderr).not.toMatch(/first_part_ms: /);
  });
});
