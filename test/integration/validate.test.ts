/**
 * `chatbench validate` run in-process through main(): good inputs give a summary and exit 0;
 * each bad input gives its one-line messages on stderr, exit 2 and no stack trace (issue 7 §4).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createFakeIo } from '../helpers/fake-io.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const DATASETS = 'test/fixtures/datasets';
const MODELS = 'test/fixtures/models';
const GOOD = `${DATASETS}/good.csv`;
const EXAMPLE = 'datasets/models.example.json';

async function run(...argv: string[]) {
  const fake = createFakeIo({ cwd: root });
  const code = await main(['validate', ...argv], fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

/** What main prints for an InputError: the first problem prefixed, one problem per line. */
const printed = (problems: string[]) => `chatbench: ${problems.join('\n')}\n`;

describe('chatbench validate: good inputs', () => {
  it('summarises the dataset, the example sets and the planned requests', async () => {
    const { code, stdout, stderr } = await run('--dataset', GOOD, '--sets-file', EXAMPLE, '--mode', 'both');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        `Dataset ${GOOD}`,
        '  questions     5',
        '  categories    hr 1, finance 1, engineering 1, security 1, (none) 1',
        '  metadata      owner',
        '  expectations  4 with expected documents, 2 with phrase checks, 1 expecting no answer, 1 with filters',
        `Sets (${EXAMPLE})`,
        '  fast          openai gpt-4o-mini, temperature 0',
        '  accurate      openai gpt-4o, temperature 0',
        '  side-by-side  multi-model (stream only): openai gpt-4o-mini, temperature 0 | anthropic claude-sonnet-4, temperature 0',
        '  defaults      include_citations=true, origin="api"',
        'Plan (--mode both, per repeat)',
        '  stream  15 requests (5 questions × 3 sets)',
        '  full    10 requests (5 questions × 2 sets; 1 multi-model set runs streamed only)',
        '  total   25 requests',
        'OK: nothing was sent.',
        '',
      ].join('\n'),
    );
  });

  it('--set without a file; no mcp_headers value is ever printed', async () => {
    const quick = await run('-d', GOOD, '--set', 'fast=openai:gpt-4o-mini@0', '--set', 'big=openai:gpt-4o');
    expect(quick.code).toBe(0);
    expect(quick.stdout).toContain(
      'Sets (no --sets-file)\n  fast      openai gpt-4o-mini, temperature 0\n  big       openai gpt-4o\n',
    );
    expect(quick.stdout).toContain('  stream  10 requests (5 questions × 2 sets)\n');

    const secret = await run('-d', GOOD, '-m', `${MODELS}/with-defaults.json`);
    expect(secret.code).toBe(0);
    expect(secret.stdout).toContain('mcp_headers={Authorization: <redacted>}, project=7 (instructions, 24 characters)');
    expect(secret.stdout + secret.stderr).not.toContain('fixture-secret-value');
  });

  it('no sets at all plans the one default set', async () => {
    const { code, stdout } = await run('-d', GOOD, '--mode', 'full');
    expect(code).toBe(0);
    expect(stdout).toContain("  default   the service's configured model\n");
    expect(stdout).toContain('  full    5 requests (5 questions × 1 set)\n');
  });
});

describe('chatbench validate: bad inputs exit 2 with their messages and no stack trace', () => {
  it.each([
    {
      name: 'missing dataset',
      argv: ['-d', `${DATASETS}/missing.csv`],
      problems: [`${DATASETS}/missing.csv: no such file`],
    },
    { name: 'empty dataset', argv: ['-d', `${DATASETS}/empty.csv`], problems: [`${DATASETS}/empty.csv: empty file`] },
    {
      name: 'not UTF-8',
      argv: ['-d', `${DATASETS}/latin1.csv`],
      problems: [`${DATASETS}/latin1.csv: not UTF-8 (first invalid byte on line 2; save the file as UTF-8)`],
    },
    {
      name: 'no question column',
      argv: ['-d', `${DATASETS}/no-question.csv`],
      problems: [
        `${DATASETS}/no-question.csv: no "question" column ("Question" is not it: column names are lowercase); the header row is: id,Question`,
      ],
    },
    {
      name: 'unterminated quote',
      argv: ['-d', `${DATASETS}/unterminated.csv`],
      problems: [
        `${DATASETS}/unterminated.csv:3: unterminated quote: a quoted cell opened in this record is never closed`,
      ],
    },
    {
      name: 'bad rows: spaced id, bad boolean, empty question, empty element, bad integer, duplicate id',
      argv: ['-d', `${DATASETS}/bad-rows.csv`],
      problems: [
        `${DATASETS}/bad-rows.csv:2: expected_documents: element 2 " it-vpn-mac" has surrounding spaces`,
        `${DATASETS}/bad-rows.csv:2: expect_no_answer: "maybe" is not a boolean (use true/false, yes/no, 1/0, or leave it empty)`,
        `${DATASETS}/bad-rows.csv:3: question: is empty`,
        `${DATASETS}/bad-rows.csv:3: expected_documents: element 2 is empty`,
        `${DATASETS}/bad-rows.csv:3: persona_id: "two" is not an integer`,
        `${DATASETS}/bad-rows.csv:4: id: duplicate id "q1" (first on line 2)`,
      ],
    },
    {
      name: 'sets file not JSON',
      argv: ['-d', GOOD, '-m', `${MODELS}/not-json.json`],
      problems: [`${MODELS}/not-json.json: not JSON: trailing comma before "}" at line 3, column 98`],
    },
    {
      name: 'unknown field',
      argv: ['-d', GOOD, '-m', `${MODELS}/unknown-field.json`],
      problems: [
        `${MODELS}/unknown-field.json: sets[0].llm_override.model_name: unknown field (known fields: model_configuration_id, model_provider, model_version, temperature, display_name)`,
      ],
    },
    {
      name: 'temperature 2.5',
      argv: ['-d', GOOD, '-m', `${MODELS}/temperature.json`],
      problems: [
        `${MODELS}/temperature.json: sets[0].llm_override.temperature: temperature must be between 0 and 2 (got 2.5)`,
      ],
    },
    {
      name: 'llm_overrides of one entry',
      argv: ['-d', GOOD, '-m', `${MODELS}/one-override.json`],
      problems: [
        `${MODELS}/one-override.json: sets[0].llm_overrides: has one entry: the service ignores a single entry; use llm_override`,
      ],
    },
    {
      name: 'llm_overrides of four entries',
      argv: ['-d', GOOD, '-m', `${MODELS}/four-overrides.json`],
      problems: [
        `${MODELS}/four-overrides.json: sets[0].llm_overrides: has 4 entries: the service takes at most 3 models at once`,
      ],
    },
    {
      name: 'duplicate set names',
      argv: ['-d', GOOD, '-m', `${MODELS}/duplicate-names.json`],
      problems: [`${MODELS}/duplicate-names.json: sets[1].name: duplicate set name "fast" (first at sets[0])`],
    },
    {
      name: 'a multi-model set with --mode full',
      argv: ['-d', GOOD, '-m', EXAMPLE, '--mode', 'full'],
      problems: [
        'set "side-by-side" is multi-model and --mode is full: the service answers 400 to multi-model with stream=false; use --mode stream',
      ],
    },
    {
      name: 'a bad --set and a set name the file already has',
      argv: ['-d', GOOD, '-m', EXAMPLE, '--set', 'fast=openai:gpt-4o', '--set', 'warm=openai:gpt-4o@2.5'],
      problems: [
        `--set "fast=openai:gpt-4o": a set named "fast" is already defined in ${EXAMPLE}`,
        '--set "warm=openai:gpt-4o@2.5": the temperature 2.5 is outside 0 to 2 (expected name=provider:version[@temperature], e.g. fast=openai:gpt-4o-mini@0)',
      ],
    },
    {
      name: 'problems of the dataset and of the sets file together',
      argv: ['-d', `${DATASETS}/empty.csv`, '-m', `${MODELS}/temperature.json`],
      problems: [
        `${DATASETS}/empty.csv: empty file`,
        `${MODELS}/temperature.json: sets[0].llm_override.temperature: temperature must be between 0 and 2 (got 2.5)`,
      ],
    },
  ])('$name', async ({ argv, problems }) => {
    const { code, stdout, stderr } = await run(...argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(printed(problems));
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it.each([
    { argv: [], message: 'Missing required argument: dataset' },
    { argv: ['-d', GOOD, '--mode', 'fast'], message: 'Invalid values:' },
    { argv: ['-d', GOOD, '--bogus'], message: 'Unknown argument: bogus' },
  ])('usage error $argv', async ({ argv, message }) => {
    const { code, stderr } = await run(...argv);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('--help shows the options and examples', async () => {
    const { code, stdout } = await run('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('--dataset');
    expect(stdout).toContain('--mode');
    expect(stdout).toContain('Examples:');
  });
});
