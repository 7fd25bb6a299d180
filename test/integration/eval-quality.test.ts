/**
 * Answer quality end to end (issue 14), in-process through main() over real HTTP: reference
 * answers, the simulator's judge asked through --judge URL like any OpenAI-compatible endpoint,
 * --judge-repeat, the user's checks, labels and the judge's agreement, the reports, `report DIR`
 * byte for byte, a rerun with unchanged answers asking the judge nothing (counted at the
 * simulator's judge endpoint), a failing judge (judge_error, never a failed request), gates on
 * judged figures and checks, and the bad inputs refused before anything is sent. One simulator
 * for the file; its model cites exactly, so two runs give the same answers.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { RequestRecordSchema, type RequestRecord } from '../../src/records/record.js';
import { SummarySchema } from '../../src/records/summary.js';
import { loadCorpus, startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { TOKENS } from '../helpers/start-sim.js';

let sim: RunningSimulator;
let judgeUrl: string;
const dir = mkdtempSync(join(tmpdir(), 'chatbench-quality-'));
const cacheDir = join(dir, 'judge-cache');
const judgeCalls = () => Object.values(sim.stats().http['chat-completions']).reduce((a, b) => a + b, 0);
const openUrlsCalls = () => Object.values(sim.stats().http['open-urls']).reduce((a, b) => a + b, 0);
const chatCalls = () => Object.values(sim.stats().http['send-chat-message']).reduce((a, b) => a + b, 0);

beforeAll(async () => {
  sim = await startSimulator({
    corpus: await loadCorpus(),
    config: {
      chat: {
        time_scale: 0.01,
        profiles: {
          'gpt-4o': { wrong_citation_rate: 0, missed_citation_rate: 0 },
          'gpt-4o-mini': { wrong_citation_rate: 0, missed_citation_rate: 0 },
        },
      },
      judge: { latency_ms: { median: 0, p99: 0 } },
    },
  });
  judgeUrl = new URL(sim.baseUrl).origin;
});
afterAll(() => sim.close());

const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const DATASET = write(
  'questions.csv',
  [
    'id,question,expected_documents,expect_no_answer,reference_answer,rubric',
    'q1,How many days of paid time off do full-time employees receive per calendar year?,hr-pto-policy,false,"Full-time employees receive 25 days of paid time off per calendar year.","Gives the number ""25 days""."',
    'q2,How many weeks of fully paid parental leave does Northwind offer?,hr-parental-leave,false,Northwind offers 18 weeks of fully paid parental leave.,',
    'q3,What does the cafeteria serve for lunch?,,true,,',
  ].join('\n'),
);
const MODELS = write(
  'models.json',
  JSON.stringify({
    sets: [
      { name: 'solo', llm_override: { model_provider: 'openai', model_version: 'gpt-4o' } },
      {
        name: 'duo',
        llm_overrides: [
          { model_provider: 'openai', model_version: 'gpt-4o-mini' },
          { model_provider: 'openai', model_version: 'gpt-4o' },
        ],
      },
    ],
  }),
);
write(
  'checks.mjs',
  `
export const polite = (ctx) => !/stupid/i.test(ctx.answer_text ?? '');
export function cites_policy(ctx) { return { pass: ctx.cited_documents.length > 0, reason: ctx.cited_documents.length + ' cited' }; }
export const picky = (ctx) => { if (ctx.row.id === 'q2') throw new Error('not my business'); return ctx.timings.total_ms !== null; };
`,
);
write('labels.csv', 'question_id,verdict,set,figure\nq1,pass,,\nq2,fail,solo,correctness\n');

async function cli(args: string[], env: Record<string, string> = {}) {
  const fake = createFakeIo({ env, cwd: dir });
  const code = await main(args, fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}
const evalArgs = (out: string, ...more: string[]) => [
  'eval',
  '--base-url',
  sim.baseUrl,
  '--token',
  TOKENS.demo,
  '--dataset',
  DATASET,
  '--sets-file',
  MODELS,
  '--out',
  out,
  '--judge',
  judgeUrl,
  '--judge-model',
  'sim-judge',
  '--judge-cache-dir',
  cacheDir,
  ...more,
];
const records = (out: string): RequestRecord[] =>
  readFileSync(join(out, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => RequestRecordSchema.parse(JSON.parse(l)));
const byKey = (rs: RequestRecord[], key: string) => rs.find((r) => r.key === key)!;
const file = (out: string, name: string) => readFileSync(join(out, name), 'utf8');

describe('answer quality, judged by the simulator through --judge URL', () => {
  const run1 = join(dir, 'run1');

  it('scores answers against the reference, judges them (twice each), runs the checks and reports all of it', async () => {
    const before = judgeCalls();
    const pagesBefore = openUrlsCalls();
    const { code, stderr } = await cli(
      evalArgs(
        run1,
        '--judge-repeat',
        '2',
        '--checks',
        'checks.mjs',
        '--checks-timeout',
        '5s',
        '--labels',
        'labels.csv',
        '--fetch-cited',
      ),
    );
    expect(code, stderr).toBe(0);
    // --fetch-cited: each cited page once per run, through open-urls (a batch per answer at most).
    const links = new Set(
      records(run1)
        .flatMap((r) => [r, ...(r.models ?? [])])
        .flatMap((f) => f.top_documents.filter((d) => f.cited_document_ids.includes(d.document_id)).map((d) => d.link)),
    );
    expect(stderr).toMatch(
      new RegExp(`judge: \\d+ calls, \\d+ verdicts from the cache, ${links.size} cited pages? fetched`),
    );
    expect(openUrlsCalls() - pagesBefore).toBeLessThanOrEqual(links.size);
    const rs = records(run1);
    expect(rs).toHaveLength(6);
    const q1 = byKey(rs, 'q1|solo|stream|0');
    expect(q1.reference_answer).toMatch(/25 days/);
    expect(q1.scores?.answer_f1).toBeGreaterThan(0.2);
    expect(q1.scores?.rouge_l).toBeGreaterThan(0.2);
    expect(q1.judge?.model).toBe('sim-judge');
    expect(q1.judge?.prompt_version).toBe('v1');
    expect(q1.judge?.verdicts.correctness).toMatchObject({ status: 'ok', score: 1, asks: [1, 1] });
    expect(q1.judge?.verdicts.rubric).toMatchObject({ status: 'ok', score: 1 });
    expect(q1.scores?.correctness).toBe(1);
    expect(q1.top_documents.map((d) => d.document_id)).toContain('hr-pto-policy');
    expect(q1.checks).toEqual({
      cites_policy: { score: 1, reason: '1 cited', error: null },
      picky: { score: 1, reason: null, error: null },
      polite: { score: 1, reason: null, error: null },
    });
    const q2 = byKey(rs, 'q2|solo|stream|0');
    expect(q2.judge?.verdicts.rubric).toMatchObject({ status: 'not_applicable', reason: 'no rubric' });
    expect(q2.checks.picky).toEqual({ score: null, reason: null, error: 'threw: not my business' });
    const q3 = byKey(rs, 'q3|solo|stream|0');
    expect([q3.outcome, q3.judge?.verdicts.correctness?.status, q3.judge?.verdicts.relevance?.score]).toEqual([
      'ok',
      'not_applicable',
      1,
    ]);
    const duo = byKey(rs, 'q1|duo|stream|0');
    expect(duo.judge).toBeNull();
    expect(duo.models?.map((m) => m.judge?.verdicts.correctness?.status)).toEqual(['ok', 'ok']);
    expect(judgeCalls() - before).toBeGreaterThan(0);

    const summary = SummarySchema.parse(JSON.parse(file(run1, 'summary.json')));
    expect(summary.quality?.judge).toEqual({ model: 'sim-judge', prompt_version: 'v1', repeat: 2 });
    expect(summary.quality?.checks).toEqual(['cites_policy', 'picky', 'polite']);
    expect(summary.quality?.pass_rule).toMatch(/^default: /);
    expect(summary.quality?.consistency.find((c) => c.figure === 'correctness')).toMatchObject({ flipped: 0 });
    const agreement = summary.quality?.agreement.find((a) => a.figure === 'correctness');
    expect(agreement).toMatchObject({ n: 4, human_pass: 3 }); // q1 × 3 answers pass; q2 solo fail
    const solo = summary.groups.find((g) => g.set === 'solo')!;
    expect(solo.scores.correctness?.n).toBe(2);
    expect(solo.scores.picky?.n).toBe(2);
    expect(solo.figure_errors).toEqual({ picky: 1 });
    expect(solo.by_category.uncategorised?.scores.groundedness).not.toBeNull();

    const md = file(run1, 'report.md');
    for (const text of [
      '## Answer quality',
      '**Pass rule:** default:',
      '**Judge:** sim-judge (prompts v1), each figure asked 2 times',
      '### Agreement with human verdicts',
      '### Judge consistency',
      '### Judge and check errors',
      '| correctness |',
      '| check polite |',
      '**Reference answer:**',
    ]) {
      expect(md).toContain(text);
    }
    expect(file(run1, 'report.html')).toContain('data-chart="judged-scores"');
    const csvHeader = file(run1, 'results.csv').split('\n')[0]!;
    expect(csvHeader).toContain('correctness,groundedness,relevance,rubric');
    expect(csvHeader).toContain('pass,judge_errors,check.cites_policy,check.picky,check.polite');
    expect(file(run1, 'labels.jsonl').trim().split('\n')).toHaveLength(2);
  });

  it('`report DIR` rebuilds every report byte for byte without asking the judge', async () => {
    const names = ['summary.json', 'report.md', 'report.html', 'results.csv', 'junit.xml'];
    const before = Object.fromEntries(names.map((n) => [n, file(run1, n)]));
    const calls = judgeCalls();
    expect((await cli(['report', run1])).code).toBe(0);
    for (const name of names) expect(file(run1, name), name).toBe(before[name]);
    expect(judgeCalls()).toBe(calls);
  });

  it('a rerun with unchanged answers makes zero judge calls; --no-judge-cache asks again', async () => {
    const calls = judgeCalls();
    const rerun = await cli(
      evalArgs(join(dir, 'run2'), '--judge-repeat', '2', '--checks', 'checks.mjs', '--fetch-cited'),
    );
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(judgeCalls()).toBe(calls);
    expect(rerun.stderr).toMatch(/judge: 0 calls, \d+ verdicts from the cache/);
    expect(byKey(records(join(dir, 'run2')), 'q1|solo|stream|0').judge?.verdicts.correctness?.cached).toBe(2);
    const fresh = await cli([
      'eval',
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      DATASET,
      '--set',
      'solo=openai:gpt-4o@0',
      '--out',
      join(dir, 'run3'),
      '--judge',
      judgeUrl,
      '--judge-model',
      'sim-judge',
      '--judge-cache-dir',
      cacheDir,
      '--no-judge-cache',
      '--judge-figures',
      'relevance',
    ]);
    expect(fresh.code).toBe(0);
    expect(judgeCalls() - calls).toBe(3); // relevance of 3 answers, asked again
  });

  it('gates on judged figures and on checks pass and fail as they should', async () => {
    const pass = await cli([
      'compare',
      run1,
      join(dir, 'run2'),
      '--resamples',
      '200',
      '--gate',
      'correctness delta >= -0.03 significant',
      '--gate',
      'set:solo polite >= 1',
      '--gate',
      'groundedness >= 0.5',
    ]);
    expect(pass.code, pass.stderr).toBe(0);
    const fail = await cli([
      'compare',
      run1,
      join(dir, 'run2'),
      '--resamples',
      '200',
      '--gate',
      'set:solo correctness <= 0.5',
      '--gate',
      'set:solo picky >= 1',
    ]);
    expect(fail.code).toBe(1);
    expect(fail.stdout + fail.stderr).toContain('correctness <= 0.5 failed for set solo/stream: 1');
    expect(fail.stdout + fail.stderr).not.toContain('picky >= 1 failed');
    const unknown = await cli(['compare', run1, join(dir, 'run2'), '--resamples', '200', '--gate', 'politeness >= 1']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown figure "politeness"/);
  });

  it('a --pass rule replaces the default one, says so, and fails on the conditions that did not hold', async () => {
    const out = join(dir, 'run-pass');
    const { code, stderr } = await cli([
      'eval',
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      DATASET,
      '--set',
      'solo=openai:gpt-4o@0',
      '--out',
      out,
      '--judge',
      judgeUrl,
      '--judge-model',
      'sim-judge',
      '--judge-cache-dir',
      cacheDir,
      '--pass',
      'correctness >= 0.9',
      '--pass',
      'answer_f1 >= 0.99',
    ]);
    expect(code, stderr).toBe(0);
    const q1 = byKey(records(out), 'q1|solo|stream|0');
    expect(q1.scores?.pass).toBe(false);
    expect(q1.scores?.failed_conditions).toEqual([expect.stringMatching(/^answer_f1 >= 0.99: 0\.\d+$/)]);
    const q3 = byKey(records(out), 'q3|solo|stream|0');
    expect(q3.scores?.pass).toBe(true); // no reference: both conditions N/A
    expect(file(out, 'report.md')).toContain('**Pass rule:** ok and correctness \\>= 0.9 and answer\\_f1 \\>= 0.99');
    expect(file(out, 'junit.xml')).toContain('pass condition answer_f1 &gt;= 0.99');
  });
});

describe('a judge that fails', () => {
  it('gives judge_error on the figure, never a failed request, keeps its token out of every output, and says so', async () => {
    const server = createServer((req, res) => {
      req.resume().on('end', () => {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { message: `Incorrect API key provided: ${req.headers.authorization?.slice(7) ?? ''}` },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const out = join(dir, 'run-failing');
      const token = 'sk-judge-token-never-shown';
      const { code, stdout, stderr } = await cli(
        [
          'eval',
          '--base-url',
          sim.baseUrl,
          '--token',
          TOKENS.demo,
          '--dataset',
          DATASET,
          '--set',
          'solo=openai:gpt-4o@0',
          '--out',
          out,
          '--judge',
          `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          '--judge-model',
          'm',
          '--no-judge-cache',
          '--pass',
          'default',
          '--pass',
          'correctness >= 0.5',
        ],
        { CHATBENCH_JUDGE_TOKEN: token },
      );
      // Every ask failed: past --max-judge-error-rate's default (0.1), so the run fails (exit 1).
      expect(code).toBe(1);
      expect(stderr).toContain('gate failed: judge_error_rate <= 0.1 failed for set solo/stream: 1');
      expect(stderr).toMatch(
        /asks? failed \(judge_error\), the first: HTTP 401: Incorrect API key provided: \[redacted\]/,
      );
      const q1 = byKey(records(out), 'q1|solo|stream|0');
      expect(q1.outcome).toBe('ok');
      expect(q1.judge?.verdicts.correctness).toMatchObject({
        status: 'judge_error',
        error: 'HTTP 401: Incorrect API key provided: [redacted]',
      });
      expect(q1.scores?.correctness).toBeNull();
      expect(q1.scores?.failed_conditions).toEqual(['correctness >= 0.5: judge error']);
      const summary = SummarySchema.parse(JSON.parse(file(out, 'summary.json')));
      expect(summary.groups[0]?.figure_errors).toMatchObject({ correctness: 2, relevance: 3 });
      for (const name of [
        'results.jsonl',
        'summary.json',
        'report.md',
        'report.html',
        'results.csv',
        'junit.xml',
        'manifest.json',
      ]) {
        expect(file(out, name), name).not.toContain(token);
      }
      expect(stdout + stderr).not.toContain(token);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('a judge that never gives a verdict', () => {
  it('fails the run (exit 1) by --max-judge-error-rate, naming the reason; judge_error_rate in summary.json, the banner and junit.xml', async () => {
    let calls = 0;
    const server = createServer((req, res) => {
      req.resume().on('end', () => {
        calls += 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'It is hard to say.' } }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const judge = [
        '--judge',
        `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        '--judge-model',
        'm',
        '--no-judge-cache',
        '--judge-retries',
        '0',
      ];
      const out = join(dir, 'run-no-verdict');
      const { code, stdout, stderr } = await cli([
        'eval',
        '--base-url',
        sim.baseUrl,
        '--token',
        TOKENS.demo,
        '--dataset',
        DATASET,
        '--set',
        'solo=openai:gpt-4o@0',
        '--out',
        out,
        ...judge,
      ]);
      expect(code, stderr).toBe(1);
      expect(stderr).toContain('gate failed: judge_error_rate <= 0.1 failed for set solo/stream: 1');
      expect(stderr).toMatch(/judge_error_rate 100% \((\d+) of \1 asks without a verdict\)/);
      expect(stdout).toMatch(/^! The judge gave no verdict on (\d+) of \1 asks \(100%, judge_error_rate\)/m);
      expect(stdout).toMatch(/judge error rate\s+100% of \d+ asks/);
      const summary = SummarySchema.parse(JSON.parse(file(out, 'summary.json')));
      // Each ask is tried more than once before it ends without a verdict: more calls than asks.
      const asked = summary.run.judge_asks;
      expect(asked).toBeGreaterThan(0);
      expect(calls).toBeGreaterThanOrEqual(asked);
      expect(summary.run).toMatchObject({ judge_failed_asks: asked, judge_error_rate: 1 });
      expect(summary.groups[0]).toMatchObject({ judge_asks: asked, judge_failed_asks: asked, judge_error_rate: 1 });
      expect(file(out, 'junit.xml')).toMatch(
        /<testcase name="judge_error_rate &lt;= 0.1 \[solo \(stream\)\]"[^>]*>\s*<failure message="judge_error_rate &lt;= 0.1 failed/,
      );
      // Turned off, the same judge leaves the run passing (its figures N/A), and the banner still says why.
      const off = await cli([
        'eval',
        '--base-url',
        sim.baseUrl,
        '--token',
        TOKENS.demo,
        '--dataset',
        DATASET,
        '--set',
        'solo=openai:gpt-4o@0',
        '--out',
        join(dir, 'run-no-verdict-off'),
        ...judge,
        '--max-judge-error-rate',
        '1',
      ]);
      expect(off.code, off.stderr).toBe(0);
      expect(off.stdout).toMatch(/^! The judge gave no verdict/m);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('bad answer-quality input is refused before anything is sent (exit 2)', () => {
  it.each([
    {
      name: 'an invalid must_match',
      args: (d: string) => ['--dataset', d],
      dataset: 'id,question,must_match\nq1,Hi?,"/(unclosed/"\n',
      message: /bad\.csv:2: must_match: invalid regular expression "\/\(unclosed\/": .*Unterminated group/,
    },
    {
      name: 'a pass condition on a judged figure without a judge',
      args: (d: string) => ['--dataset', d, '--judge', 'off', '--pass', 'correctness >= 0.7'],
      message: /--pass names correctness, which a judge scores/,
    },
    {
      name: '--judge URL without --judge-model',
      args: (d: string) => ['--dataset', d, '--judge', 'http://127.0.0.1:9'],
      message: /--judge URL needs --judge-model/,
    },
    {
      name: 'a missing checks file',
      args: (d: string) => ['--dataset', d, '--checks', 'nope.mjs'],
      message: /--checks nope\.mjs: no such file/,
    },
    {
      name: 'a label for a question the dataset lacks',
      args: (d: string) => ['--dataset', d, '--labels', write('bad-labels.csv', 'question_id,verdict\nq9,pass\n')],
      message: /bad-labels\.csv:2: question_id: no question "q9" in the dataset/,
    },
  ])('$name', async ({ args, dataset, message }) => {
    const data = dataset === undefined ? DATASET : write('bad.csv', dataset);
    const chats = chatCalls();
    const judged = judgeCalls();
    const { code, stderr } = await cli([
      'eval',
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--set',
      'solo=openai:gpt-4o@0',
      ...args(data),
    ]);
    expect([code, stderr]).toEqual([2, expect.stringMatching(message)]);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect([chatCalls(), judgeCalls()]).toEqual([chats, judged]);
  });
});
