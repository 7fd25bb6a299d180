/**
 * `chatbench init` (issue 27): the files it writes load as chatbench reads them (the config from
 * the working directory, the sets file as YAML, the dataset), every key they hold is in the shipped
 * JSON Schemas (dist/schemas/, built from the commands' options), and an existing file is never
 * overwritten without --force.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { schemaRefs } from '../../src/cli/run/init.js';
import { locateConfig } from '../../src/cli/options/config-file.js';
import { KNOWN_COLUMNS } from '../../src/dataset/index.js';
import { INIT_FILES, columnsTemplate } from '../../src/init/templates.js';
import { parseSetsText } from '../../src/sets/index.js';
import { InputError } from '../../src/errors.js';
import { parseYaml } from '../../src/util/yaml.js';

const load = (text: string) => parseYaml(text, 'written', 'a test');
import { createFakeIo } from '../helpers/fake-io.js';

const ROOT = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'chatbench-init-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function chatbench(cwd: string, ...argv: string[]) {
  const fake = createFakeIo({ cwd });
  const code = await main(argv, fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

type JsonSchema = { properties: Record<string, JsonSchema & { type?: unknown }>; additionalProperties?: boolean };
const schema = (name: string) => JSON.parse(readFileSync(join(ROOT, 'dist', 'schemas', name), 'utf8')) as JsonSchema;

describe('chatbench init', () => {
  it('writes the four files, names the next three commands, and they validate as written', async () => {
    const cwd = scratch();
    const run = await chatbench(cwd, 'init');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`wrote ${Object.values(INIT_FILES).join(', ')}`);
    expect(run.stdout.match(/^ {2}chatbench \S+/gm)).toEqual([
      '  chatbench validate',
      '  chatbench eval',
      '  chatbench eval',
    ]);
    // No flag: the dataset and the sets come from chatbench.config.yaml in the working directory.
    const validate = await chatbench(cwd, 'validate', '--sim');
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toMatch(/questions\s+3/);
    expect(validate.stdout).toContain('Sets (sets.yaml)');
  });

  it('refuses to overwrite what exists, writing nothing; --force overwrites', async () => {
    const cwd = scratch();
    writeFileSync(join(cwd, 'questions.csv'), 'mine\n');
    const refused = await chatbench(cwd, 'init');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/questions\.csv: already exists .*nothing was written \(--force overwrites\)/);
    expect(readFileSync(join(cwd, 'questions.csv'), 'utf8')).toBe('mine\n');
    expect(() => readFileSync(join(cwd, INIT_FILES.config))).toThrow();
    const forced = await chatbench(cwd, 'init', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(cwd, 'questions.csv'), 'utf8').split('\n')[0]).toBe(KNOWN_COLUMNS.join(','));
  });

  it('names the shipped schemas, and every key of the written files is in them', async () => {
    const cwd = scratch();
    expect((await chatbench(cwd, 'init')).code).toBe(0);
    const configText = readFileSync(join(cwd, INIT_FILES.config), 'utf8');
    expect(configText.split('\n')[0]).toBe(
      `# yaml-language-server: $schema=${join(ROOT, 'dist', 'schemas', 'config.schema.json')}`,
    );
    const config = schema('config.schema.json');
    expect(config.additionalProperties).toBe(false);
    const written = load(configText) as Record<string, unknown>;
    for (const [key, value] of Object.entries(written)) {
      expect(config.properties, key).toHaveProperty([key]);
      if (typeof value === 'object' && value !== null) {
        const section = config.properties[key]!;
        expect(section.additionalProperties, key).toBe(false);
        for (const inner of Object.keys(value)) expect(section.properties, `${key}.${inner}`).toHaveProperty([inner]);
      }
    }
    // An option's declared type and choices, and its --help text as the description.
    expect(config.properties.load!.properties.rate).toMatchObject({
      type: 'number',
      description: expect.stringMatching(/arrivals per second/),
    });
    expect(config.properties.eval!.properties.mode).toMatchObject({ enum: ['stream', 'full', 'both'] });
    const sets = schema('sets.schema.json');
    const setsText = readFileSync(join(cwd, INIT_FILES.sets), 'utf8');
    for (const key of Object.keys(load(setsText) as object)) expect(sets.properties, key).toHaveProperty([key]);
  });

  it('names the schemas relative to the project when chatbench is installed in it, else by absolute path', () => {
    expect(schemaRefs('/home/u/app', '/home/u/app/node_modules/chatbench')).toEqual({
      config: './node_modules/chatbench/dist/schemas/config.schema.json',
      sets: './node_modules/chatbench/dist/schemas/sets.schema.json',
    });
    expect(schemaRefs('/home/u/app', '/usr/lib/node_modules/chatbench').config).toBe(
      '/usr/lib/node_modules/chatbench/dist/schemas/config.schema.json',
    );
  });

  it('explains every dataset column', () => {
    const text = columnsTemplate();
    for (const column of KNOWN_COLUMNS) expect(text).toContain(`| \`${column}\` |`);
  });
});

describe('the files init writes, as chatbench reads them', () => {
  it('a sets file in YAML reads as its JSON twin; anchors are refused with the line', () => {
    const yaml =
      'sets:\n  - name: fast\n    llm_override: { model_provider: openai, model_version: gpt-4o-mini, temperature: 0 }\n';
    const json = JSON.stringify({
      $schema: './sets.schema.json',
      sets: [
        { name: 'fast', llm_override: { model_provider: 'openai', model_version: 'gpt-4o-mini', temperature: 0 } },
      ],
    });
    expect(parseSetsText(yaml, 'sets.yaml').sets).toEqual(parseSetsText(json, 'sets.json').sets);
    expect(() => parseSetsText('defaults: &d {origin: api}\nsets: []\n', 'sets.yml')).toThrow(
      /sets\.yml:\d+: YAML anchors and aliases/,
    );
    expect(() => parseSetsText('sets: [name: fast\n', 'sets.yaml')).toThrow(InputError);
  });

  it('the config is found as chatbench.config.yaml; two config files are refused, naming both', () => {
    const cwd = scratch();
    expect(locateConfig(undefined, cwd)).toBeNull();
    writeFileSync(join(cwd, 'chatbench.config.yaml'), 'concurrency: 2\n');
    expect(locateConfig(undefined, cwd)?.shown).toBe('chatbench.config.yaml');
    writeFileSync(join(cwd, 'chatbench.config.json'), '{"$schema": "x", "concurrency": 2}');
    expect(() => locateConfig(undefined, cwd)).toThrow(
      /chatbench\.config\.json and chatbench\.config\.yaml: two config files/,
    );
  });

  it('a JSON config may name its $schema', async () => {
    const cwd = scratch();
    expect((await chatbench(cwd, 'init')).code).toBe(0);
    rmSync(join(cwd, INIT_FILES.config));
    writeFileSync(
      join(cwd, 'chatbench.config.json'),
      JSON.stringify({ $schema: './config.schema.json', dataset: 'questions.csv', 'sets-file': 'sets.yaml' }),
    );
    const run = await chatbench(cwd, 'validate');
    expect(run.code, run.stderr).toBe(0);
  });
});
