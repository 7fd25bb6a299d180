import { describe, expect, it } from 'vitest';
import { RENAMED, isRetired, renameEnv, renameFileKeys, renameFlags } from './renamed.js';

describe('renameFlags', () => {
  it.each([
    ['eval', ['eval', '--models', 'm.json'], ['eval', '--sets-file', 'm.json'], '--models is now --sets-file'],
    ['validate', ['validate', '--models=m.json'], ['validate', '--sets-file=m.json'], '--models is now --sets-file'],
    [
      'compare',
      ['compare', 'a', 'b', '--gates', 'g.json'],
      ['compare', 'a', 'b', '--gates-file', 'g.json'],
      '--gates is now --gates-file',
    ],
    ['load', ['load', '--model', 'closed'], ['load', '--load-model', 'closed'], '--model is now --load-model'],
    ['serve', ['serve', '--config', 'sim.json'], ['serve', '--sim-config', 'sim.json'], '--config is now --sim-config'],
  ])('%s: %j → %j, saying so once', (command, argv, renamed, note) => {
    const result = renameFlags([...argv, ...argv.slice(-2)], command);
    expect(result.argv).toEqual([...renamed, ...renamed.slice(-2)]);
    expect(result.notes).toEqual([`chatbench: ${note} (the old name still works)`]);
  });

  it("leaves another command's option of the same word alone, and everything after --", () => {
    expect(renameFlags(['mock-llm', '--model', 'mock-a'], 'mock-llm')).toEqual({
      argv: ['mock-llm', '--model', 'mock-a'],
      notes: [],
    });
    expect(renameFlags(['eval', '--config', 'c.json'], 'eval')).toEqual({
      argv: ['eval', '--config', 'c.json'],
      notes: [],
    });
    expect(renameFlags(['eval', '--', '--models'], 'eval').argv).toEqual(['eval', '--', '--models']);
    expect(renameFlags(['eval', '--models-x', 'a'], 'eval').argv).toEqual(['eval', '--models-x', 'a']);
    expect(renameFlags(['--models', 'a'], undefined).argv).toEqual(['--models', 'a']);
  });
});

describe('renameEnv', () => {
  it('reads CHATBENCH_<OLD> as CHATBENCH_<NEW>, the new one winning when both are set', () => {
    expect(renameEnv({ CHATBENCH_MODELS: 'm.json' }, 'load')).toEqual({
      env: { CHATBENCH_SETS_FILE: 'm.json' },
      notes: ['chatbench: CHATBENCH_MODELS is now CHATBENCH_SETS_FILE (the old name still works)'],
    });
    expect(renameEnv({ CHATBENCH_GATES: 'old.json', CHATBENCH_GATES_FILE: 'new.json' }, 'merge').env).toEqual({
      CHATBENCH_GATES_FILE: 'new.json',
    });
    expect(renameEnv({ CHATBENCH_MODELS: '' }, 'eval')).toEqual({ env: { CHATBENCH_MODELS: '' }, notes: [] });
  });

  it("keeps CHATBENCH_CONFIG chatbench's own config file for serve, and CHATBENCH_MODEL for other commands", () => {
    expect(renameEnv({ CHATBENCH_CONFIG: 'c.json' }, 'serve')).toEqual({
      env: { CHATBENCH_CONFIG: 'c.json' },
      notes: [],
    });
    expect(renameEnv({ CHATBENCH_MODEL: 'x' }, 'mock-llm')).toEqual({ env: { CHATBENCH_MODEL: 'x' }, notes: [] });
  });
});

describe('renameFileKeys', () => {
  it("renames the top level and the command's section, the new key winning", () => {
    const { document, notes } = renameFileKeys(
      {
        models: 'a.json',
        load: { model: 'closed', 'sets-file': 'b.json', models: 'c.json' },
        eval: { gates: 'g.json' },
      },
      'load',
      'c.json',
    );
    expect(document).toEqual({
      'sets-file': 'a.json',
      load: { 'load-model': 'closed', 'sets-file': 'b.json' },
      eval: { gates: 'g.json' },
    });
    expect(notes).toEqual([
      'chatbench: c.json: models is now sets-file (the old name still works)',
      'chatbench: c.json: load.models is now load.sets-file (the old name still works)',
      'chatbench: c.json: load.model is now load.load-model (the old name still works)',
    ]);
  });

  it('leaves a document that is no object, and a command without renames, as they are', () => {
    expect(renameFileKeys([1], 'eval', 'c.json')).toEqual({ document: [1], notes: [] });
    expect(renameFileKeys({ models: 'a' }, 'report', 'c.json')).toEqual({ document: { models: 'a' }, notes: [] });
  });
});

describe('RENAMED', () => {
  it('names each retired option once per command, never as a new name', () => {
    const pairs = RENAMED.flatMap((r) => r.commands.map((c) => `${c} ${r.old}`));
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(RENAMED.filter((r) => RENAMED.some((s) => s.now === r.old))).toEqual([]);
    expect(isRetired('load', 'model')).toBe(true);
    expect(isRetired('mock-llm', 'model')).toBe(false);
  });
});
