import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { parseSetsText, readSets } from './read-sets.js';

const problemsOf = (text: string): readonly string[] => {
  try {
    parseSetsText(text, 'models.json');
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).problems;
  }
  throw new Error('expected an InputError');
};
const json = (value: unknown) => JSON.stringify(value);
const mini = { model_provider: 'openai', model_version: 'gpt-4o-mini' };
const sonnet = { model_provider: 'anthropic', model_version: 'claude-sonnet-4' };

describe('parseSetsText: every rule with its message', () => {
  it.each([
    { name: 'not JSON', text: '{"sets": x}', want: ['models.json: not JSON: unexpected "x" at line 1, column 10'] },
    {
      name: 'a trailing comma',
      text: '{"sets": [\n  {"name": "a",}\n]}',
      want: ['models.json: not JSON: trailing comma before "}" at line 2, column 16'],
    },
    {
      name: 'cut short',
      text: '{"sets": [',
      want: ['models.json: not JSON: unexpected end of input at line 1, column 11'],
    },
    {
      name: 'an unknown token encoding',
      text: json({ sets: [{ name: 'a', encoding: 'o200k' }] }),
      want: [
        'models.json: sets[0].encoding: Invalid option: expected one of "o200k_base"|"o200k_harmony"|"cl100k_base"|"p50k_base"|"p50k_edit"|"r50k_base"',
      ],
    },
    {
      name: 'an unknown field in a set',
      text: json({ sets: [{ name: 'a', modle: 'x' }] }),
      want: [
        'models.json: sets[0].modle: unknown field (known fields: name, encoding, llm_override, llm_overrides, deep_research, continue_with)',
      ],
    },
    {
      name: 'an unknown field in an override',
      text: json({ sets: [{ name: 'a', llm_override: { model: 'gpt-4o' } }] }),
      want: [
        'models.json: sets[0].llm_override.model: unknown field (known fields: model_configuration_id, model_provider, model_version, temperature, display_name)',
      ],
    },
    {
      name: 'an unknown top-level field',
      text: json({ set: [] }),
      want: ['models.json: set: unknown field (known fields: sets, defaults, $schema)'],
    },
    {
      name: 'temperature 2.5',
      text: json({ sets: [{ name: 'hot', llm_override: { ...mini, temperature: 2.5 } }] }),
      want: ['models.json: sets[0].llm_override.temperature: temperature must be between 0 and 2 (got 2.5)'],
    },
    {
      name: 'a negative temperature in a multi-model entry',
      text: json({ sets: [{ name: 'm', llm_overrides: [mini, { ...sonnet, temperature: -1 }] }] }),
      want: ['models.json: sets[0].llm_overrides[1].temperature: temperature must be between 0 and 2 (got -1)'],
    },
    {
      name: 'llm_overrides of one entry',
      text: json({ sets: [{ name: 'a' }, { name: 'one', llm_overrides: [mini] }] }),
      want: ['models.json: sets[1].llm_overrides: has one entry: the service ignores a single entry; use llm_override'],
    },
    {
      name: 'llm_overrides of four entries',
      text: json({ sets: [{ name: 'four', llm_overrides: [mini, sonnet, mini, sonnet] }] }),
      want: ['models.json: sets[0].llm_overrides: has 4 entries: the service takes at most 3 models at once'],
    },
    {
      name: 'an empty llm_overrides',
      text: json({ sets: [{ name: 'none', llm_overrides: [] }] }),
      want: [
        'models.json: sets[0].llm_overrides: is empty: multi-model mode takes two or three entries (or leave it out)',
      ],
    },
    {
      name: 'both override kinds',
      text: json({ sets: [{ name: 'both', llm_override: mini, llm_overrides: [mini, sonnet] }] }),
      want: ['models.json: sets[0]: has both llm_override and llm_overrides; give one (llm_overrides for multi-model)'],
    },
    {
      name: 'duplicate set names',
      text: json({ sets: [{ name: 'fast' }, { name: 'slow' }, { name: 'fast', llm_override: mini }] }),
      want: ['models.json: sets[2].name: duplicate set name "fast" (first at sets[0])'],
    },
    { name: 'an empty name', text: json({ sets: [{ name: '' }] }), want: ['models.json: sets[0].name: is empty'] },
    {
      name: 'a name with a space',
      text: json({ sets: [{ name: 'my set' }] }),
      want: [
        'models.json: sets[0].name: may hold only letters, digits, ".", "_" and "-" (names appear in file names and flags)',
      ],
    },
    {
      name: 'a missing name',
      text: json({ sets: [{ llm_override: mini }] }),
      want: ['models.json: sets[0].name: Invalid input: expected string, received undefined'],
    },
    {
      name: 'a bad origin and an unknown default',
      text: json({ defaults: { origin: 'cli', stream: true } }),
      want: [
        'models.json: defaults.origin: Invalid option: expected one of "webapp"|"chrome_extension"|"api"|"slackbot"|"widget"|"discordbot"|"mobile"|"unknown"|"unset"',
        'models.json: defaults.stream: unknown field (known fields: persona_id, include_citations, additional_context, allowed_tool_ids, forced_tool_id, origin, mcp_headers, deep_research, project, tool_ids)',
      ],
    },
    {
      name: 'a project without instructions',
      text: json({ defaults: { project: { id: 7 } } }),
      want: ['models.json: defaults.project.instructions: Invalid input: expected string, received undefined'],
    },
    {
      name: 'deep research in a multi-model set (the service refuses it)',
      text: '{"sets": [{"name": "duo", "llm_overrides": [{"model_version": "a"}, {"model_version": "b"}], "deep_research": true}]}',
      want: [
        'models.json: sets[0].deep_research: is multi-model with deep_research: the service refuses deep research in multi-model mode (VALIDATION_ERROR); set "deep_research": false on this set',
      ],
    },
    {
      name: 'deep research from defaults reaches a multi-model set',
      text: '{"defaults": {"deep_research": true}, "sets": [{"name": "duo", "llm_overrides": [{"model_version": "a"}, {"model_version": "b"}]}]}',
      want: [
        'models.json: sets[0].llm_overrides: is multi-model with deep_research (from defaults): the service refuses deep research in multi-model mode (VALIDATION_ERROR); set "deep_research": false on this set',
      ],
    },
    {
      name: 'not an object',
      text: '[]',
      want: ['models.json: (top level): Invalid input: expected object, received array'],
    },
  ])('$name', ({ text, want }) => {
    expect(problemsOf(text)).toEqual(want);
  });

  it('lists every problem at once, in file order', () => {
    const text = json({
      sets: [
        { name: 'a b', llm_overrides: [{ ...mini, temperature: 3 }] },
        { name: 'x', llm_override: mini, llm_overrides: [mini, sonnet, mini, sonnet] },
        { name: 'x' },
      ],
      defaults: { include_citations: 'yes' },
    });
    expect(problemsOf(text)).toEqual([
      'models.json: sets[0].name: may hold only letters, digits, ".", "_" and "-" (names appear in file names and flags)',
      'models.json: sets[0].llm_overrides[0].temperature: temperature must be between 0 and 2 (got 3)',
      'models.json: sets[0].llm_overrides: has one entry: the service ignores a single entry; use llm_override',
      'models.json: sets[1]: has both llm_override and llm_overrides; give one (llm_overrides for multi-model)',
      'models.json: sets[1].llm_overrides: has 4 entries: the service takes at most 3 models at once',
      'models.json: sets[2].name: duplicate set name "x" (first at sets[1])',
      'models.json: defaults.include_citations: Invalid input: expected boolean, received string',
    ]);
  });

  it('never echoes a header value (they are secrets)', () => {
    const problems = problemsOf(json({ defaults: { mcp_headers: { Authorization: 'Bearer s3cret' }, origin: 5 } }));
    expect(problems.join('\n')).not.toContain('s3cret');
    expect(
      problemsOf('{"defaults": {"mcp_headers": {"Authorization": "Bearer s3cret"}} oops').join('\n'),
    ).not.toContain('s3cret');
  });
});

describe('parseSetsText: good files', () => {
  it('single, multi and default sets, with defaults', () => {
    const file = parseSetsText(
      json({
        sets: [
          { name: 'fast', llm_override: { ...mini, temperature: 0 } },
          { name: 'duo', llm_overrides: [mini, sonnet] },
          { name: 'base' },
        ],
        defaults: {
          persona_id: 2,
          include_citations: false,
          mcp_headers: { 'X-Token': 't' },
          project: { id: 7, instructions: 'Be brief.' },
        },
      }),
      'models.json',
    );
    expect(file.sets).toEqual([
      { name: 'fast', llm_override: { ...mini, temperature: 0 }, llm_overrides: null, multi: false },
      { name: 'duo', llm_override: null, llm_overrides: [mini, sonnet], multi: true },
      { name: 'base', llm_override: null, llm_overrides: null, multi: false },
    ]);
    expect(file.defaults).toEqual({
      persona_id: 2,
      include_citations: false,
      mcp_headers: { 'X-Token': 't' },
      project: { id: 7, instructions: 'Be brief.' },
    });
  });
  it('a file of defaults only has no sets', () => {
    expect(parseSetsText('{"defaults": {"origin": "api"}}', 'm.json')).toEqual({
      path: 'm.json',
      sets: [],
      defaults: { origin: 'api' },
    });
  });
  it('the shipped example has the three sets the simulator answers differently', async () => {
    const path = new URL('../../datasets/models.example.json', import.meta.url).pathname;
    const file = await readSets(path);
    expect(
      file.sets.map((set) => [
        set.name,
        set.multi,
        set.llm_override?.model_version ?? set.llm_overrides?.map((o) => o.model_version),
      ]),
    ).toEqual([
      ['fast', false, 'gpt-4o-mini'],
      ['accurate', false, 'gpt-4o'],
      ['side-by-side', true, ['gpt-4o-mini', 'claude-sonnet-4']],
    ]);
    expect(file.defaults).toEqual({ include_citations: true, origin: 'api' });
    expect(JSON.parse(await readFile(path, 'utf8'))).toHaveProperty('sets');
  });
});

describe('mcp_headers values with control characters (issue 23)', () => {
  it.each(['Bearer s3cret\r\nX-Injected: 1', 'Bearer s3cret\u0000', 'Bearer s3cret\u001b[31m'])(
    '%j is refused without echoing it',
    (value) => {
      const problems = problemsOf(json({ defaults: { mcp_headers: { Authorization: value } } }));
      expect(problems.join('\n')).toMatch(/defaults\.mcp_headers: a header value holds a control character/);
      expect(problems.join('\n')).not.toContain('s3cret');
    },
  );
});
