import { describe, expect, it } from 'vitest';
import { createLineSplitter } from './lines.js';

const split = (chunks: string[]) => {
  const lines: string[] = [];
  const splitter = createLineSplitter((line) => lines.push(line));
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return lines;
};

describe("the floor client's line splitter", () => {
  it('gives every line whatever the chunking, without empty lines or \\r', () => {
    const text = '{"a":1}\n\n{"b":2}\r\n{"c":3}';
    const whole = split([text]);
    expect(whole).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    for (let cut = 0; cut <= text.length; cut++) expect(split([text.slice(0, cut), text.slice(cut)])).toEqual(whole);
    expect(split([...text])).toEqual(whole);
  });

  it('gives nothing for an empty body and the tail at the end', () => {
    expect(split([])).toEqual([]);
    expect(split(['{"x":', '1}'])).toEqual(['{"x":1}']);
  });
});
