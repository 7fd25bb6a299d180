/**
 * Issue 7 §4, the user's inputs: every case of the list through `chatbench eval` (main() with
 * a fake Io), each with its exact message: one line per problem (file:line: field where it
 * applies), exit 2, no stack trace, nothing sent to the simulator and no run directory made.
 * (`validate` has the same table in test/integration/validate.test.ts; these go through eval, which
 * must refuse before it sends.)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';
import { runCli, scratch, STACK_LINE } from './helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const D = 'test/fixtures/datasets';
const M = 'test/fixtures/models';
const GOOD = `${D}/good.csv`;

interface Case {
  name: string;
  args: string[];
  /** The exact stderr lines before any `hint:` line. */
  lines: string[];
}

const DATASET_CASES: Case[] = [
  {
    name: 'missing file',
    args: ['--dataset', `${D}/missing.csv`],
    lines: [`chatbench: ${D}/missing.csv: no such file`],
  },
  { name: 'empty file', args: ['--dataset', `${D}/empty.csv`], lines: [`chatbench: ${D}/empty.csv: empty file`] },
  {
    name: 'not UTF-8',
    args: ['--dataset', `${D}/latin1.csv`],
    lines: [`chatbench: ${D}/latin1.csv: not UTF-8 (first invalid byte on line 2; save the file as UTF-8)`],
  },
  {
    name: 'no question column',
    args: ['--dataset', `${D}/no-question.csv`],
    lines: [
      `chatbench: ${D}/no-question.csv: no "question" column ("Question" is not it: column names are lowercase); the header row is: id,Question`,
    ],
  },
  {
    name: 'unterminated quote',
    args: ['--dataset', `${D}/unterminated.csv`],
    lines: [
      `chatbench: ${D}/unterminated.csv:3: unterminated quote: a quoted cell opened in this record is never closed`,
    ],
  },
  {
    name: 'duplicate ids, bad boolean, an expected id with surrounding spaces, an empty element',
    args: ['--dataset', `${D}/bad-rows.csv`],
    lines: [
      `chatbench: ${D}/bad-rows.csv:2: expected_documents: element 2 " it-vpn-mac" has surrounding spaces`,
      `${D}/bad-rows.csv:2: expect_no_answer: "maybe" is not a boolean (use true/false, yes/no, 1/0, or leave it empty)`,
      `${D}/bad-rows.csv:3: question: is empty`,
      `${D}/bad-rows.csv:3: expected_documents: element 2 is empty`,
      `${D}/bad-rows.csv:3: persona_id: "two" is not an integer`,
      `${D}/bad-rows.csv:4: id: duplicate id "q1" (first on line 2)`,
    ],
  },
];

const MODELS_CASES: Case[] = [
  {
    name: 'not JSON',
    args: ['--sets-file', `${M}/not-json.json`],
    lines: [`chatbench: ${M}/not-json.json: not JSON: trailing comma before "}" at line 3, column 98`],
  },
  {
    name: 'unknown field',
    args: ['--sets-file', `${M}/unknown-field.json`],
    lines: [
      `chatbench: ${M}/unknown-field.json: sets[0].llm_override.model_name: unknown field (known fields: model_configuration_id, model_provider, model_version, temperature, display_name)`,
    ],
  },
  {
    name: 'temperature 2.5',
    args: ['--sets-file', `${M}/temperature.json`],
    lines: [
      `chatbench: ${M}/temperature.json: sets[0].llm_override.temperature: temperature must be between 0 and 2 (got 2.5)`,
    ],
  },
  {
    name: 'llm_overrides of one entry',
    args: ['--sets-file', `${M}/one-override.json`],
    lines: [
      `chatbench: ${M}/one-override.json: sets[0].llm_overrides: has one entry: the service ignores a single entry; use llm_override`,
    ],
  },
  {
    name: 'llm_overrides of four entries',
    args: ['--sets-file', `${M}/four-overrides.json`],
    lines: [
      `chatbench: ${M}/four-overrides.json: sets[0].llm_overrides: has 4 entries: the service takes at most 3 models at once`,
    ],
  },
  {
    name: 'duplicate set names',
    args: ['--sets-file', `${M}/duplicate-names.json`],
    lines: [`chatbench: ${M}/duplicate-names.json: sets[1].name: duplicate set name "fast" (first at sets[0])`],
  },
  {
    name: 'a multi-model set with --mode full',
    args: ['--sets-file', 'datasets/models.example.json', '--mode', 'full'],
    lines: [
      'chatbench: set "side-by-side" is multi-model and --mode is full: the service answers 400 to multi-model with stream=false; use --mode stream',
    ],
  },
];

const COMMAND_LINE_CASES: Case[] = [
  {
    name: 'a non-number for --concurrency',
    args: ['--concurrency', 'many'],
    lines: ['chatbench: --concurrency must be a whole number from 1 to 10,000, got a non-number'],
  },
  {
    name: 'a non-number for --repeat',
    args: ['--repeat', 'twice'],
    lines: ['chatbench: --repeat must be a whole number from 1 to 1,000, got a non-number'],
  },
  {
    name: 'a non-duration for --timeout',
    args: ['--timeout', 'soon'],
    lines: ['chatbench: --timeout: "soon" is not a duration (e.g. 500ms, 60s, 2m, 1m30s)'],
  },
  {
    name: 'conflicting --token and --token-file',
    args: ['--token-file', 'token.txt'],
    lines: ['chatbench: --token and --token-file conflict: give one'],
  },
  {
    name: 'conflicting --shard and --shards',
    args: ['--shard', '1/2', '--shards', '2'],
    lines: ['chatbench: --shard and --shards conflict: give --shard i/N, or --shards N with JOB_COMPLETION_INDEX set'],
  },
  {
    name: '--shard 3/2',
    args: ['--shard', '3/2'],
    lines: ['chatbench: --shard: "3/2": the shard index must be between 1 and 2'],
  },
  { name: 'an unknown flag', args: ['--bogus'], lines: ['chatbench: Unknown argument: bogus'] },
  {
    name: 'a mistyped flag (issue 27)',
    args: ['--concurency', '2'],
    lines: ['chatbench: Unknown argument: concurency (--concurency: did you mean --concurrency?)'],
  },
  // Was a TypeError with a stack trace: yargs makes an array of a single-valued flag given twice.
  {
    name: 'a single-valued flag given twice',
    args: ['--dataset', GOOD, '--dataset', `${D}/empty.csv`],
    lines: [`chatbench: --dataset was given 2 times ("${GOOD}", "${D}/empty.csv"); give it once`],
  },
];

async function refuse(sim: RunningSimulator, c: Case, baseUrl = sim.baseUrl): Promise<void> {
  const dir = scratch();
  const out = join(dir, 'run');
  const dataset = c.args.includes('--dataset') ? [] : ['--dataset', GOOD];
  const args = ['eval', '--base-url', baseUrl, '--token', TOKENS.demo, ...dataset, ...c.args, '--out', out];
  const run = await runCli(args, { cwd: ROOT });
  const lines = run.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('hint: '));
  expect({ code: run.code, lines, stdout: run.stdout }).toEqual({ code: 2, lines: c.lines, stdout: '' });
  expect(run.stderr).not.toMatch(STACK_LINE);
  expect(existsSync(out)).toBe(false);
  expect(sim.stats().requests).toBe(0);
}

describe('eval refuses bad input with its exact message, exit 2, nothing sent', () => {
  it.each(DATASET_CASES)('dataset: $name', async (c) => refuse(await startSim(), c));
  it.each(MODELS_CASES)('sets file: $name', async (c) => refuse(await startSim(), c));
  it.each(COMMAND_LINE_CASES)('command line: $name', async (c) => refuse(await startSim(), c));

  it.each([
    {
      url: 'localhost:8080/api',
      line: 'chatbench: --base-url: "localhost:8080/api" must start with http:// or https://',
    },
    {
      url: '127.0.0.1:8080/api',
      line: 'chatbench: --base-url: "127.0.0.1:8080/api" is not a URL; give the scheme too, e.g. http://127.0.0.1:8080/api',
    },
  ])('command line: a base URL without scheme ($url)', async ({ url, line }) =>
    refuse(await startSim(), { name: url, args: [], lines: [line] }, url),
  );
});
