/**
 * Issue 23, run files as untrusted input: a results.jsonl line past the cap is refused naming its
 * file and line (exit 2), a bad reviews.jsonl or labels.jsonl in a run directory is refused before
 * anything is sent (not after the run), and reviews appended all at once are one line each.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendReview, readReviews } from '../../src/app/store/reviews.js';
import { REVIEW_VERSION, type Review } from '../../src/records/review.js';
import { LIMITS } from '../../src/util/limits.js';
import { fullAnswer, startHostileServer } from '../helpers/hostile-server.js';
import { runCli, scratch, STACK_LINE, writeCsv } from './helpers.js';

const answer = () => ({ headers: { 'content-type': 'application/json' }, body: fullAnswer({ answer: 'Fine.' }) });
const questions = (n: number) => Array.from({ length: n }, (_, i) => [`q${i}`, `Question ${i}?`, '', '', 'false', 'x']);

describe('a bad file in the run directory is refused before anything is sent', () => {
  it.each([
    { file: 'reviews.jsonl', content: '{"review_version":1}\n', says: 'reviews.jsonl:1: key' },
    { file: 'labels.jsonl', content: 'not json\n', says: 'labels.jsonl:1: not JSON' },
  ])('eval --resume with a malformed $file: exit 2, no request', async ({ file, content, says }) => {
    const server = await startHostileServer(answer);
    const dir = scratch();
    const dataset = writeCsv(dir, questions(3));
    const out = join(dir, 'run');
    const args = ['eval', '--base-url', server.baseUrl, '--token', 'tok-1234', '--dataset', dataset, '--mode', 'full'];
    expect((await runCli([...args, '--out', out])).code).toBe(0);
    const sent = server.requests.length;
    const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n');
    writeFileSync(join(out, 'results.jsonl'), `${lines[0]}\n`);
    writeFileSync(join(out, file), content);
    const run = await runCli([...args, '--resume', out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(says);
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(server.requests).toHaveLength(sent);
  });
});

describe('results.jsonl lines past the cap', () => {
  it('report on a run whose line is longer than the cap: file:line: line longer than N bytes, exit 2', async () => {
    const server = await startHostileServer(answer);
    const dir = scratch();
    const out = join(dir, 'run');
    const dataset = writeCsv(dir, questions(2));
    expect(
      (
        await runCli([
          'eval',
          '--base-url',
          server.baseUrl,
          '--token',
          'tok-1234',
          '--dataset',
          dataset,
          '--mode',
          'full',
          '--out',
          out,
        ])
      ).code,
    ).toBe(0);
    const [first] = readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n');
    // Written as a hostile service would make it: valid JSON, one field of cap + 1 bytes.
    const huge = `${first!.slice(0, -1)},"pad":"${'x'.repeat(LIMITS.runFileLineBytes)}"}`;
    writeFileSync(join(out, 'results.jsonl'), `${first}\n${huge}\n`);
    const run = await runCli(['report', out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `results.jsonl:2: line longer than ${LIMITS.runFileLineBytes.toLocaleString('en-US')} bytes`,
    );
  });
});

describe("the viewer's review writes", () => {
  it('60 reviews appended at once: 60 lines, each a whole review', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'reviews.jsonl'), '{"torn":'); // a crash mid-append, cut before the first write
    const review = (i: number): Review => ({
      review_version: REVIEW_VERSION,
      key: `q${i}|a|full|0`,
      model_index: null,
      question_id: `q${i}`,
      set: 'a',
      mode: 'full',
      repeat: 0,
      verdict: i % 2 === 0 ? 'pass' : 'fail',
      note: 'n'.repeat(i * 50),
      reviewer: 'me',
      at: '2026-01-01T00:00:00.000Z',
    });
    await Promise.all(Array.from({ length: 60 }, (_, i) => appendReview(dir, review(i))));
    const { reviews } = await readReviews(dir);
    expect(reviews).toHaveLength(60);
    expect(new Set(reviews.map((r) => r.key)).size).toBe(60);
  });
});
