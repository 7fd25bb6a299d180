import { describe, expect, it } from 'vitest';
import {
  describeSource,
  envLayer,
  envName,
  envValue,
  fileLayer,
  fileValue,
  flagLayer,
  mergeLayers,
  type OptionSpec,
} from './layers.js';

const spec = (key: string, over: Partial<OptionSpec> = {}): OptionSpec => ({
  key,
  type: 'string',
  array: false,
  choices: null,
  default: undefined,
  ...over,
});
const SPECS: OptionSpec[] = [
  spec('rate', { type: 'number' }),
  spec('concurrency', { type: 'number', default: 4 }),
  spec('timeout', { default: '60s' }),
  spec('mode', { choices: ['stream', 'full'], default: 'stream' }),
  spec('sim', { type: 'boolean', default: false }),
  spec('slo', { array: true, default: [] }),
  spec('token', { array: true, default: [] }),
  spec('token-file'),
  spec('base-url'),
];
const input = (document: unknown, command = 'load') => ({
  file: 'c.json',
  document,
  command,
  commandNames: ['load', 'eval'],
  reserved: ['config'],
});

describe('names and sources', () => {
  it('maps an option to CHATBENCH_<OPTION>, or to the name its command gives', () => {
    expect(envName('base-url')).toBe('CHATBENCH_BASE_URL');
    expect(envName('retry-429')).toBe('CHATBENCH_RETRY_429');
    expect(envName('token', { token: 'CHATBENCH_SIM_TOKEN' })).toBe('CHATBENCH_SIM_TOKEN');
  });

  it('describes each source as the manifest records it', () => {
    expect(
      [
        { kind: 'default' },
        { kind: 'flag' },
        { kind: 'env', name: 'CHATBENCH_RATE' },
        { kind: 'file', file: 'c.json', key: 'load.rate' },
      ].map((s) => describeSource(s as never)),
    ).toEqual(['default', 'flag', 'env CHATBENCH_RATE', 'file c.json (load.rate)']);
  });
});

describe('values from a file and from the environment', () => {
  it.each([
    ['a number', spec('n', { type: 'number' }), 8, { value: 8 }],
    ['a string for a number', spec('n', { type: 'number' }), '8', { problem: 'expected a number, got "8"' }],
    ['a number for a string (timeout: 60)', spec('t'), 60, { value: '60' }],
    ['a boolean', spec('b', { type: 'boolean' }), true, { value: true }],
    ['a string for a boolean', spec('b', { type: 'boolean' }), 'yes', { problem: 'expected true or false, got "yes"' }],
    ['a choice', spec('m', { choices: ['a', 'b'] }), 'c', { problem: 'expected one of a, b, got "c"' }],
    ['one value for a list', spec('l', { array: true }), 'x', { value: ['x'] }],
    ['a list', spec('l', { array: true }), ['x', 'y'], { value: ['x', 'y'] }],
    [
      'a list for one value',
      spec('s'),
      ['x'],
      { problem: 'expected one string, got a list (only repeatable options take lists)' },
    ],
    ['an object', spec('s'), { a: 1 }, { problem: 'expected a string, got an object' }],
  ] as const)('file: %s', (_name, s, value, expected) => {
    expect(fileValue(s, value)).toEqual(expected);
  });

  it.each([
    ['a number', spec('n', { type: 'number' }), '2.5', { value: 2.5 }],
    ['not a number', spec('n', { type: 'number' }), 'fast', { problem: 'expected a number, got "fast"' }],
    ['true as 1', spec('b', { type: 'boolean' }), '1', { value: true }],
    ['false', spec('b', { type: 'boolean' }), 'false', { value: false }],
    ['one value of a list', spec('l', { array: true }), 'ttfp_ms.p95<=2000', { value: ['ttfp_ms.p95<=2000'] }],
    ['a JSON list', spec('l', { array: true }), '["a", "b"]', { value: ['a', 'b'] }],
    [
      'a broken JSON list',
      spec('l', { array: true }),
      '["a"',
      { problem: 'a list is written as a JSON array, e.g. ["a", "b"]; this one does not parse' },
    ],
  ] as const)('env: %s', (_name, s, text, expected) => {
    expect(envValue(s, text)).toEqual(expected);
  });

  it('reads CHATBENCH_<OPTION> for every option, an empty one as unset, every problem at once', () => {
    const { layer, problems } = envLayer(SPECS, {
      CHATBENCH_RATE: 'x',
      CHATBENCH_MODE: 'sideways',
      CHATBENCH_SIM: '1',
      CHATBENCH_TIMEOUT: '',
      CHATBENCH_BASE_URL: 'http://h/api',
    });
    expect(layer.values).toEqual({ sim: true, 'base-url': 'http://h/api' });
    expect(layer.sources.sim).toEqual({ kind: 'env', name: 'CHATBENCH_SIM' });
    expect(problems).toEqual([
      'CHATBENCH_RATE: expected a number, got "x"',
      'CHATBENCH_MODE: expected one of stream, full, got "sideways"',
    ]);
  });
});

describe('fileLayer', () => {
  it("takes top-level options, then the running command's section over them", () => {
    const { layer, problems } = fileLayer(
      SPECS,
      input({ rate: 5, timeout: '30s', load: { rate: 20 }, eval: { repeat: 3 } }),
    );
    expect(problems).toEqual([]);
    expect(layer.values).toEqual({ rate: 20, timeout: '30s' });
    expect(layer.sources.rate).toEqual({ kind: 'file', file: 'c.json', key: 'load.rate' });
    expect(layer.sources.timeout).toEqual({ kind: 'file', file: 'c.json', key: 'timeout' });
    expect(layer.otherSections).toEqual({ eval: { repeat: 3 } });
  });

  it('lists every problem with the file and key; unknown top-level keys go back to the caller', () => {
    const { problems, layer } = fileLayer(
      [...SPECS, spec('config')],
      input({
        rate: 'fast',
        concurency: 4,
        config: 'x.json',
        load: { mode: 'sideways', tiemout: '1s', out: null },
        eval: 3,
      }),
    );
    expect(problems).toEqual([
      'c.json: rate: expected a number, got "fast"',
      'c.json: config: cannot be set in a config file',
      "c.json: eval: a command's section must be an object of its options",
      'c.json: load.mode: expected one of stream, full, got "sideways"',
      'c.json: load.tiemout: not an option of chatbench load (did you mean "timeout"?)',
      'c.json: load.out: not an option of chatbench load',
    ]);
    expect(layer.otherKeys).toEqual(['concurency']);
  });

  it('refuses a top level that is not an object', () => {
    expect(fileLayer(SPECS, input(['rate', 5])).problems).toEqual([
      'c.json: the top level must be an object of options (e.g. {"concurrency": 8, "load": {"rate": 20}})',
    ]);
  });

  it('says a key given no value, rather than taking null for a value', () => {
    expect(fileLayer(SPECS, input({ timeout: null })).problems).toEqual([
      'c.json: timeout: no value (leave the key out to leave the option unset)',
    ]);
  });
});

describe('mergeLayers: defaults < file < env < flags, defaults once', () => {
  const file = fileLayer(SPECS, input({ rate: 5, timeout: '30s', mode: 'full', 'token-file': 'tokens.txt' })).layer;
  const env = envLayer(SPECS, { CHATBENCH_TIMEOUT: '45s', CHATBENCH_TOKEN: 'secret' }).layer;

  it('lets the command line win, then the environment, then the file, then the defaults', () => {
    const merged = mergeLayers(SPECS, [file, env, flagLayer(SPECS, { rate: 9 })]);
    expect(merged.values).toMatchObject({ rate: 9, timeout: '45s', mode: 'full', concurrency: 4, sim: false, slo: [] });
    expect(Object.fromEntries(Object.entries(merged.sources).map(([k, s]) => [k, describeSource(s)]))).toMatchObject({
      rate: 'flag',
      timeout: 'env CHATBENCH_TIMEOUT',
      mode: 'file c.json (mode)',
      concurrency: 'default',
    });
  });

  it("drops a lower layer's alternative when a higher layer sets one (CHATBENCH_TOKEN over a file's token-file)", () => {
    const merged = mergeLayers(SPECS, [file, env, flagLayer(SPECS, {})], [['token', 'token-file']]);
    expect(merged.values.token).toEqual(['secret']);
    expect(merged.values['token-file']).toBeUndefined();
    const flagged = mergeLayers(
      SPECS,
      [file, env, flagLayer(SPECS, { 'token-file': 'mine.txt' })],
      [['token', 'token-file']],
    );
    expect(flagged.values['token-file']).toBe('mine.txt');
    expect(flagged.values.token).toEqual([]);
    expect(flagged.sources.token).toEqual({ kind: 'default' });
  });

  it('keeps two alternatives of one layer, for the command to refuse', () => {
    const merged = mergeLayers(
      SPECS,
      [flagLayer(SPECS, { token: ['a'], 'token-file': 't' })],
      [['token', 'token-file']],
    );
    expect(merged.values).toMatchObject({ token: ['a'], 'token-file': 't' });
  });

  it("a false boolean is no alternative: --no-sim leaves the file's base URL", () => {
    const merged = mergeLayers(
      SPECS,
      [fileLayer(SPECS, input({ 'base-url': 'http://h/api' })).layer, flagLayer(SPECS, { sim: false })],
      [['base-url', 'sim']],
    );
    expect(merged.values).toMatchObject({ 'base-url': 'http://h/api', sim: false });
  });
});
