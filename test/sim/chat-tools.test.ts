/**
 * The simulator's tools: which the message picks (allowed_tool_ids, forced_tool_id, the match
 * rules), each tool's packets as its release writes them, citations per search call, and
 * tool_calls in full responses.
 */
import { describe, expect, it } from 'vitest';
import { classifyPart, type StreamPart } from '../../src/api/index.js';
import { DEFAULT_TOOLS } from '../../src/sim/chat/tools.js';
import { ndjson, post } from '../../src/sim/chat/fixtures/test-server.js';
import { startChatServerForTest as start } from '../helpers/start-chat-server.js';
import { call, startSim, TOKENS } from '../helpers/start-sim.js';

const FAST = { time_scale: 0.005 };
const packets = (body: string) =>
  body
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => classifyPart(JSON.parse(l), l))
    .flatMap((p: StreamPart) =>
      p.kind === 'packet' ? [{ placement: p.part.placement, obj: p.part.obj as Record<string, unknown> }] : [],
    );
const types = (body: string) =>
  packets(body)
    .filter((p) => p.placement.turn_index === 0)
    .map((p) => `${p.placement.tab_index}:${String(p.obj.type)}`);
const answerOf = (body: string) =>
  packets(body)
    .filter((p) => p.obj.type === 'message_delta')
    .map((p) => p.obj.content as string)
    .join('');

describe('which tools answer a message', () => {
  it('a knowledge question is searched (the fallback); a drawing is an image, and nothing is searched', async () => {
    const server = await start(FAST);
    const asked = await post(server.url, { message: 'How many days of paid time off do full-time employees accrue?' });
    expect(types(asked.body)).toEqual([
      '0:search_tool_start',
      '0:search_tool_queries_delta',
      '0:search_tool_filter_delta',
      '0:search_tool_documents_delta',
      '0:section_end',
    ]);
    const drawn = await post(server.url, { message: 'Draw a picture of our office.' });
    const image = packets(drawn.body).filter((p) => p.placement.turn_index === 0);
    expect(image[0]?.obj).toEqual({ type: 'image_generation_start' });
    expect(image.slice(1, -2).every((p) => p.obj.type === 'image_generation_heartbeat')).toBe(true);
    expect(image.at(-2)?.obj).toMatchObject({
      type: 'image_generation_final',
      images: [
        {
          url: expect.stringMatching(/^\/api\/chat\/file\//),
          revised_prompt: 'A clear, simple illustration of: Draw a picture of our office.',
          shape: 'square',
        },
      ],
    });
    expect(image.at(-1)?.obj).toEqual({ type: 'section_end' });
    expect(answerOf(drawn.body)).toBe(
      'Here is the image I generated: A clear, simple illustration of: Draw a picture of our office..',
    );
  });

  it('allowed_tool_ids leaves out what is not allowed; forced_tool_id is the only tool used', async () => {
    const server = await start(FAST);
    const none = await post(server.url, {
      message: 'How many days of paid time off do full-time employees accrue?',
      allowed_tool_ids: [2, 4],
    });
    expect(types(none.body)).toEqual([]);
    expect(answerOf(none.body)).toMatch(/could not find any information/);
    const forced = await post(server.url, { message: 'When was the last API latency incident?', forced_tool_id: 3 });
    const web = packets(forced.body)
      .filter((p) => p.placement.turn_index === 0)
      .map((p) => p.obj);
    expect(web[0]).toEqual({ type: 'search_tool_start', is_internet_search: true });
    const docs = web.find((o) => o.type === 'search_tool_documents_delta')?.documents as Array<Record<string, unknown>>;
    expect(docs[0]).toMatchObject({
      document_id: 'https://status.acme.example/',
      link: 'https://status.acme.example/',
      source_type: 'web',
      is_internet: true,
      updated_at: null,
    });
    expect(packets(forced.body).find((p) => p.obj.type === 'citation_info')?.obj).toEqual({
      type: 'citation_info',
      citation_number: 1,
      document_id: 'https://status.acme.example/',
    });
  });

  it("a forced tool the message may not use: the service's VALIDATION_ERROR after the ids; in full mode error_msg", async () => {
    const server = await start(FAST);
    const lines = ndjson(
      (await post(server.url, { message: 'Anything?', forced_tool_id: 2, allowed_tool_ids: [1] })).body,
    );
    expect(lines.slice(1)).toEqual([
      { user_message_id: 1, reserved_assistant_message_id: 2 },
      {
        error: 'Forced tool 2 not found in tools',
        stack_trace: null,
        error_code: 'VALIDATION_ERROR',
        is_retryable: true,
        details: null,
      },
    ]);
    const full = JSON.parse(
      (await post(server.url, { message: 'Anything?', forced_tool_id: 9, stream: false })).body,
    ) as Record<string, unknown>;
    expect(full).toMatchObject({ answer: '', error_msg: 'Forced tool 9 not found in tools', tool_calls: [] });
  });

  it("two searches in one cycle: one tab each, the second's citations from 101", async () => {
    const tools = DEFAULT_TOOLS.map((t) => (t.kind === 'internal_search' ? { ...t, match: ['/./'] } : t));
    const server = await start({ ...FAST, tools, min_coverage: 0.1 });
    const r = await post(server.url, {
      message:
        'Search the web: when was the last API latency incident, and how many days of paid time off do full-time employees accrue?',
    });
    expect(types(r.body).filter((t) => t.endsWith('search_tool_start'))).toEqual([
      '0:search_tool_start',
      '1:search_tool_start',
    ]);
    const cited = packets(r.body)
      .filter((p) => p.obj.type === 'citation_info')
      .map((p) => [p.obj.citation_number, p.obj.document_id]);
    expect(cited).toContainEqual([101, 'https://status.acme.example/']);
    expect(cited.filter(([n]) => (n as number) < 100).map(([, id]) => id)).toContain('hr-pto-policy');
    const start6 = packets(r.body).find((p) => p.obj.type === 'message_start')?.obj.final_documents as Array<{
      is_internet: boolean;
    }>;
    expect(start6.some((d) => d.is_internet) && start6.some((d) => !d.is_internet)).toBe(true);
  });

  it('a full response lists every tool call', async () => {
    const server = await start(FAST);
    const body = JSON.parse(
      (
        await post(server.url, {
          message: 'What is the status of ticket SUP-1042? Draw a diagram of it.',
          stream: false,
        })
      ).body,
    ) as { tool_calls: Array<Record<string, unknown>>; answer: string };
    expect(body.tool_calls.map((c) => c.tool_name)).toEqual(['generate_image', 'ticket_status']);
    expect(body.tool_calls[0]).toMatchObject({
      tool_arguments: { prompt: 'What is the status of ticket SUP-1042? Draw a diagram of it.' },
      search_docs: null,
      generated_images: [{ shape: 'square' }],
    });
    expect(body.tool_calls[1]).toMatchObject({
      tool_arguments: { query: 'What is the status of ticket SUP-1042? Draw a diagram of it.' },
      search_docs: null,
      generated_images: null,
    });
    expect(JSON.parse(body.tool_calls[1]!.tool_result as string)).toMatchObject({ ticket: 'SUP-1042', status: 'open' });
    expect(body.answer).toContain('Ticket status returned ticket SUP-1042, status open, priority high');
  });
});

describe('custom and MCP tools as each release writes them', () => {
  const message = 'Check ticket SUP-1042 and book a room for a meeting room review.';
  const toolObjs = async (release: string) => {
    const sim = await startSim({ config: { onyx_release: release, chat: FAST } });
    const r = await call(sim, '/chat/send-chat-message', { token: TOKENS.demo, body: { message } });
    return packets(r.text)
      .filter((p) => p.placement.turn_index === 0)
      .map((p) => p.obj);
  };

  it('v3.1+: tool_id, custom_tool_args and error; an MCP tool has no id', async () => {
    const objs = await toolObjs('4.6');
    expect(objs.slice(0, 3)).toEqual([
      { type: 'custom_tool_start', tool_name: 'ticket_status', tool_id: 4 },
      { type: 'custom_tool_args', tool_name: 'ticket_status', tool_args: { query: message } },
      { type: 'custom_tool_start', tool_name: 'find_meeting_slots', tool_id: null },
    ]);
    expect(objs).toHaveLength(7);
    expect(objs.slice(3)).toEqual(
      expect.arrayContaining([
        {
          type: 'custom_tool_delta',
          tool_name: 'ticket_status',
          tool_id: 4,
          response_type: 'json',
          data: DEFAULT_TOOLS[3]!.response,
          file_ids: null,
          error: null,
        },
        {
          type: 'custom_tool_delta',
          tool_name: 'find_meeting_slots',
          tool_id: null,
          response_type: 'json',
          data: { tool_result: DEFAULT_TOOLS[4]!.response },
          file_ids: null,
          error: null,
        },
      ]),
    );
  });

  it('before v3.1: no tool_id, no error, no custom_tool_args', async () => {
    const objs = await toolObjs('3.0');
    expect(objs.filter((o) => o.type !== 'section_end')).toEqual(
      expect.arrayContaining([
        { type: 'custom_tool_start', tool_name: 'ticket_status' },
        {
          type: 'custom_tool_delta',
          tool_name: 'ticket_status',
          response_type: 'json',
          data: DEFAULT_TOOLS[3]!.response,
          file_ids: null,
        },
        { type: 'custom_tool_start', tool_name: 'find_meeting_slots' },
      ]),
    );
    expect(objs.some((o) => o.type === 'custom_tool_args' || 'tool_id' in o || 'error' in o)).toBe(false);
  });
});
