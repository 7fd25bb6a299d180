import { expect, it } from 'vitest';
import { PyException, PyTuple, pyRepr, reprString } from './python-repr.js';

it.each([
  ['plain', "'plain'"],
  ["it's", `"it's"`],
  [`both ' and "`, `'both \\' and "'`],
  ['line\nbreak\ttab\\', "'line\\nbreak\\ttab\\\\'"],
  ['\u0001', "'\\x01'"],
  ['café 中文', "'café 中文'"],
])('reprString(%j) is %s, as CPython prints it', (text, want) => expect(reprString(text)).toBe(want));

it('prints JSON values, tuples and exceptions as Python does', () => {
  expect(pyRepr({ a: null, b: true, c: [1, 2.5, 'x'], d: {} })).toBe(
    "{'a': None, 'b': True, 'c': [1, 2.5, 'x'], 'd': {}}",
  );
  expect(pyRepr(new PyTuple(['body']))).toBe("('body',)");
  expect(pyRepr(new PyTuple(['body', 'urls', 0]))).toBe("('body', 'urls', 0)");
  expect(pyRepr(new PyException('ValueError', "can't"))).toBe(`ValueError("can't")`);
  expect(pyRepr([])).toBe('[]');
});
