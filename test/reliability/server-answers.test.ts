/**
 * Issue 7 §4, what a server may answer: each odd answer, played by a scripted server, becomes the
 * right outcome class on the record of a `chatbench eval` run (never a crash, never a lost record),
 * and the run writes its reports; its only request having failed, it exits 3 (issue 11).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Mode, Outcome } from '../../src/records/record.js';
import { line, packetLine, startScriptedServer, type ScriptedResponse } from '../helpers/scripted-server.js';
import { readRunRecords, runCli, scratch, writeCsv, STACK_LINE } from './helpers.js';

const IDS = line({ user_message_id: 1, reserved_assistant_message_id: 2 });
const STOP = packetLine({ type: 'stop', stop_reason: null });
const JSON_HEADERS = { 'content-type': 'application/json' };
/** One byte over the client's default line limit (16 MiB). */
const OVERSIZED = `{"placement": {"turn_index": 1, "tab_index": 0, "sub_turn_index": null, "model_index": 0}, "obj": {"type": "message_delta", "content": "${'x'.repeat(16 * 1024 * 1024)}"}}\n`;

interface Case {
  name: string;
  mode: Mode;
  response: ScriptedResponse;
  outcome: Outcome;
  status: number | null;
  /** Part of the record's error_message. */
  message?: RegExp;
}

const CASES: Case[] = [
  {
    name: 'an HTML error page',
    mode: 'stream',
    outcome: 'http_error',
    status: 502,
    message: /HTTP 502: <html>/,
    response: {
      status: 502,
      headers: { 'content-type': 'text/html' },
      chunks: [{ at_ms: 0, bytes: '<html><body><h1>502 Bad Gateway</h1></body></html>' }],
    },
  },
  { name: 'an empty 200 stream', mode: 'stream', outcome: 'invalid_response', status: 200, response: { chunks: [] } },
  {
    name: 'an empty 200 full body',
    mode: 'full',
    outcome: 'invalid_response',
    status: 200,
    message: /empty/,
    response: { headers: JSON_HEADERS, chunks: [] },
  },
  {
    name: 'JSON of the wrong shape (full)',
    mode: 'full',
    outcome: 'invalid_response',
    status: 200,
    message: /not a ChatFullResponse/,
    response: { headers: JSON_HEADERS, chunks: [{ at_ms: 0, bytes: '{"answer": 42, "foo": []}' }] },
  },
  {
    name: 'JSON of the wrong shape (stream)',
    mode: 'stream',
    outcome: 'invalid_response',
    status: 200,
    response: { chunks: [{ at_ms: 0, bytes: IDS + line({ foo: 1 }) + STOP }] },
  },
  {
    name: 'a 200 whose stream is not JSON',
    mode: 'stream',
    outcome: 'invalid_response',
    status: 200,
    response: { chunks: [{ at_ms: 0, bytes: 'Hello, this is not JSON\nnor is this\n' }] },
  },
  {
    name: 'a line over the size limit',
    mode: 'stream',
    outcome: 'invalid_response',
    status: 200,
    response: {
      chunks: [
        { at_ms: 0, bytes: IDS },
        { at_ms: 5, bytes: OVERSIZED },
        { at_ms: 10, bytes: STOP },
      ],
    },
  },
  {
    name: 'a redirect (never followed: the body would be sent elsewhere)',
    mode: 'stream',
    outcome: 'http_error',
    status: 307,
    response: {
      status: 307,
      headers: { location: 'http://127.0.0.1:1/elsewhere', 'content-type': 'text/plain' },
      chunks: [],
    },
  },
];

async function evalAgainst(baseUrl: string, mode: Mode) {
  const dir = scratch();
  const out = join(dir, 'run');
  const dataset = writeCsv(dir, [['q1', 'How many days of paid time off do employees get?', '', '', 'false', 'x']]);
  const run = await runCli([
    'eval',
    '--base-url',
    baseUrl,
    '--token',
    'T0KEN',
    '--dataset',
    dataset,
    '--mode',
    mode,
    '--timeout',
    '5s',
    '--out',
    out,
  ]);
  return { run, out };
}

describe('a full answer in chunks', () => {
  it('decodes a character split between two chunks whole (the body is decoded as it comes)', async () => {
    const body = Buffer.from(
      JSON.stringify({
        answer: 'Le café est à 3 € [1].',
        answer_citationless: 'Le café est à 3 €.',
        top_documents: [],
        citation_info: [],
        message_id: 2,
      }),
    );
    const at = body.indexOf(Buffer.from('é')) + 1; // between the two bytes of é
    const euro = body.indexOf(Buffer.from('€')) + 2; // inside the three bytes of €
    const server = await startScriptedServer([
      {
        headers: JSON_HEADERS,
        chunks: [
          { at_ms: 0, bytes: body.subarray(0, at) },
          { at_ms: 20, bytes: body.subarray(at, euro) },
          { at_ms: 40, bytes: body.subarray(euro) },
        ],
      },
    ]);
    const { run, out } = await evalAgainst(server.baseUrl, 'full');
    expect(run.code, run.stderr).toBe(0);
    const [record] = readRunRecords(out);
    expect(record?.outcome).toBe('ok');
    expect(record?.answer).toBe('Le café est à 3 € [1].');
  });
});

describe('odd server answers become outcome classes on the record', () => {
  it.each(CASES)('$name → $outcome', async (c) => {
    const server = await startScriptedServer([c.response]);
    const { run, out } = await evalAgainst(server.baseUrl, c.mode);
    expect(run.stderr).not.toMatch(STACK_LINE);
    // The run's only request failed: it could not be carried out (exit 3, the failure named), and
    // its reports are written all the same.
    expect(run.stderr).toContain('every request (1 of 1) failed the same way');
    expect(run.code).toBe(3);
    const [record, ...rest] = readRunRecords(out);
    expect(rest).toEqual([]);
    expect({ outcome: record?.outcome, status: record?.http_status }).toEqual({ outcome: c.outcome, status: c.status });
    if (c.message) expect(record?.error_message).toMatch(c.message);
    expect(existsSync(join(out, 'summary.json'))).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('a TLS error (https to a plain-HTTP port) → network, recorded; every first request failing it stops the run (exit 3)', async () => {
    const server = await startScriptedServer([{ chunks: [{ at_ms: 0, bytes: IDS + STOP }] }]);
    const { run, out } = await evalAgainst(server.baseUrl.replace('http://', 'https://'), 'stream');
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(run.stderr).toMatch(/cannot reach https:.*the TLS handshake failed/);
    expect(run.code).toBe(3);
    const [record] = readRunRecords(out);
    expect(record?.outcome).toBe('network');
    expect(record?.http_status).toBeNull();
    expect(record?.error_code).toMatch(/SSL|TLS|EPROTO/);
  });
});
