/**
 * Issue 23, endless and unbounded bodies: a service that drips a byte a second, sends junk lines or
 * SSE comments that never make a part, an error body or a full body that never ends (dripping, or
 * endless), an endless `GET /version`, an endless open-urls answer, project instructions whose
 * answer never ends or drips, a judge whose reply never ends. Each request ends
 * within its cap (the silence limit, the byte caps), every planned request has its record, and the
 * process's memory stays far under 300 MB. Raw node:http servers on 127.0.0.1:0; no timing is
 * asserted beyond "it ended" (the caps are a second or a few MB, the test bound a minute).
 */
import type { ServerResponse } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fullAnswer, packet, streamedAnswer } from '../helpers/hostile-server.js';
import { drip, endless, startRawServer, type RawRequest } from '../helpers/raw-server.js';
import { readRunRecords, runCli, scratch, writeCsv } from './helpers.js';

/** RSS growth allowed while one attack runs: far under the 300 MB promise, far over what a bounded read holds. */
const RSS_GROWTH = 200 * 1024 * 1024;

/** A service whose chat answer is `chat`, whose /version is `version` (404 by default). */
async function service(chat: (req: RawRequest, res: ServerResponse) => void, version?: (res: ServerResponse) => void) {
  return startRawServer((req, res) => {
    if (req.method === 'GET' && req.url.endsWith('/version')) {
      if (version) return version(res);
      return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail": "Not Found"}');
    }
    chat(req, res);
  });
}

const okStream = () => streamedAnswer({ deltas: ['A fine answer.'] }).join('');

/**
 * Runs eval against `origin` with 3 questions and a silence limit of `timeout` (300 ms: the attacks
 * on silence, where every request times out, so a short limit cannot fail an answer that would have
 * come; a byte-cap attack takes a long one, so that only its cap can end it on a busy machine);
 * returns the records and how much RSS grew.
 */
async function evalAgainst(origin: string, extra: readonly string[] = [], timeout = '300ms') {
  const dir = scratch();
  const dataset = writeCsv(dir, [
    ['q1', 'One?', '', '', 'false', 'x'],
    ['q2', 'Two?', '', '', 'false', 'x'],
    ['q3', 'Three?', '', '', 'false', 'x'],
  ]);
  const out = join(dir, 'run');
  const before = process.memoryUsage().rss;
  const run = await runCli([
    'eval',
    '--base-url',
    `${origin}/api`,
    '--token',
    'tok-bounds-0123456789',
    '--dataset',
    dataset,
    '--concurrency',
    '3',
    '--timeout',
    timeout,
    '--max-error-rate',
    '1',
    '--out',
    out,
    ...extra,
  ]);
  const grew = process.memoryUsage().rss - before;
  return { run, records: readRunRecords(out), grew, out };
}

describe('a stream that makes no progress ends at --timeout', () => {
  it.each([
    ['a byte a second', (res: ServerResponse) => drip(res, ' ', 200)],
    ['junk lines', (res: ServerResponse) => drip(res, 'junk that is not a part\n', 50)],
    [
      'SSE comments',
      (res: ServerResponse) => {
        res.write('data: {"user_message_id": 1, "reserved_assistant_message_id": 2}\n\n');
        drip(res, ': keep-alive comment\n\n', 50);
      },
    ],
  ])('%s: timeout SILENCE_TIMEOUT, one record per request', async (_name, play) => {
    const server = await service((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      play(res);
    });
    const { run, records, grew } = await evalAgainst(server.origin);
    // Every request failed the same way: the run says so and exits 3 (runner/early-stop).
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/no part received for 300 ms \(--timeout/);
    expect(records.map((r) => [r.question_id, r.outcome, r.error_code]).sort()).toEqual(
      [
        ['q1', 'timeout', 'SILENCE_TIMEOUT'],
        ['q2', 'timeout', 'SILENCE_TIMEOUT'],
        ['q3', 'timeout', 'SILENCE_TIMEOUT'],
      ].sort(),
    );
    expect(grew).toBeLessThan(RSS_GROWTH);
  });
});

describe('a full or an error body that drips ends at --timeout of its headers', () => {
  it('a full body (stream=false) and a 500 body, each a byte every 50 ms for ever: one record per request', async () => {
    const server = await service((req, res) => {
      const full = JSON.parse(req.body).stream === false;
      res.writeHead(full ? 200 : 500, { 'content-type': 'application/json' });
      res.write(full ? '{"answer": "' : '{"detail": "');
      drip(res, 'x', 50); // a new byte well within every silence: only the body's own limit can end it
    });
    const { records, grew } = await evalAgainst(server.origin, ['--mode', 'both']);
    expect(records.map((r) => [r.question_id, r.mode, r.outcome, r.error_code, r.http_status]).sort()).toEqual(
      [
        ['q1', 'full', 'timeout', 'SILENCE_TIMEOUT', 200],
        ['q2', 'full', 'timeout', 'SILENCE_TIMEOUT', 200],
        ['q3', 'full', 'timeout', 'SILENCE_TIMEOUT', 200],
        ['q1', 'stream', 'http_error', null, 500],
        ['q2', 'stream', 'http_error', null, 500],
        ['q3', 'stream', 'http_error', null, 500],
      ].sort(),
    );
    for (const r of records.filter((r) => r.mode === 'full'))
      expect(r.error_message).toMatch(/did not end within 300 ms of its headers/);
    expect(grew).toBeLessThan(RSS_GROWTH);
  });
});

describe('bodies that never end are cut at their cap', () => {
  it('an endless 500 body: the status decides at 64 KiB; an endless full body: BODY_TOO_LARGE at --max-body-bytes', async () => {
    const server = await service((req, res) => {
      const full = JSON.parse(req.body).stream === false;
      res.writeHead(full ? 200 : 500, { 'content-type': full ? 'application/json' : 'text/plain' });
      endless(res, full ? '{"answer": "' + 'x'.repeat(65_536) : 'Internal error '.repeat(4_096));
    });
    const { records, grew } = await evalAgainst(server.origin, ['--mode', 'both', '--max-body-bytes', '2MiB'], '60s');
    expect(records).toHaveLength(6);
    for (const r of records) {
      if (r.mode === 'stream') expect([r.outcome, r.http_status]).toEqual(['http_error', 500]);
      else expect([r.outcome, r.error_code]).toEqual(['invalid_response', 'BODY_TOO_LARGE']);
    }
    expect(records.find((r) => r.mode === 'full')?.error_message).toMatch(/--max-body-bytes 2097152/);
    expect(grew).toBeLessThan(RSS_GROWTH);
  });

  it('--max-error-body-bytes: an error body that stalls past a smaller cap ends there, not at the silence limit', async () => {
    const server = await service((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.write(`{"error_code": "STALLED", "detail": "${'e'.repeat(4_096)}`); // then nothing more, never ended
    });
    const { run, records } = await evalAgainst(server.origin, ['--max-error-body-bytes', '1KiB'], '60s');
    expect(records.map((r) => [r.outcome, r.http_status, r.error_code])).toEqual([
      ['http_error', 500, null],
      ['http_error', 500, null],
      ['http_error', 500, null],
    ]);
    expect(run.stderr).not.toMatch(/--timeout/);
  });

  it('a stream that never stops sending parts: BODY_TOO_LARGE; its invented packet types bounded in the record', async () => {
    const server = await service((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const types = Array.from({ length: 64 }, () => packet({ type: `invented_${n++}_${'t'.repeat(200)}` })).join('');
      endless(res, types);
    });
    const { records, grew } = await evalAgainst(server.origin, ['--max-body-bytes', '2MiB'], '60s');
    expect(records.map((r) => r.error_code)).toEqual(['BODY_TOO_LARGE', 'BODY_TOO_LARGE', 'BODY_TOO_LARGE']);
    for (const r of records) expect(Object.keys(r.first_packet_ms).length).toBeLessThanOrEqual(64);
    expect(grew).toBeLessThan(RSS_GROWTH);
  });

  it('an endless GET /version: the release is unknown, the run goes on', async () => {
    const server = await service(
      (_req, res) => void res.writeHead(200, { 'content-type': 'text/event-stream' }).end(okStream()),
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        endless(res, '{"backend_version": "v4.5.2", "pad": "' + 'v'.repeat(65_536));
      },
    );
    const { run, records, grew } = await evalAgainst(server.origin, [], '60s');
    expect(records.map((r) => r.outcome)).toEqual(['ok', 'ok', 'ok']);
    expect(run.stderr).toMatch(/release unknown/);
    expect(grew).toBeLessThan(RSS_GROWTH);
  });

  it('--max-version-bytes: a whole /version answer past a smaller cap leaves the release unknown', async () => {
    const server = await service(
      (_req, res) => void res.writeHead(200, { 'content-type': 'text/event-stream' }).end(okStream()),
      (res) => {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(`{"backend_version": "v4.5.2", "pad": "${'v'.repeat(2_048)}"}`);
      },
    );
    const { run, records } = await evalAgainst(server.origin, ['--max-version-bytes', '1KiB'], '60s');
    expect(records.map((r) => r.outcome)).toEqual(['ok', 'ok', 'ok']);
    expect(run.stderr).toMatch(/release unknown/);
  });

  it('an endless open-urls answer: invalid_response BODY_TOO_LARGE per request (load --operation open-urls)', async () => {
    const server = await service((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      endless(res, '{"results": [{"content": "' + 'c'.repeat(65_536));
    });
    const dir = scratch();
    const urls = join(dir, 'urls.txt');
    writeFileSync(urls, 'https://example.com/a\nhttps://example.com/b\n');
    const out = join(dir, 'load');
    const before = process.memoryUsage().rss;
    const run = await runCli([
      'load',
      '--base-url',
      `${server.origin}/api`,
      '--token',
      'tok-bounds-0123456789',
      '--operation',
      'open-urls',
      '--urls-file',
      urls,
      '--rate',
      '20',
      '--requests',
      '2',
      '--timeout',
      '5s',
      '--max-body-bytes',
      '4MiB',
      '--out',
      out,
    ]);
    const grew = process.memoryUsage().rss - before;
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const records = readRunRecords(out);
    expect(records.map((r) => [r.outcome, r.error_code])).toEqual([
      ['invalid_response', 'BODY_TOO_LARGE'],
      ['invalid_response', 'BODY_TOO_LARGE'],
    ]);
    expect(grew).toBeLessThan(RSS_GROWTH);
  });

  it.each([
    [
      'never ends',
      (res: ServerResponse) => endless(res, '{"instructions": "' + 'i'.repeat(65_536)),
      /exceeds 2097152 bytes/,
    ],
    ['drips a byte every 50 ms', (res: ServerResponse) => drip(res, 'i', 50), /aborted due to timeout/],
  ])(
    'project instructions whose answer %s: exit 3 naming the project, no question sent',
    async (_name, play, cause) => {
      const server = await service((req, res) => {
        if (!req.url.includes('/user/projects/2/instructions'))
          return void res.writeHead(200, { 'content-type': 'text/event-stream' }).end(okStream());
        res.writeHead(200, { 'content-type': 'application/json' });
        play(res);
      });
      const dir = scratch();
      const sets = join(dir, 'sets.json');
      writeFileSync(
        sets,
        JSON.stringify({ sets: [{ name: 'base' }], defaults: { project: { id: 2, instructions: 'Hi.' } } }),
      );
      const dataset = writeCsv(dir, [['q1', 'One?', '', '', 'false', 'x']]);
      const out = join(dir, 'run');
      const before = process.memoryUsage().rss;
      const run = await runCli([
        'eval',
        '--base-url',
        `${server.origin}/api`,
        '--token',
        'tok-bounds-0123456789',
        '--dataset',
        dataset,
        '--sets-file',
        sets,
        '--timeout',
        '300ms',
        '--max-body-bytes',
        '2MiB',
        '--out',
        out,
      ]);
      const grew = process.memoryUsage().rss - before;
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/project 2 instructions: GET \S+\/user\/projects\/2\/instructions failed/);
      expect(run.stderr).toMatch(cause);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(join(out, 'results.jsonl')) ? readRunRecords(out) : []).toEqual([]);
      expect(server.requests.filter((r) => r.method === 'POST')).toEqual([]); // no question, nor instructions, sent
      expect(grew).toBeLessThan(RSS_GROWTH);
    },
  );

  it('a 3 MB document id, 100 invented packet types and a 3 MB judge reason: every results.jsonl line stays small', async () => {
    const invented = Array.from({ length: 100 }, (_, i) => packet({ type: `invented_${i}` }));
    const server = await service((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        streamedAnswer({ deltas: ['A fine answer.'], documents: ['d'.repeat(3_000_000)], extra: invented }).join(''),
      );
    });
    const reason = 'r'.repeat(3_000_000); // within the judge's 4 MiB reply cap: read whole, then cut
    const judge = await startRawServer((_req, res) => {
      const content = JSON.stringify({ score: 1, reason });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
    const { run, records, out } = await evalAgainst(
      server.origin,
      ['--judge', judge.origin, '--judge-model', 'm', '--judge-figures', 'relevance', '--no-judge-cache'],
      '60s',
    );
    expect(run.code).toBe(0);
    expect(records).toHaveLength(3);
    const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThan(256 * 1024);
    for (const r of records) {
      expect(r.judge?.verdicts.relevance?.reason).toMatch(/^r+…\[cut\]$/);
      expect(r.judge?.verdicts.relevance?.reason?.length).toBeLessThanOrEqual(2_000);
      expect(Object.keys(r.first_packet_ms).length).toBeLessThanOrEqual(64);
      expect(r.first_packet_others).toBeGreaterThan(0);
    }
  });

  it('a judge whose reply never ends: judge_error naming --judge-max-reply-bytes, every record written', async () => {
    const server = await service((req, res) => {
      if (JSON.parse(req.body).stream === false)
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(fullAnswer({ answer: 'A fine answer.' }));
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(okStream());
    });
    const judge = await startRawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      endless(res, '{"choices": [{"message": {"content": "' + 'j'.repeat(65_536));
    });
    const { records, grew } = await evalAgainst(
      server.origin,
      [
        '--judge',
        judge.origin,
        '--judge-model',
        'm',
        '--judge-figures',
        'relevance',
        '--judge-max-reply-bytes',
        '2MiB',
        '--judge-retries',
        '0',
        '--no-judge-cache',
      ],
      '60s',
    );
    expect(records).toHaveLength(3);
    for (const r of records) {
      expect(r.judge?.verdicts.relevance?.status).toBe('judge_error');
      expect(r.judge?.verdicts.relevance?.error).toMatch(/--judge-max-reply-bytes/);
    }
    expect(grew).toBeLessThan(RSS_GROWTH);
  });
});
