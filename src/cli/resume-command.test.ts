import { describe, expect, it } from 'vitest';
import { resumeCommand, shellWord } from './resume-command.js';

const args = { dataset: 'q.csv', set: [], sim: false, mode: 'stream', repeat: 1 };
const invocation = (options: Record<string, unknown>, sources: Record<string, string> = {}) => ({
  config_file: null,
  options,
  sources,
});

describe('resumeCommand', () => {
  it('is --resume DIR alone when the manifest records the inputs', () => {
    expect(resumeCommand('reports/run 1', args, invocation({ dataset: 'q.csv' }, { dataset: 'flag' }))).toEqual({
      command: "chatbench eval --resume 'reports/run 1'",
      note: null,
    });
  });

  it('adds the inputs a caller gave in code (the demo) and notes a token given as a flag', () => {
    const demo = {
      dataset: '/pkg/datasets/sample.csv',
      'sets-file': '/pkg/datasets/models.json',
      set: [],
      sim: true,
      mode: 'both',
      repeat: 1,
    };
    expect(
      resumeCommand(
        'run',
        demo,
        invocation({ concurrency: 30, token: '[redacted]' }, { concurrency: 'default', token: 'flag' }),
      ),
    ).toEqual({
      command:
        'chatbench eval --resume run --sim --dataset /pkg/datasets/sample.csv --sets-file /pkg/datasets/models.json --mode both',
      note: 'give the token again (--token or CHATBENCH_TOKEN): the manifest never records it',
    });
  });

  it('quotes what a shell would split', () => {
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    expect(shellWord('a/b-c.csv')).toBe('a/b-c.csv');
  });
});
