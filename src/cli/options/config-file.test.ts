import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../errors.js';
import { readConfigFile } from './config-file.js';

const dir = mkdtempSync(join(tmpdir(), 'chatbench-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const configOf = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return { shown: `conf/${name}`, path: join(dir, name) };
};
const problemsOf = (location: { shown: string; path: string }): readonly string[] => {
  try {
    readConfigFile(location);
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  return [];
};

/** The "billion laughs" pattern: each level a list of ten aliases of the one before. */
function billionLaughs(levels: number, width: number): string {
  const lines = ['l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i <= levels; i++)
    lines.push(`l${i}: &l${i} [${Array.from({ length: width }, () => `*l${i - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

describe('readConfigFile: YAML anchors and aliases', () => {
  it('a plain YAML config is read', () => {
    expect(readConfigFile(configOf('ok.yaml', 'eval:\n  concurrency: 4\n  pass: ["*.md", "a*b"]\n'))).toEqual({
      eval: { concurrency: 4, pass: ['*.md', 'a*b'] },
    });
  });

  it.each([
    { name: 'an anchor and an alias', text: 'base: &b\n  concurrency: 4\neval: *b\n', line: 2 },
    { name: 'a merge key', text: 'base: &b {concurrency: 4}\neval:\n  <<: *b\n', line: 1 },
    { name: 'a scalar alias', text: 'token: &t abc\nother: *t\n', line: 1 },
  ])('$name: refused naming the file and the line of the anchor', ({ name, text, line }) => {
    expect(problemsOf(configOf(`${name.replaceAll(' ', '-')}.yml`, text))).toEqual([
      expect.stringMatching(
        new RegExp(`^conf/.*\\.yml:${line}: YAML anchors and aliases .* are not allowed in a config file`),
      ),
    ]);
  });

  it('a 260 KB "billion laughs" config is refused at its first anchor, without expanding it', () => {
    const text = billionLaughs(9, 2_900).slice(0, 260 * 1024);
    const [problem] = problemsOf(configOf('laughs.yaml', text));
    expect(problem).toMatch(/^conf\/laughs\.yaml:1: YAML anchors and aliases/);
  });
});
