import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { checkSetsForMode, plannedModes, resolveSets, type ModeOption } from './resolve.js';
import type { SetDefinition } from './schema.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLE = 'datasets/models.example.json';
const single: SetDefinition = {
  name: 'one',
  llm_override: { model_version: 'gpt-4o' },
  llm_overrides: null,
  multi: false,
};
const multi: SetDefinition = {
  name: 'duo',
  llm_override: null,
  llm_overrides: [{ model_version: 'a' }, { model_version: 'b' }],
  multi: true,
};

describe('resolveSets', () => {
  it('no file and no flag: one set named default with no override', async () => {
    expect(await resolveSets({ setFlags: [] })).toEqual({
      sets: [{ name: 'default', llm_override: null, llm_overrides: null, multi: false }],
      defaults: {},
      modelsPath: null,
    });
  });
  it('file sets first, then flag sets', async () => {
    const resolved = await resolveSets({ modelsPath: EXAMPLE, setFlags: ['warm=openai:gpt-4o@1'], cwd: root });
    expect(resolved.sets.map((set) => set.name)).toEqual(['fast', 'accurate', 'side-by-side', 'warm']);
    expect(resolved.defaults).toEqual({ include_citations: true, origin: 'api' });
    expect(resolved.modelsPath).toBe(EXAMPLE);
  });
  it('lists every problem at once: a name taken by the file, by an earlier flag, and a bad flag', async () => {
    const error = await resolveSets({
      modelsPath: EXAMPLE,
      setFlags: ['fast=openai:x', 'a=o:v', 'a=o:w', 'bad'],
      cwd: root,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).problems).toEqual([
      `--set "fast=openai:x": a set named "fast" is already defined in ${EXAMPLE}`,
      '--set "a=o:w": a set named "a" is already defined by an earlier --set',
      '--set "bad": no "=" between the set name and the model (expected name=provider:version[@temperature], e.g. fast=openai:gpt-4o-mini@0)',
    ]);
  });
  it('a missing sets file and a bad flag are reported together', async () => {
    const error = await resolveSets({ modelsPath: 'nope.json', setFlags: ['x=y'], cwd: root }).catch((e: unknown) => e);
    expect((error as InputError).problems).toEqual([
      'nope.json: no such file',
      '--set "x=y": no ":" between the provider and the model version (expected name=provider:version[@temperature], e.g. fast=openai:gpt-4o-mini@0)',
    ]);
  });
});

describe('checkSetsForMode and plannedModes', () => {
  it('a multi-model set with --mode full is refused with the reason', () => {
    expect(() => checkSetsForMode([single, multi], 'full')).toThrow(
      new InputError([
        'set "duo" is multi-model and --mode is full: the service answers 400 to multi-model with stream=false; use --mode stream',
      ]),
    );
  });
  it.each<ModeOption>(['stream', 'both'])('a multi-model set with --mode %s is fine', (mode) => {
    expect(() => checkSetsForMode([single, multi], mode)).not.toThrow();
  });
  it.each([
    { mode: 'stream' as const, set: single, want: ['stream'] },
    { mode: 'full' as const, set: single, want: ['full'] },
    { mode: 'both' as const, set: single, want: ['stream', 'full'] },
    { mode: 'both' as const, set: multi, want: ['stream'] },
    { mode: 'stream' as const, set: multi, want: ['stream'] },
  ])('plannedModes($set.name, $mode) = $want', ({ mode, set, want }) => {
    expect(plannedModes(set, mode)).toEqual(want);
  });
});
