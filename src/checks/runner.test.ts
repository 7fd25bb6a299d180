import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import type { CheckContext } from './context.js';
import { loadChecks } from './runner.js';
import { toCheckResult } from './result.js';

let dir: string;
const write = async (name: string, text: string) => {
  await writeFile(join(dir, name), text);
  return name;
};
const ctx = (answer: string): CheckContext => ({
  row: {
    id: 'q1',
    question: 'Q?',
    category: null,
    expected_documents: [],
    must_contain: [],
    must_not_contain: [],
    expect_no_answer: false,
    reference_answer: null,
    rubric: null,
    expected_tools: [],
    conversation: null,
    turn: null,
    metadata: { team: 'hr' },
  },
  set: 's',
  mode: 'stream',
  repeat: 0,
  model: null,
  outcome: 'ok',
  error_code: null,
  http_status: 200,
  answer,
  answer_text: answer,
  citations: [],
  cited_documents: [],
  top_documents: [],
  timings: {
    headers_ms: 1,
    ttfp_ms: 2,
    ttft_ms: 3,
    first_citation_ms: null,
    total_ms: 40,
    time_per_delta_ms: null,
    tpot_ms: null,
  },
  scores: null,
  tools_used: [],
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chatbench-checks-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadChecks', () => {
  const load = (path: string, timeoutMs = 1000) =>
    loadChecks({ path, cwd: dir, timeoutMs, reserved: new Set(['pass_rate', 'correctness']) });

  it("runs every named export on an answer; throws, rejections, bad returns and timeouts are that check's error, and the run goes on", async () => {
    const file = await write(
      'checks.mjs',
      `
      export const polite = (ctx) => !/stupid/i.test(ctx.answer_text);
      export function length_ok(ctx) { return ctx.answer.length <= 20 ? 1 : 0.5; }
      export const team = (ctx) => ({ pass: ctx.row.metadata.team === 'hr', reason: 'team ' + ctx.row.metadata.team });
      export async function fast(ctx) { await new Promise((r) => setTimeout(r, 1)); return { score: ctx.timings.total_ms / 100 }; }
      export const boom = () => { throw new TypeError('no way'); };
      export const rejects = async () => { throw 'plain'; };
      export const weird = () => 'yes';
      export const skip = () => undefined;
      export const spin = (ctx) => { if (ctx.answer.includes('spin')) for (;;) {} return true; };
      export default () => 1;
    `,
    );
    const checks = await load(file, 300);
    expect(checks.names).toEqual(['boom', 'fast', 'length_ok', 'polite', 'rejects', 'skip', 'spin', 'team', 'weird']);
    try {
      const first = await checks.run(ctx('A fine answer.'));
      expect(first).toEqual({
        polite: { score: 1, reason: null, error: null },
        length_ok: { score: 1, reason: null, error: null },
        team: { score: 1, reason: 'team hr', error: null },
        fast: { score: 0.4, reason: null, error: null },
        boom: { score: null, reason: null, error: 'threw: TypeError: no way' },
        rejects: { score: null, reason: null, error: 'threw: threw plain' },
        weird: {
          score: null,
          reason: null,
          error: 'returned string, not a boolean, a number or { pass, score, reason }',
        },
        skip: { score: null, reason: null, error: null },
        spin: { score: 1, reason: null, error: null },
      });
      const stuck = await checks.run(ctx('spin, a stupid and long answer'));
      expect(stuck.spin).toEqual({ score: null, reason: null, error: 'timed out after 300 ms' });
      expect(stuck.polite?.score).toBe(0);
      // A new worker takes over after the endless loop.
      expect((await checks.run(ctx('ok'))).spin).toEqual({ score: 1, reason: null, error: null });
    } finally {
      await checks.close();
    }
  });

  it('a check past the heap cap is its own error; the worker sees no secret and its output is captured', async () => {
    const file = await write(
      'boxed.mjs',
      `
      console.log('hello from a check');
      export const hog = (ctx) => { if (!ctx.answer.includes('hog')) return true; const keep = []; for (;;) keep.push(new Array(1e6).fill(ctx.answer)); };
      export const env = () => ({ reason: JSON.stringify({ env: process.env, argv: process.argv }) });
    `,
    );
    const checks = await loadChecks({
      path: file,
      cwd: dir,
      timeoutMs: 20_000,
      reserved: new Set(),
      env: { CHATBENCH_TOKEN: 'tok-secret-1234', JUDGE_API_KEY: 'k-secret', PATH: '/usr/bin' },
      heapMb: 48,
    });
    try {
      const boxed = await checks.run(ctx('hog'));
      expect(boxed.hog).toEqual({
        score: null,
        reason: null,
        error: expect.stringMatching(/ran out of the checks' \d+ MB heap/),
      });
      const seen = (await checks.run(ctx('fine'))).env?.reason ?? '';
      expect(JSON.parse(seen)).toEqual({ env: { PATH: '/usr/bin' }, argv: [expect.any(String), expect.any(String)] });
      expect(seen).not.toContain('secret');
    } finally {
      await checks.close();
    }
  }, 30_000);

  it('the checks of one answer share a total time: the one running when it ends, and those after it, are errors', async () => {
    const file = await write(
      'slow.mjs',
      `
      export const a_slow = () => new Promise((r) => setTimeout(() => r(true), 400));
      export const b_after = () => true;
    `,
    );
    const checks = await loadChecks({ path: file, cwd: dir, timeoutMs: 5_000, totalMs: 100, reserved: new Set() });
    try {
      expect(await checks.run(ctx('x'))).toEqual({
        a_slow: { score: null, reason: null, error: 'ran past the 100 ms the checks of one answer may take together' },
        b_after: {
          score: null,
          reason: null,
          error: 'not run: the checks before it ran past the 100 ms the checks of one answer may take together',
        },
      });
    } finally {
      await checks.close();
    }
  });

  it("a module that fails to load: its own output is in the message, never on chatbench's", async () => {
    await write('noisy.mjs', 'console.error("missing CONFIG"); throw new Error("no config");');
    await expect(load('noisy.mjs')).rejects.toThrow(/cannot load it: no config; its output: missing CONFIG/);
  });

  it.each([
    { name: 'a missing file', file: 'nope.mjs', text: null, message: /--checks nope\.mjs: no such file/ },
    {
      name: 'a module that fails to load',
      file: 'bad.mjs',
      text: 'export const a = ;',
      message: /cannot load it: SyntaxError/,
    },
    {
      name: 'a module that throws on import',
      file: 'throws.mjs',
      text: 'throw new Error("config missing");',
      message: /cannot load it: config missing/,
    },
    {
      name: 'no named function',
      file: 'default.mjs',
      text: 'export default () => 1; export const x = 3;',
      message: /exports no named function \(a default export is not a check/,
    },
    {
      name: 'a name taken by a figure',
      file: 'taken.mjs',
      text: 'export const correctness = () => 1;',
      message: /check "correctness" has the name of a figure/,
    },
  ])('refuses $name (exit 2)', async ({ file, text, message }) => {
    if (text !== null) await write(file, text);
    const attempt = load(file);
    await expect(attempt).rejects.toThrow(InputError);
    await expect(attempt).rejects.toThrow(message);
  });
});

it.each([
  { value: true, want: { score: 1, reason: null, error: null } },
  { value: 0.25, want: { score: 0.25, reason: null, error: null } },
  { value: Number.NaN, want: { score: null, reason: null, error: 'returned NaN, not a finite number' } },
  { value: { pass: false, reason: 'r' }, want: { score: 0, reason: 'r', error: null } },
  { value: { score: 0.5, pass: false }, want: { score: 0.5, reason: null, error: null } },
  { value: { score: '1' }, want: { score: null, reason: null, error: 'returned score "1", not a finite number' } },
  { value: { reason: 'only words' }, want: { score: null, reason: 'only words', error: null } },
  { value: null, want: { score: null, reason: null, error: null } },
  {
    value: [1],
    want: { score: null, reason: null, error: 'returned an array, not a boolean, a number or { pass, score, reason }' },
  },
])('toCheckResult($value)', ({ value, want }) => expect(toCheckResult(value)).toEqual(want));
