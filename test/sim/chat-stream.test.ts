import { startChatServerForTest } from '../helpers/start-chat-server.js';
import { describe, expect, it } from 'vitest';
import { classifyPart, type StreamPart } from '../../src/api/index.js';
import { ndjson, post } from '../../src/sim/chat/fixtures/test-server.js';

const start = startChatServerForTest;

const FAST = { time_scale: 0.05 };
const QUESTION = 'Which receipts do I need for expenses and hotel stays when travelling?';
const parts = (body: string): StreamPart[] =>
  body
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => classifyPart(JSON.parse(l), l));
const label = (p: StreamPart): string => (p.kind === 'packet' ? String(p.part.obj.type) : p.kind);
const obj = (p: StreamPart) => (p.kind === 'packet' ? (p.part.obj as Record<string, unknown>) : {});

describe('a single-model stream', () => {
  it('has the shape and order of docs/reference/wire-format.md, line by line', async () => {
    const server = await start(FAST);
    const r = await post(server.url, { message: QUESTION });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(r.headers['transfer-encoding']).toBe('chunked');
    expect(r.body.endsWith('\n')).toBe(true);
    expect(r.body).not.toMatch(/[^\x20-\x7e\n]/); // Python's ensure_ascii
    const ps = parts(r.body);
    expect(ps.every((p) => p.kind !== 'decode_error')).toBe(true);
    const labels = ps.map(label);
    expect(labels.slice(0, 8)).toEqual([
      'session_created',
      'message_ids',
      'search_tool_start',
      'search_tool_queries_delta',
      'search_tool_filter_delta',
      'search_tool_documents_delta',
      'section_end',
      'message_start',
    ]);
    expect(labels.at(-1)).toBe('stop');
    expect(labels.slice(8, -1).every((l) => l === 'message_delta' || l === 'citation_info')).toBe(true);
    for (const p of ps.slice(2)) {
      if (p.kind !== 'packet') continue;
      const turn = [
        'search_tool_start',
        'search_tool_queries_delta',
        'search_tool_filter_delta',
        'search_tool_documents_delta',
        'section_end',
      ].includes(label(p))
        ? 0
        : 1;
      expect(p.part.placement).toEqual({ turn_index: turn, tab_index: 0, sub_turn_index: null, model_index: 0 });
    }
    const session = ps[0]!.kind === 'session_created' ? ps[0]!.part : undefined;
    expect(session?.chat_session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(session?.incognito).toBe(false);
    expect(ps[1]).toMatchObject({ part: { user_message_id: 1, reserved_assistant_message_id: 2 } });
    expect(obj(ps[2]!)).toEqual({ type: 'search_tool_start', is_internet_search: false });
    expect(obj(ps[3]!)).toEqual({ type: 'search_tool_queries_delta', queries: [QUESTION] });
    expect(obj(ps[4]!)).toEqual({
      type: 'search_tool_filter_delta',
      sources: [],
      time_filter_start: null,
      time_filter_end: null,
    }); // v4.4+
    const documents = obj(ps[5]!).documents as Array<{ document_id: string }>;
    expect(documents.length).toBeGreaterThan(1); // top 5 of what matches; the test corpus is small
    expect(documents.length).toBeLessThanOrEqual(5);
    const start6 = obj(ps[7]!);
    expect(start6.final_documents).toEqual(documents);
    expect(start6.pre_answer_processing_seconds).toBeGreaterThan(0);
    expect(obj(ps.at(-1)!)).toEqual({ type: 'stop', stop_reason: null });

    // citation_info comes once per document, just before the delta carrying its first marker
    const answer = ps
      .filter((p) => label(p) === 'message_delta')
      .map((p) => obj(p).content as string)
      .join('');
    const cited = ps.filter((p) => label(p) === 'citation_info').map(obj);
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.map((c) => c.citation_number)).toEqual(cited.map((_, i) => i + 1));
    expect(new Set(cited.map((c) => c.document_id)).size).toBe(cited.length);
    ps.forEach((p, i) => {
      if (label(p) !== 'citation_info') return;
      expect(obj(ps[i + 1]!).content).toMatch(
        new RegExp(`^ \\[\\[${obj(p).citation_number as number}\\]\\]\\(https://`),
      );
    });
    for (const c of cited) expect(documents.map((d) => d.document_id)).toContain(c.document_id);
    expect(answer).toMatch(/\[\[1\]\]\(https:\/\/wiki\.acme\.example\/finance\/(expenses|travel)\)/);
    expect(server.tokens[0]).toBeGreaterThan(10);
  });
  it('given a chat_session_id: no session part, ids first; ids keep increasing', async () => {
    const server = await start(FAST);
    const opened = ndjson((await post(server.url, { message: QUESTION })).body)[0] as { chat_session_id: string };
    const r = await post(server.url, { message: QUESTION, chat_session_id: opened.chat_session_id });
    const first = ndjson(r.body)[0];
    expect(first).toEqual({ user_message_id: 3, reserved_assistant_message_id: 4 });
  });
  it('incognito from chat_session_info shows in the session part', async () => {
    const server = await start(FAST);
    const r = await post(server.url, { message: QUESTION, chat_session_info: { incognito: true } });
    expect(ndjson(r.body)[0]).toMatchObject({ incognito: true });
  });
  it('include_citations false: no citation_info and no markers', async () => {
    const server = await start(FAST);
    const ps = parts((await post(server.url, { message: QUESTION, include_citations: false })).body);
    expect(ps.some((p) => label(p) === 'citation_info')).toBe(false);
    expect(ps.map((p) => obj(p).content ?? '').join('')).not.toMatch(/\[\[\d+\]\]/);
    expect(label(ps.at(-1)!)).toBe('stop');
  });
  it('filters change what is retrieved and cited', async () => {
    const server = await start(FAST);
    const docsOf = (ps: StreamPart[]) =>
      (
        obj(ps.find((p) => label(p) === 'search_tool_documents_delta')!).documents as Array<{ document_id: string }>
      ).map((d) => d.document_id);
    const citedOf = (ps: StreamPart[]) =>
      ps.filter((p) => label(p) === 'citation_info').map((p) => obj(p).document_id as string);
    const open = parts((await post(server.url, { message: QUESTION })).body);
    expect(docsOf(open)).toContain('fin-travel-policy');
    expect(citedOf(open)).toContain('fin-travel-policy');
    const filters = { time_cutoff: '2024-01-01T00:00:00Z' }; // the travel policy was last updated in 2023
    const filtered = parts((await post(server.url, { message: QUESTION, internal_search_filters: filters })).body);
    expect(docsOf(filtered)).not.toContain('fin-travel-policy');
    expect(docsOf(filtered)).toContain('fin-expense-policy');
    expect(citedOf(filtered)).toEqual(['fin-expense-policy']);
  });
  it('a question the corpus does not cover: the model says so and cites nothing', async () => {
    const server = await start(FAST);
    const ps = parts((await post(server.url, { message: 'What is the cafeteria menu on Fridays?' })).body);
    expect(ps.some((p) => label(p) === 'citation_info')).toBe(false);
    expect(ps.map((p) => obj(p).content ?? '').join('')).toContain('could not find any information');
  });
  it('a reasoning model streams reasoning before message_start', async () => {
    const server = await start(FAST);
    const ps = parts(
      (await post(server.url, { message: QUESTION, llm_override: { model_version: 'claude-sonnet-4' } })).body,
    );
    const labels = ps.map(label);
    const at = (l: string) => labels.indexOf(l);
    expect(at('section_end')).toBeLessThan(at('reasoning_start'));
    expect(at('reasoning_done')).toBeLessThan(at('message_start'));
    expect(labels.slice(at('reasoning_start') + 1, at('reasoning_done')).every((l) => l === 'reasoning_delta')).toBe(
      true,
    );
    expect(
      ps
        .filter((p) => label(p) === 'reasoning_delta')
        .map((p) => obj(p).reasoning)
        .join(''),
    ).toContain(QUESTION);
  });
  it('SSE framing: data: lines separated by blank lines', async () => {
    const server = await start({ ...FAST, framing: 'sse' });
    const r = await post(server.url, { message: QUESTION });
    const events = r.body.split('\n\n');
    expect(events.at(-1)).toBe('');
    for (const event of events.slice(0, -1)) expect(event).toMatch(/^data: \{.*\}$/);
    expect(JSON.parse(events.at(-2)!.slice(6))).toMatchObject({ obj: { type: 'stop' } });
  });
  it('sends chat_heartbeat packets (model_index null) after heartbeat_ms of silence', async () => {
    const server = await start({ time_scale: 0.2, heartbeat_ms: 25 });
    const ps = parts((await post(server.url, { message: QUESTION })).body);
    const beats = ps.filter((p) => label(p) === 'chat_heartbeat');
    expect(beats.length).toBeGreaterThan(0);
    for (const b of beats) expect(b.kind === 'packet' && b.part.placement.model_index).toBeNull();
    expect(label(ps.at(-1)!)).toBe('stop');
  });
});

describe('reproducibility', () => {
  const sequence = [QUESTION, 'When is the deploy freeze?', QUESTION];
  const config = { ...FAST, profiles: { default: { wrong_citation_rate: 0.3, missed_citation_rate: 0.3 } } };
  const run = async (seed: number) => {
    const server = await start(config, seed);
    const bodies: string[] = [];
    for (const message of sequence) bodies.push((await post(server.url, { message })).body);
    return bodies;
  };
  it('the same seed and requests give byte-identical streams; another seed does not', async () => {
    const [a, b, c] = [await run(7), await run(7), await run(8)];
    expect(a).toEqual(b);
    expect(a[0]).not.toBe(a[2]); // the second asking of a question is a new draw
    expect(c[0]).not.toBe(a[0]);
  });
  it('concurrency does not change content: each question keeps its bytes whatever the order', async () => {
    const server = await start(config, 7);
    const bodies = await Promise.all(
      sequence
        .slice(0, 2)
        .reverse()
        .map((message) => post(server.url, { message })),
    );
    const sequential = await run(7);
    // message ids follow arrival order, everything else follows the question
    const strip = (body: string) =>
      body
        .split('\n')
        .filter((l) => !l.startsWith('{"user_message_id"'))
        .join('\n');
    expect(strip(bodies[1]!.body)).toBe(strip(sequential[0]!));
    expect(strip(bodies[0]!.body)).toBe(strip(sequential[1]!));
  });
});
