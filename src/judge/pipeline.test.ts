import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiskCache, noCache, verdictKey, type VerdictCache } from './cache.js';
import type { AskResult, JudgeAsk, JudgeClient } from './client.js';
import type { JudgedAnswer, QuestionContext } from './inputs.js';
import { createJudge, type JudgeOptions } from './pipeline.js';
import type { Prompts } from './prompts.js';

const PROMPTS: Prompts = { correctness: 'C', groundedness: 'G', relevance: 'R', rubric: 'U' };
const answer: JudgedAnswer = {
  answer: 'You get 25 days [[1]](https://d.example/a).',
  citations: [{ citation_number: 1, document_id: 'a' }],
  top_documents: [
    { document_id: 'a', title: 'PTO', link: 'https://d.example/a', blurb: 'You get 25 days of PTO.', highlights: [] },
  ],
};
const context: QuestionContext = {
  question: 'How many days?',
  reference_answer: '25 days',
  rubric: null,
  expect_no_answer: false,
};

/** A client that answers from `reply` (by ask, in call order) and counts calls. */
function fakeClient(
  reply: (ask: JudgeAsk, call: number) => AskResult | Promise<AskResult>,
): JudgeClient & { calls: JudgeAsk[] } {
  const calls: JudgeAsk[] = [];
  return { model: 'fake', calls, structured: () => true, ask: async (ask) => reply(ask, calls.push(ask) - 1) };
}
const judgeWith = (client: JudgeClient, over: Partial<JudgeOptions> = {}) =>
  createJudge({
    client,
    cache: noCache,
    prompts: PROMPTS,
    promptVersion: 'v1',
    figures: ['correctness', 'groundedness', 'relevance', 'rubric'],
    repeat: 1,
    concurrency: 4,
    ...over,
  });

describe('createJudge', () => {
  it('asks each applicable figure once, records N/A ones with why, and keeps the reasons', async () => {
    const client = fakeClient((ask) => ({
      ok: true,
      score: ask.system === 'C' ? 0.5 : 1,
      reason: `reason ${ask.system}`,
      attempts: 1,
    }));
    const judgement = await judgeWith(client).judge(answer, context);
    expect(client.calls.map((c) => c.system)).toEqual(['C', 'G', 'R']);
    expect(judgement).toEqual({
      model: 'fake',
      prompt_version: 'v1',
      verdicts: {
        correctness: { status: 'ok', score: 0.5, reason: 'reason C', error: null, asks: [0.5], cached: 0 },
        groundedness: { status: 'ok', score: 1, reason: 'reason G', error: null, asks: [1], cached: 0 },
        relevance: { status: 'ok', score: 1, reason: 'reason R', error: null, asks: [1], cached: 0 },
        rubric: { status: 'not_applicable', score: null, reason: 'no rubric', error: null, asks: [], cached: 0 },
      },
    });
    expect(client.calls[2]?.kind).toBe('score');
  });

  it('with --judge-repeat the verdict is the mean of the answered asks; no answer at all is judge_error', async () => {
    const scores = [1, 0, 1];
    const client = fakeClient((ask, call) =>
      ask.system === 'C'
        ? { ok: true, score: scores[call % 3]!, reason: null, attempts: 1 }
        : { ok: false, error: 'HTTP 500', attempts: 3 },
    );
    const judge = judgeWith(client, { figures: ['correctness', 'relevance'], repeat: 3, concurrency: 1 });
    const { verdicts } = await judge.judge(answer, context);
    expect(verdicts.correctness).toMatchObject({ status: 'ok', asks: [1, 0, 1] });
    expect(verdicts.correctness?.score).toBeCloseTo(2 / 3, 12);
    expect(verdicts.relevance).toEqual({
      status: 'judge_error',
      score: null,
      reason: null,
      error: 'HTTP 500',
      asks: [null, null, null],
      cached: 0,
    });
    expect(judge.stats()).toEqual({ cached: 0, calls: 3 + 9, failed: 3, first_error: 'HTTP 500' });
  });

  it.each([1, 2, 4])('never has more than %i calls in flight', async (limit) => {
    let inFlight = 0;
    let peak = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const client = fakeClient(async () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await gate;
      inFlight -= 1;
      return { ok: true, score: 1, reason: null, attempts: 1 };
    });
    const judge = judgeWith(client, { concurrency: limit, figures: ['relevance'] });
    const answers = Array.from({ length: 6 }, (_, i) =>
      judge.judge({ ...answer, answer: `Answer ${i} is here.` }, context),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(inFlight).toBe(limit);
    release();
    await Promise.all(answers);
    expect(peak).toBe(limit);
  });

  it('asks once for two answers with the same text in flight at once', async () => {
    const client = fakeClient(async () => ({ ok: true, score: 1, reason: null, attempts: 1 }));
    const judge = judgeWith(client, { figures: ['relevance'] });
    await Promise.all([judge.judge(answer, context), judge.judge(answer, context)]);
    expect(client.calls).toHaveLength(1);
  });

  it('fetches the cited pages for groundedness when asked to', async () => {
    const client = fakeClient((ask) => ({
      ok: true,
      score: ask.user.includes('THE WHOLE PAGE') ? 1 : 0,
      reason: null,
      attempts: 1,
    }));
    const asked: string[][] = [];
    const judge = judgeWith(client, {
      figures: ['groundedness'],
      fetchPages: async (links) => (asked.push([...links]), new Map(links.map((l) => [l, 'THE WHOLE PAGE']))),
    });
    expect((await judge.judge(answer, context)).verdicts.groundedness?.score).toBe(1);
    expect(asked).toEqual([['https://d.example/a']]);
  });
});

describe('the verdict cache', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chatbench-judge-cache-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a second judge with the same cache makes no call; another model, prompt version or ask does', async () => {
    const cache: VerdictCache = createDiskCache(join(dir, 'a'));
    const first = fakeClient(() => ({ ok: true, score: 0.75, reason: 'kept', attempts: 1 }));
    await judgeWith(first, { cache, repeat: 2 }).judge(answer, context);
    expect(first.calls).toHaveLength(6); // correctness, groundedness, relevance × 2 asks
    const second = fakeClient(() => ({ ok: true, score: 0, reason: 'new', attempts: 1 }));
    const again = judgeWith(second, { cache, repeat: 2 });
    const judgement = await again.judge(answer, context);
    expect(second.calls).toHaveLength(0);
    expect(judgement.verdicts.correctness).toEqual({
      status: 'ok',
      score: 0.75,
      reason: 'kept',
      error: null,
      asks: [0.75, 0.75],
      cached: 2,
    });
    expect(again.stats()).toMatchObject({ cached: 6, calls: 0 });
    const third = fakeClient(() => ({ ok: true, score: 0, reason: null, attempts: 1 }));
    await judgeWith(third, { cache, repeat: 3, promptVersion: 'v2', figures: ['relevance'] }).judge(answer, context);
    expect(third.calls).toHaveLength(3);
  });

  it('keeps no failure; a damaged file is a miss', async () => {
    const cache = createDiskCache(join(dir, 'b'));
    const failing = fakeClient(() => ({ ok: false, error: 'HTTP 503', attempts: 1 }));
    await judgeWith(failing, { cache, figures: ['relevance'] }).judge(answer, context);
    expect(await readdir(join(dir, 'b')).catch(() => [])).toEqual([]);
    const key = verdictKey({ model: 'm', promptVersion: 'v1', task: 'relevance', input: '{}', ask: 0 });
    await cache.set(key, { score: 0.5, reason: null });
    expect(await cache.get(key)).toEqual({ score: 0.5, reason: null });
    await writeFile(join(dir, 'b', key.slice(0, 2), `${key}.json`), '{"score": 7');
    expect(await cache.get(key)).toBeUndefined();
  });
});
