import { describe, expect, it } from 'vitest';
import { mergeLayers, type OptionSpec } from './layers.js';
import { manifestLayer } from './resume-layer.js';

const spec = (key: string, type: OptionSpec['type'] = 'string', def?: unknown): OptionSpec => ({
  key,
  type,
  array: false,
  choices: null,
  default: def,
});
const specs = [
  spec('dataset'),
  spec('concurrency', 'number', 4),
  spec('token'),
  spec('token-file'),
  spec('sim', 'boolean', false),
  spec('base-url'),
  spec('out'),
  spec('resume'),
];

describe('manifestLayer', () => {
  const invocation = {
    config_file: null,
    options: { dataset: 'q.csv', concurrency: 8, token: '[redacted]', sim: false, out: 'run', 'judge-model': 'gone' },
    sources: {
      dataset: 'flag',
      concurrency: 'env CHATBENCH_CONCURRENCY',
      token: 'flag',
      sim: 'default',
      out: 'flag',
      'judge-model': 'flag',
    },
  };

  it('replays what the run was given, not its defaults, secrets, directory or options this command lacks', () => {
    const layer = manifestLayer(invocation, specs, 'run/manifest.json');
    expect(layer.values).toEqual({ dataset: 'q.csv', concurrency: 8 });
    expect(layer.sources.dataset).toEqual({
      kind: 'run',
      file: 'run/manifest.json',
      key: 'invocation.options.dataset',
    });
  });

  it('ranks under the config file, the environment and the flags', () => {
    const layer = manifestLayer(
      { ...invocation, options: { ...invocation.options, sim: true }, sources: { ...invocation.sources, sim: 'flag' } },
      specs,
      'run/manifest.json',
    );
    const file = {
      values: { 'base-url': 'https://chat.example.com/api' },
      sources: { 'base-url': { kind: 'file', file: 'c.json', key: 'base-url' } as const },
    };
    const flags = { values: { concurrency: 2 }, sources: { concurrency: { kind: 'flag' } as const } };
    const merged = mergeLayers(specs, [layer, file, flags], [['base-url', 'sim']]);
    // The config file's target beats the run's --sim (an alternative of a higher layer), and a flag beats the run.
    expect([merged.values.sim, merged.values['base-url'], merged.values.concurrency, merged.values.dataset]).toEqual([
      false,
      'https://chat.example.com/api',
      2,
      'q.csv',
    ]);
  });

  it("replays a run recorded before a rename under the option's name today (models → sets-file)", () => {
    const old = {
      config_file: null,
      options: { dataset: 'q.csv', models: 'sets.json' },
      sources: { dataset: 'flag', models: 'flag' },
    };
    const layer = manifestLayer(old, [...specs, spec('sets-file')], 'run/manifest.json');
    expect(layer.values).toEqual({ dataset: 'q.csv', 'sets-file': 'sets.json' });
    expect(layer.sources['sets-file']).toEqual({
      kind: 'run',
      file: 'run/manifest.json',
      key: 'invocation.options.models',
    });
  });
});
