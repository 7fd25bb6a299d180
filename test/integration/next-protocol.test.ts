/**
 * Forward compatibility (issue 25 §2): the next runtime's stream (upstream be8920ec: `answer_metadata`
 * and `pydantic_ai` packets, no `message_delta`), replayed byte for byte from
 * test/fixtures/onyx-releases (written by Python's json.dumps), decodes to the same answer, TTFT,
 * citations as its `message_delta` twin; a stream of kinds chatbench does not
 * know at all is an empty answer whose record names those kinds.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createChatClient } from '../../src/client/chat-client.js';
import type { Exchange } from '../../src/client/exchange.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startScriptedServer, type ScriptedResponse } from '../helpers/scripted-server.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/onyx-releases/${name}`, import.meta.url), 'utf8');

/** The fixture's lines, one chunk each 5 ms apart. */
function streamed(name: string): ScriptedResponse {
  const pieces = fixture(name).match(/[^\n]*\n|[^\n]+$/g) ?? [];
  return { chunks: pieces.map((bytes, i) => ({ at_ms: i * 5, bytes })) };
}

async function exchange(name: string): Promise<Exchange> {
  const server = await startScriptedServer([streamed(name)]);
  const client = createChatClient({ baseUrl: server.baseUrl, token: 'onyx_pat_test' });
  try {
    return await client.send({ message: 'How many days of PTO?' });
  } finally {
    await client.close();
  }
}

describe('the next packet protocol (be8920ec)', () => {
  it('a pydantic_ai stream decodes to the same answer, TTFT and citations as its message_delta twin', async () => {
    const [twin, next] = [await exchange('v4.6-answer.ndjson'), await exchange('next-pydantic-ai-answer.ndjson')];
    expect(next.outcome, next.error_message ?? '').toBe('ok');
    expect(next.unknown_parts).toBe(0);
    expect(next.unknown_part_kinds).toBeUndefined();
    const same = (e: Exchange) => ({
      answer: e.answer,
      answer_deltas: e.answer_deltas,
      answer_chars: e.answer_chars,
      citations: e.citations,
      cited_document_ids: e.cited_document_ids,
      top_document_ids: e.top_document_ids,
      marker_citations: e.marker_citations,
      markers_without_citation: e.markers_without_citation,
      pre_answer_processing_seconds: e.pre_answer_processing_seconds,
    });
    expect(same(next)).toEqual(same(twin));
    expect(next.answer).toBe(
      'Employees get 25 days of paid time off [[1]](https://wiki.northwind.example/hr/pto-policy) on top of public holidays [[101]](https://wiki.northwind.example/hr/pto-policy).',
    );
    expect(next.ttft_ms).not.toBeNull(); // exact milestones on a fake clock: src/client/next-protocol.test.ts
  });

  it('a stream of unknown kinds only is an empty answer that names the kinds', async () => {
    const e = await exchange('next-unknown-kinds.ndjson');
    expect(e).toMatchObject({
      outcome: 'empty_answer',
      ttft_ms: null,
      unknown_parts: 3,
      unknown_part_kinds: { agent_event: 2, answer_done: 1 },
    });
  });
});

describe('the unknown-protocol alarm through eval', () => {
  const scratch = () => mkdtempSync(join(tmpdir(), 'chatbench-next-'));
  async function evalAgainst(name: string) {
    const server = await startScriptedServer([streamed(name)]);
    const dir = scratch();
    const out = join(dir, 'run');
    const dataset = join(dir, 'q.csv');
    writeFileSync(
      dataset,
      'id,question,expected_documents\nq1,How many days of PTO?,hr-pto-policy\nq2,And holidays?,hr-holidays\n',
    );
    const fake = createFakeIo();
    const code = await main(
      ['eval', '--base-url', server.baseUrl, '--token', 'onyx_pat_test', '--dataset', dataset, '--out', out],
      fake.io,
    );
    return { code, stdout: fake.stdout(), stderr: fake.stderr(), out };
  }

  it('a run of unknown kinds only opens the terminal and every report with the alarm, and exits 3 with the hint', async () => {
    const { code, stdout, stderr, out } = await evalAgainst('next-unknown-kinds.ndjson');
    expect(code).toBe(3);
    expect(stderr).toContain(
      'failed the same way, with empty_answer after packets of unknown kinds (agent_event ×2, answer_done ×1 in the first)',
    );
    expect(stderr).toContain('hint: the service may be newer than Onyx 4.8, the newest release chatbench reads');
    const alarm =
      'Unknown packet kinds (agent_event ×4, answer_done ×2) and 2 of 2 answers came out empty or without a time to the first token';
    expect(stdout).toBe(''); // exit 3: the terminal shows the error and its hint, not a table
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { banner: string[] };
    expect(summary.banner[0]).toMatch(new RegExp(`^${alarm.replace(/[()]/g, '\\$&')}`));
    expect(readFileSync(join(out, 'report.md'), 'utf8').startsWith(`> **${alarm.replace(/_/g, '\\_')}`)).toBe(true); // markdown escapes _
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain(alarm);
  });

  it('a run of the next runtime is read in full: no alarm, exit 0', async () => {
    const { code, out } = await evalAgainst('next-pydantic-ai-answer.ndjson');
    expect(code).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { banner: string[] };
    expect(summary.banner.join(' ')).not.toContain('Unknown packet kinds');
  });
});

it('load: a run whose answers are all in unknown kinds exits 3 naming them, and its summary opens with the alarm', async () => {
  const server = await startScriptedServer([streamed('next-unknown-kinds.ndjson')]);
  const dir = mkdtempSync(join(tmpdir(), 'chatbench-next-load-'));
  const dataset = join(dir, 'q.csv');
  writeFileSync(dataset, 'id,question,expected_documents\nq1,How many days of PTO?,hr-pto-policy\n');
  const out = join(dir, 'load');
  const fake = createFakeIo();
  const code = await main(
    [
      'load',
      '--base-url',
      server.baseUrl,
      '--token',
      'onyx_pat_test',
      '--dataset',
      dataset,
      '--rate',
      '20',
      '--requests',
      '3',
      '--out',
      out,
    ],
    fake.io,
  );
  expect(code).toBe(3);
  expect(fake.stderr()).toContain('hint: the service may be newer than Onyx 4.8');
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { banner: string[] };
  expect(summary.banner[0]).toMatch(/^Unknown packet kinds \(agent_event ×6, answer_done ×3\) and 3 of 3 answers/);
});
