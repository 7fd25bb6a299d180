/**
 * Issue 27 §4: the GitHub Action's reporting (action.yml's last step, ci/github) offline. A real
 * run directory from an eval against the simulator with a failing gate; the variables and the event
 * file GitHub sets; the comment calls go to a local fake of GitHub's REST API (node:http on
 * 127.0.0.1, GITHUB_API_URL pointed at it): the first run creates the comment, the second updates
 * the same one.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { COMMENT_LIMIT, COMMENT_MARKER, commentBody, stepSummary } from '../../src/ci/github/comment.js';
import { pullRequestNumber } from '../../src/ci/github/event.js';
import { githubReport } from '../../src/ci/github/report-run.js';
import { failureAnnotations } from '../../src/ci/github/workflow-commands.js';
import { VerdictSchema, verdictMarkdown, type Verdict } from '../../src/verdict/index.js';
import { createFakeIo } from '../helpers/fake-io.js';

const ROOT = join(import.meta.dirname, '..', '..');
const TOKEN = 'ghs_test_token';
let base: string;
let runDir: string;
let verdict: Verdict;

/** GitHub's issue-comment endpoints, in memory; every request recorded. */
interface FakeGithub {
  readonly server: Server;
  readonly url: string;
  readonly comments: { id: number; body: string }[];
  readonly calls: { method: string; path: string; auth: string | undefined }[];
}

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function fakeGithub(): Promise<FakeGithub> {
  // Someone else's comments first: the marker, not the position, finds chatbench's.
  const comments = Array.from({ length: 120 }, (_, i) => ({ id: i + 1, body: `a review remark ${i}` }));
  const calls: FakeGithub['calls'] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      calls.push({ method: request.method ?? '', path: url.pathname, auth: request.headers.authorization });
      const reply = (status: number, payload: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(payload));
      };
      if (request.headers.authorization !== `Bearer ${TOKEN}`) return reply(401, { message: 'Bad credentials' });
      if (request.method === 'GET' && url.pathname === '/repos/acme/chat/issues/42/comments') {
        const per = Number(url.searchParams.get('per_page') ?? 30);
        const page = Number(url.searchParams.get('page') ?? 1);
        return reply(200, comments.slice((page - 1) * per, page * per));
      }
      if (request.method === 'POST' && url.pathname === '/repos/acme/chat/issues/42/comments') {
        const comment = {
          id: 1000 + comments.length,
          body: (JSON.parse(await body(request)) as { body: string }).body,
        };
        comments.push(comment);
        return reply(201, comment);
      }
      const patch = /^\/repos\/acme\/chat\/issues\/comments\/(\d+)$/.exec(url.pathname);
      if (request.method === 'PATCH' && patch) {
        const comment = comments.find((c) => c.id === Number(patch[1]));
        if (!comment) return reply(404, { message: 'Not Found' });
        comment.body = (JSON.parse(await body(request)) as { body: string }).body;
        return reply(200, comment);
      }
      return reply(404, { message: 'Not Found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, comments, calls };
}

let github: FakeGithub;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'chatbench-action-'));
  runDir = join(base, 'run');
  const fake = createFakeIo({ cwd: base, env: { CHATBENCH_TEST_SPEEDUP: '600' } });
  const code = await main(
    [
      'eval',
      '--sim',
      '--dataset',
      join(ROOT, 'examples', 'questions.csv'),
      '--set',
      'fast=openai:gpt-4o-mini@0',
      '--gate',
      'pass_rate >= 1.5',
      '--out',
      runDir,
    ],
    fake.io,
  );
  expect(code, fake.stderr()).toBe(1);
  verdict = VerdictSchema.parse(JSON.parse(readFileSync(join(runDir, 'verdict.json'), 'utf8')));
  github = await fakeGithub();
}, 60_000);

afterAll(async () => {
  github?.server.closeAllConnections();
  await new Promise((resolve) => github?.server.close(resolve));
  if (base) rmSync(base, { recursive: true, force: true });
});

function githubEnv(event: unknown) {
  const summaryPath = join(base, `summary-${Math.random().toString(36).slice(2)}.md`);
  writeFileSync(summaryPath, '');
  const eventPath = join(base, 'event.json');
  writeFileSync(eventPath, JSON.stringify(event));
  return {
    summaryPath,
    env: {
      GITHUB_STEP_SUMMARY: summaryPath,
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: 'acme/chat',
      GITHUB_API_URL: github.url,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_RUN_ID: '7',
    },
  };
}

describe("the Action's report of a real run", () => {
  it('writes the summary, annotates the failed gate, creates the comment, then updates the same one', async () => {
    const { env, summaryPath } = githubEnv({ action: 'synchronize', pull_request: { number: 42 } });
    const printed: string[] = [];
    const first = await githubReport({
      runDir,
      comment: true,
      token: TOKEN,
      env,
      write: (line) => void printed.push(line),
    });
    // The verdict as the verdict layer prints it, first; then report.md's comparison table.
    const summary = readFileSync(summaryPath, 'utf8');
    expect(summary).toBe(first.summary);
    expect(summary.startsWith(['## chatbench', '', ...verdictMarkdown(verdict)].join('\n'))).toBe(true);
    expect(summary).toContain('FAILED');
    expect(summary).toMatch(/## Comparison\n/);
    expect(first.annotations).toEqual([
      expect.stringMatching(/^::error title=chatbench gate failed%3A pass_rate >= 1\.5::pass_rate >= 1\.5: /),
    ]);
    expect(printed).toContain(`${first.annotations[0]}\n`);
    expect(first.commented).toBe('created');
    const mine = github.comments.filter((c) => c.body.includes(COMMENT_MARKER));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.body).toBe(`${COMMENT_MARKER}\n${summary}`);
    // Every call carried the token; the list was read page by page (120 others: two pages).
    expect(github.calls.every((c) => c.auth === `Bearer ${TOKEN}`)).toBe(true);
    expect(github.calls.map((c) => c.method)).toEqual(['GET', 'GET', 'POST']);

    github.calls.length = 0;
    const second = await githubReport({
      runDir,
      comment: true,
      token: TOKEN,
      env: githubEnv({ pull_request: { number: 42 } }).env,
      write: () => undefined,
    });
    expect(second.commented).toBe('updated');
    expect(github.comments.filter((c) => c.body.includes(COMMENT_MARKER))).toEqual([
      { id: mine[0]!.id, body: second.comment },
    ]);
    expect(github.calls.map((c) => c.method)).toEqual(['GET', 'GET', 'PATCH']);
  });

  it('comments on nothing for a push, and without a token', async () => {
    const calls = github.calls.length;
    const push = await githubReport({
      runDir,
      comment: true,
      token: TOKEN,
      env: githubEnv({ ref: 'refs/heads/main' }).env,
      write: () => undefined,
    });
    const noToken = await githubReport({
      runDir,
      comment: true,
      token: '',
      env: githubEnv({ pull_request: { number: 42 } }).env,
      write: () => undefined,
    });
    expect([push.commented, noToken.commented]).toEqual(['skipped', 'skipped']);
    expect(github.calls.length).toBe(calls);
  });

  it('names the run directory when it holds no verdict', async () => {
    await expect(
      githubReport({ runDir: join(base, 'nothing'), comment: false, env: {}, write: () => undefined }),
    ).rejects.toThrow(/nothing\/verdict\.json: cannot read the run's verdict/);
  });
});

/** A real run directory of `args` (the action adds --out); its verdict.json as the command wrote it. */
async function runInto(name: string, args: string[], exit: number): Promise<{ dir: string; verdict: Verdict }> {
  const dir = join(base, name);
  const fake = createFakeIo({ cwd: base, env: { CHATBENCH_TEST_SPEEDUP: '600' } });
  const code = await main([...args, '--out', dir], fake.io);
  expect(code, fake.stderr()).toBe(exit);
  return { dir, verdict: VerdictSchema.parse(JSON.parse(readFileSync(join(dir, 'verdict.json'), 'utf8'))) };
}

describe("the Action's report of a load run and of a compare", () => {
  it('a load run with a broken SLO: the verdict, its Windows and Latency tables, the SLO annotated, one comment', async () => {
    const load = await runInto(
      'load',
      [
        'load',
        '--sim',
        '--dataset',
        join(ROOT, 'examples', 'questions.csv'),
        '--set',
        'fast=openai:gpt-4o-mini@0',
        '--rate',
        '50',
        '--requests',
        '6',
        '--slo',
        'ttft_ms.p95<=1',
      ],
      1,
    );
    expect(load.verdict.status).toBe('failed');
    const { env, summaryPath } = githubEnv({ pull_request: { number: 42 } });
    const before = github.comments.length;
    const printed: string[] = [];
    const done = await githubReport({
      runDir: load.dir,
      comment: true,
      token: TOKEN,
      env,
      write: (line) => void printed.push(line),
    });
    const summary = readFileSync(summaryPath, 'utf8');
    expect(summary.startsWith(['## chatbench', '', ...verdictMarkdown(load.verdict)].join('\n'))).toBe(true);
    expect(summary).toMatch(/\n## Windows\n\n\| {2}\| warm-up \| measured \| cool-down \|\n/);
    expect(summary).toMatch(/\n## Latency \(measured window, ok requests\)\n\n\|/);
    expect(summary).not.toContain('## Generator');
    expect(done.annotations).toEqual([
      expect.stringMatching(
        /^::error title=chatbench SLO failed%3A ttft_ms\.p95<=1::ttft_ms\.p95<=1: ttft_ms\.p95 [\d.,]+ ms > 1 ms$/,
      ),
    ]);
    expect(printed).toContain(`${done.annotations[0]}\n`);
    // The eval's test left chatbench's comment on #42: this run updates that one, it adds none.
    expect(done.commented).toBe('updated');
    expect(github.comments.length).toBe(before);
    expect(github.comments.filter((c) => c.body.includes(COMMENT_MARKER))).toEqual([
      expect.objectContaining({ body: `${COMMENT_MARKER}\n${summary}` }),
    ]);
  });

  it("a compare with a failed gate: chatbench's own summary (verdict first, then the table), the gate annotated", async () => {
    // The eval run of beforeAll against itself: every ratio is 1, so a gate asking for half the TTFT fails.
    // As the action runs it: GITHUB_STEP_SUMMARY points at its own file while chatbench runs.
    const own = join(base, 'own-summary.md');
    writeFileSync(own, '');
    const dir = join(base, 'compare');
    const fake = createFakeIo({ cwd: base, env: { GITHUB_STEP_SUMMARY: own } });
    const code = await main(['compare', runDir, runDir, '--gate', 'ttft_ms.p50 ratio <= 0.5', '--out', dir], fake.io);
    expect(code, fake.stderr()).toBe(1);
    const verdict = VerdictSchema.parse(JSON.parse(readFileSync(join(dir, 'verdict.json'), 'utf8')));
    expect(verdict.status).toBe('failed');
    const { env, summaryPath } = githubEnv({ pull_request: { number: 42 } });
    const done = await githubReport({
      runDir: dir,
      ownSummaryPath: own,
      comment: true,
      token: TOKEN,
      env,
      write: () => undefined,
    });
    const summary = readFileSync(summaryPath, 'utf8');
    expect(summary).toBe(readFileSync(own, 'utf8'));
    expect(summary.startsWith(['## chatbench', '', ...verdictMarkdown(verdict)].join('\n'))).toBe(true);
    expect(summary).toMatch(/## Gates: 1 of 1 failed/);
    expect(done.annotations).toEqual([
      expect.stringMatching(/^::error title=chatbench gate failed%3A ttft_ms\.p50 ratio <= 0\.5::/),
    ]);
    expect(done.commented).toBe('updated');
    expect(github.comments.filter((c) => c.body.includes(COMMENT_MARKER))).toEqual([
      expect.objectContaining({ body: `${COMMENT_MARKER}\n${summary}` }),
    ]);
    // Without chatbench's own summary (the command run by hand): the verdict, then compare.md's sections.
    const plain = await githubReport({ runDir: dir, comment: false, env: {}, write: () => undefined });
    expect(plain.summary.startsWith(['## chatbench', '', ...verdictMarkdown(verdict), '', '## '].join('\n'))).toBe(
      true,
    );
    expect(plain.summary).toMatch(/## Gates: 1 of 1 failed/);
  });
});

describe('the comment body', () => {
  it("is cut at a line to fit GitHub's limit, the verdict kept, with a note saying where the whole is", () => {
    const reportMd = `# x\n\n## Comparison\n\n${Array.from({ length: 5000 }, (_, i) => `| row ${i} | ${'9'.repeat(20)} |`).join('\n')}\n`;
    const texts = { verdict, ownSummary: null, reportMd, runUrl: 'https://github.com/acme/chat/actions/runs/7' };
    const whole = stepSummary(texts);
    expect(whole.length).toBeGreaterThan(COMMENT_LIMIT);
    const cut = commentBody(texts);
    expect(cut.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(cut.startsWith(`${COMMENT_MARKER}\n## chatbench\n\n${verdictMarkdown(verdict)[0]}`)).toBe(true);
    expect(cut).toMatch(
      /\| row \d+ \| 9{20} \|\n\n_… cut to fit GitHub's comment limit of 65,536 characters: the whole summary is on https:\/\/github\.com\/acme\/chat\/actions\/runs\/7\._\n$/,
    );
  });

  it("is chatbench's own step summary when it wrote one (eval --baseline, compare)", () => {
    const own = '## chatbench\n\n**PASSED: all 2 gates passed** (exit 0)\n\n| figure | base | current |\n';
    expect(commentBody({ verdict, ownSummary: own, reportMd: 'ignored', runUrl: null })).toBe(
      `${COMMENT_MARKER}\n${own}`,
    );
  });
});

describe('workflow commands and events', () => {
  it('escape what would end an annotation early', () => {
    const failed: Verdict = {
      ...verdict,
      reasons: [{ kind: 'gate', passed: false, counted: true, text: 'a: b, 100%', detail: 'line 1\nline 2\r' }],
    };
    expect(failureAnnotations(failed)).toEqual([
      '::error title=chatbench gate failed%3A a%3A b%2C 100%25::a: b, 100%25: line 1%0Aline 2%0D',
    ]);
  });

  it.each([
    [{ pull_request: { number: 7 } }, 7],
    [{ issue: { number: 8, pull_request: { url: 'x' } } }, 8],
    [{ issue: { number: 9 } }, null],
    [{ ref: 'refs/heads/main' }, null],
    [null, null],
  ])('%j is pull request %s', (event, number) => {
    expect(pullRequestNumber(event)).toBe(number);
  });
});

describe('action.yml', () => {
  it('is a composite action with Node 20 pinned by commit, running the shipped report script', async () => {
    const { parseYaml } = await import('../../src/util/yaml.js');
    const action = parseYaml(readFileSync(join(ROOT, 'action.yml'), 'utf8'), 'action.yml', 'action.yml') as {
      runs: { using: string; steps: { uses?: string; with?: Record<string, unknown>; run?: string }[] };
      inputs: Record<string, unknown>;
    };
    expect(action.runs.using).toBe('composite');
    const setup = action.runs.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
    expect(setup?.uses).toMatch(/^actions\/setup-node@[0-9a-f]{40}$/);
    expect(setup?.with?.['node-version']).toBe(20);
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining(['command', 'run-dir', 'package', 'comment', 'github-token']),
    );
    const script = /chatbench\/(dist\/cli\/github-action\.js)/.exec(
      action.runs.steps.map((s) => s.run ?? '').join('\n'),
    )?.[1];
    expect(script).toBe('dist/cli/github-action.js');
    expect(readFileSync(join(ROOT, 'src', 'cli', 'github-action.ts'), 'utf8')).toContain('githubReport(');
  });
});
