/**
 * chatbench view in-process through main(): the server's page, assets and JSON API, its loopback
 * and same-origin guards, a review appended to reviews.jsonl and read back by `compare` (and its
 * gates) as human_pass_rate; a missing bundle and a missing run as one-line errors.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ComparisonSchema } from '../../src/compare/schema.js';
import { ReviewSchema } from '../../src/records/review.js';
import type { ViewData, ViewDetail } from '../../src/viewer/view-data.js';
import { createFakeIo, type FakeIo } from '../helpers/fake-io.js';
import { buildTestBundle, VIEW_JUDGEMENT, writeViewRun } from '../helpers/view-run.js';

const root = mkdtempSync(join(tmpdir(), 'chatbench-view-'));
let bundleDir: string;
let fake: FakeIo;
let exit: Promise<number>;
let url: URL;

/** A raw request, so the Host and Origin headers are ours to set. */
function raw(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: url.port, path, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
const origin = () => `http://127.0.0.1:${url.port}`;
const postReview = (
  body: unknown,
  headers: Record<string, string> = { origin: origin(), 'content-type': 'application/json' },
) => raw('/api/reviews', { method: 'POST', headers, body: JSON.stringify(body) });

async function run(argv: string[], env: Record<string, string> = {}) {
  const io = createFakeIo({ cwd: root, env });
  const code = await main(argv, io.io);
  return { code, out: io.stdout(), err: io.stderr() };
}

beforeAll(async () => {
  bundleDir = await buildTestBundle();
  writeViewRun(root, 'current');
  writeViewRun(root, 'base', 'baseline');
  // --open runs $BROWSER with the URL: here a script that writes it down.
  const browser = join(root, 'browser.sh');
  writeFileSync(browser, `#!/bin/sh\necho "$1" > "${join(root, 'opened.txt')}"\n`);
  chmodSync(browser, 0o755);
  fake = createFakeIo({ cwd: root, env: { CHATBENCH_VIEWER_DIR: bundleDir, BROWSER: browser } });
  exit = main(['view', 'current', '--baseline', 'base', '--reviewer', 'ann', '--open'], fake.io);
  // Bounded (40 s, inside the hook timeout) to catch a hang, not a slow machine: 5 s was a speed bound.
  for (let i = 0; i < 1600 && !/http:\/\/127\.0\.0\.1:\d+\//.test(fake.stdout()); i += 1)
    await new Promise((r) => setTimeout(r, 25));
  const printed = /http:\/\/127\.0\.0\.1:\d+\//.exec(fake.stdout());
  if (!printed) throw new Error(`no URL printed: ${fake.stdout()} ${fake.stderr()}`);
  url = new URL(printed[0]);
});

afterAll(async () => {
  fake.interrupt();
  await exit;
});

describe('chatbench view', () => {
  it('prints its loopback URL, opens it with --open, and serves the page with a strict policy and the bundled assets', async () => {
    expect(fake.stdout()).toContain('reviews are saved as ann');
    const opened = join(root, 'opened.txt');
    // The opener (a shell script) creates the file before it writes the line: wait for the line.
    const line = () => (existsSync(opened) ? readFileSync(opened, 'utf8') : '');
    for (let i = 0; i < 3000 && !line().endsWith('\n'); i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(line().trim()).toBe(url.href);
    const page = await raw('/', { headers: { host: url.host } });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.body).toContain('<script src="/assets/viewer.js">');
    expect(page.body).not.toMatch(/https?:\/\//);
    const js = await raw('/assets/viewer.js', { headers: { host: url.host } });
    expect(js.status).toBe(200);
    expect(js.body).toBe(readFileSync(join(bundleDir, 'viewer.js'), 'utf8'));
  });

  it('answers only requests addressed to its own loopback host', async () => {
    expect((await raw('/api/data', { headers: { host: `rebound.example:${url.port}` } })).status).toBe(421);
    expect((await raw('/api/data', { headers: { host: `localhost:${url.port}` } })).status).toBe(200);
  });

  it('serves the runs: columns, questions, figures, the baseline comparison', async () => {
    const data = JSON.parse((await raw('/api/data', { headers: { host: url.host } })).body) as ViewData;
    expect(data.mode).toBe('server');
    expect(data.reviewer).toBe('ann');
    expect(data.columns.map((c) => c.label)).toEqual([
      'fast (stream)',
      'fast (full)',
      'duo · small (stream)',
      'duo · large (stream)',
    ]);
    expect(data.questions.map((q) => q.id)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5', 'q6']);
    expect(data.questions[1]!.cells[0]).toMatchObject({ state: 'fail', change: 'broken' });
    expect(data.figures.map((f) => f.name)).not.toContain('human_pass_rate');
    // Token figures per set, counted when the run is loaded (results.jsonl holds none).
    for (const name of ['output_tokens.p50', 'output_tokens_per_s.p50', 'tpot_per_token_ms.p50']) {
      const at = data.figures.findIndex((f) => f.name === name);
      expect({ name, value: data.columns[0]!.figures[at]?.value ?? null }).toEqual({ name, value: expect.any(Number) });
    }
    expect(
      data.runs[0]!.comparison?.groups.find((g) => g.set === 'fast' && g.mode === 'stream')?.broken.map(
        (b) => b.question_id,
      ),
    ).toEqual(['q2']);
  });

  it('searches whole answers of every run, every word', async () => {
    const search = async (q: string) =>
      (
        JSON.parse((await raw(`/api/search?q=${encodeURIComponent(q)}`, { headers: { host: url.host } })).body) as {
          ids: string[];
        }
      ).ids.sort();
    expect(await search('policy ABOUT q4')).toEqual(['q4']);
    expect(await search('segment-very-long-path-segment-end')).toEqual(['q1', 'q2', 'q3', 'q4', 'q5', 'q6']);
    expect(await search('nowhere else q7')).toEqual([]);
  });

  it('gives one question: every record of every run and the baseline, every field kept', async () => {
    const detail = JSON.parse((await raw('/api/question?id=q1', { headers: { host: url.host } })).body) as ViewDetail;
    expect(detail.records).toHaveLength(6);
    expect(detail.records.filter((r) => r.run === -1)).toHaveLength(3);
    expect(detail.records.find((r) => r.record.key === 'q1|fast|stream|0' && r.run === 0)?.record.judge).toEqual(
      VIEW_JUDGEMENT,
    );
    expect((await raw('/api/question?id=nope', { headers: { host: url.host } })).status).toBe(404);
  });

  it('takes a review only as a same-origin JSON post naming an answer of the run', async () => {
    const review = { run: 0, key: 'q1|fast|stream|0', model_index: null, verdict: 'pass', note: '' };
    expect((await postReview(review, { 'content-type': 'application/json', host: url.host })).status).toBe(403);
    expect(
      (await postReview(review, { origin: 'http://evil.example', 'content-type': 'application/json' })).status,
    ).toBe(403);
    expect((await postReview(review, { origin: origin(), 'content-type': 'text/plain' })).status).toBe(415);
    expect((await postReview({ ...review, verdict: 'great' })).status).toBe(400);
    const wrongModel = await postReview({ ...review, model_index: 1 });
    expect(wrongModel.status).toBe(400);
    expect(wrongModel.body).toContain('model_index must be null');
    expect((await postReview({ ...review, key: 'q9|fast|stream|0' })).status).toBe(400);
    expect(existsSync(join(root, 'current', 'reviews.jsonl'))).toBe(false);
  });

  it('appends a review to reviews.jsonl; the served figures, compare and its gates read it as human_pass_rate', async () => {
    const saved = await postReview({
      run: 0,
      key: 'q1|fast|stream|0',
      model_index: null,
      verdict: 'pass',
      note: ' right ',
    });
    expect(saved.status).toBe(200);
    await postReview({
      run: 0,
      key: 'q2|fast|stream|0',
      model_index: null,
      verdict: 'fail',
      note: 'cites the wrong policy',
    });
    await postReview({ run: 0, key: 'q3|duo|stream|0', model_index: 1, verdict: 'pass', note: '' });
    const lines = readFileSync(join(root, 'current', 'reviews.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => ReviewSchema.parse(JSON.parse(l)));
    expect(lines.map((r) => [r.key, r.model_index, r.verdict, r.reviewer, r.note])).toEqual([
      ['q1|fast|stream|0', null, 'pass', 'ann', 'right'],
      ['q2|fast|stream|0', null, 'fail', 'ann', 'cites the wrong policy'],
      ['q3|duo|stream|0', 1, 'pass', 'ann', ''],
    ]);

    const data = JSON.parse((await raw('/api/data', { headers: { host: url.host } })).body) as ViewData;
    const human = data.figures.findIndex((f) => f.name === 'human_pass_rate');
    expect(data.columns[0]!.figures[human]).toMatchObject({ value: 0.5, n: 2 });
    expect(data.columns[3]!.figures[human]).toMatchObject({ value: 1, n: 1 });
    expect(data.questions[1]!.cells[0]!.review).toBe('fail');

    const compared = await run([
      'compare',
      'base',
      'current',
      '--out',
      'cmp',
      '--resamples',
      '200',
      '--gate',
      'set:fast mode:stream human_pass_rate >= 0.9',
    ]);
    expect(compared.code).toBe(1);
    expect(compared.out).toMatch(/human_pass_rate\s/);
    expect(compared.out).toContain('FAIL human_pass_rate >= 0.9 failed for set fast/stream: 50%');
    const comparison = ComparisonSchema.parse(JSON.parse(readFileSync(join(root, 'cmp', 'compare.json'), 'utf8')));
    const fast = comparison.groups.find((g) => g.set === 'fast' && g.mode === 'stream')!;
    expect(fast.figures.find((f) => f.figure === 'human_pass_rate')).toMatchObject({
      baseline: null,
      current: 0.5,
      headline: true,
    });
  });

  it('report rebuilds summary.json with human_pass_rate and the report tables show it', async () => {
    const r = await run(['report', 'current'], { CHATBENCH_VIEWER_DIR: bundleDir });
    expect(r.code).toBe(0);
    const summary = JSON.parse(readFileSync(join(root, 'current', 'summary.json'), 'utf8')) as {
      groups: {
        set: string;
        mode: string;
        model_index: number | null;
        human_pass_rate?: { mean: number; n: number };
      }[];
    };
    expect(summary.groups.find((g) => g.set === 'fast' && g.mode === 'stream')?.human_pass_rate).toMatchObject({
      mean: 0.5,
      n: 2,
    });
    expect(summary.groups.find((g) => g.set === 'fast' && g.mode === 'full')?.human_pass_rate).toBeUndefined();
    expect(readFileSync(join(root, 'current', 'report.md'), 'utf8')).toContain('human pass rate');
    expect(readFileSync(join(root, 'current', 'report.html'), 'utf8')).toContain('human pass rate');
  });

  // Last of this block: it adds 60 reviews to the run the tests above count.
  it('60 reviews posted at once: each accepted one is one whole line of reviews.jsonl (issue 23)', async () => {
    const file = join(root, 'current', 'reviews.jsonl');
    const before = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').length : 0;
    const keys = ['q1|fast|stream|0', 'q2|fast|stream|0'];
    const posts = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        postReview({
          run: 0,
          key: keys[i % 2],
          model_index: null,
          verdict: i % 3 === 0 ? 'fail' : 'pass',
          note: `note ${i} ${'n'.repeat(i * 40)}`,
        }),
      ),
    );
    expect(posts.map((p) => p.status)).toEqual(Array.from({ length: 60 }, () => 200));
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(before + 60);
    const notes = lines.slice(before).map((l) => ReviewSchema.parse(JSON.parse(l)).note);
    expect(new Set(notes.map((n) => n.split(' ')[1])).size).toBe(60);
  });
});

describe('chatbench view: bad input', () => {
  it('a missing bundle is one line, exit 3', async () => {
    const r = await run(['view', 'current'], { CHATBENCH_VIEWER_DIR: join(root, 'no-bundle') });
    expect(r.code).toBe(3);
    expect(r.err).toMatch(
      /^chatbench: the viewer's bundle is missing \(.*viewer\.js\): build it with `npm run build:viewer` \(npm ci builds it\)\n$/,
    );
  });
  it('a missing run is one line, exit 2', async () => {
    const r = await run(['view', 'nowhere'], { CHATBENCH_VIEWER_DIR: bundleDir });
    expect(r.code).toBe(2);
    expect(r.err).toBe('chatbench: nowhere: no such file\n');
  });
});
