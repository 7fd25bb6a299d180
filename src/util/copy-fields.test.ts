import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { execPath } from 'node:process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileFieldCopy } from './copy-fields.js';

const COMPILED = pathToFileURL(resolve(import.meta.dirname, '../../dist/util/copy-fields.js')).href;

describe('compileFieldCopy', () => {
  it('copies the named fields, in order, and nothing else', () => {
    const copy = compileFieldCopy(['b', 'a', 'missing']);
    const to: Record<string, unknown> = { a: 0, b: 0, c: 3 };
    copy(to, { a: 1, b: 2, c: 9 });
    expect(to).toEqual({ a: 1, b: 2, c: 3, missing: undefined });
    expect(Object.keys(to)).toEqual(['a', 'b', 'c', 'missing']);
  });

  it('takes any name as data, never as code', () => {
    const odd = ['"]; throw new Error("x"); //', 'line\u2028break', '__proto__x', "it's"];
    const copy = compileFieldCopy(odd);
    const from = Object.fromEntries(odd.map((name, i) => [name, i]));
    const to: Record<string, unknown> = {};
    copy(to, from);
    expect(to).toEqual(from);
  });

  it('copies nothing for no names', () => {
    const to: Record<string, unknown> = { a: 1 };
    compileFieldCopy([])(to, { a: 2 });
    expect(to).toEqual({ a: 1 });
  });

  it('copies by the loop where code generation from strings is disallowed', () => {
    const script = `
      import { compileFieldCopy } from ${JSON.stringify(COMPILED)};
      const to = { a: 0 };
      compileFieldCopy(['a', 'b'])(to, { a: 1, b: 2, c: 3 });
      let generated = true;
      try { new Function('return 1'); } catch { generated = false; }
      process.stdout.write(JSON.stringify({ to, generated }));`;
    const child = spawnSync(
      execPath,
      ['--disallow-code-generation-from-strings', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ to: { a: 1, b: 2 }, generated: false });
  });
});
