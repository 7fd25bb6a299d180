// Error bodies over real HTTP: 404 and 405 (routing, before auth), 413, and 422 in both shapes
// (the description's and the deployed service's).
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { HTTPValidationErrorSchema } from '../../src/api/index.js';
import { TOKENS, call, startSim } from '../helpers/start-sim.js';

const CHAT = '/chat/send-chat-message';

describe('routing errors', () => {
  it.each([
    ['/chat/nope', 'POST'],
    ['', 'GET'],
    ['/user/projects/1/instructions/extra', 'GET'],
  ] as const)('%s (%s) is 404 Not Found', async (path, method) => {
    const sim = await startSim();
    const res = await call(sim, path, { method });
    expect([res.status, res.json]).toEqual([404, { detail: 'Not Found' }]);
  });

  it('a path outside base_path is 404 even when it names an operation', async () => {
    const sim = await startSim();
    const bare = sim.baseUrl.replace(/\/api$/, '');
    const outside = await call({ ...sim, baseUrl: bare }, CHAT, { token: TOKENS.demo, body: { message: 'hi' } });
    expect([outside.status, outside.json]).toEqual([404, { detail: 'Not Found' }]);
  });

  it('base_path "" serves the routes at the root, as the API server does without its proxy', async () => {
    const sim = await startSim({ config: { base_path: '' } });
    expect(sim.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await call(sim, '/user/projects/1/instructions', { token: TOKENS.demo })).status).toBe(200);
  });

  it.each([
    [CHAT, 'GET', 'POST'],
    ['/web-search/open-urls', 'PUT', 'POST'],
    ['/user/projects/1/instructions', 'DELETE', 'GET, POST'],
  ] as const)('%s with %s is 405 Method Not Allowed', async (path, method, allow) => {
    const sim = await startSim();
    const res = await call(sim, path, { method });
    expect([res.status, res.json, res.headers.allow]).toEqual([405, { detail: 'Method Not Allowed' }, allow]);
  });
});

describe('413', () => {
  it('a body over max_body_bytes is refused with 413 and the connection closed', async () => {
    const sim = await startSim({ config: { max_body_bytes: 2048 } });
    const res = await call(sim, CHAT, { token: TOKENS.demo, body: { message: 'x'.repeat(4096) } });
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ detail: 'Request body too large: the limit is 2048 bytes.' });
    expect(res.headers.connection).toBe('close');
  });

  it('a chunked body (no Content-Length) is cut off once it passes the limit', async () => {
    const sim = await startSim({ config: { max_body_bytes: 1000 } });
    const { port } = new URL(sim.baseUrl);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
      const chunk = 'x'.repeat(600);
      // Two chunks of 600 bytes; the server must answer after the second without waiting for the end.
      socket.write(
        `POST /api${CHAT} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKENS.demo}\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      setTimeout(() => socket.destroy(), 5_000).unref();
    });
    expect(reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(reply).toContain('{"detail":"Request body too large: the limit is 1000 bytes."}');
  });

  it('the default limit is 1 MiB', async () => {
    const sim = await startSim();
    const res = await call(sim, '/user/projects/2/instructions', {
      token: TOKENS.demo,
      body: { instructions: 'y'.repeat(1024 * 1024) },
    });
    expect(res.status).toBe(413);
    const under = await call(sim, '/user/projects/2/instructions', {
      token: TOKENS.demo,
      body: { instructions: 'y'.repeat(1024 * 1024 - 100) },
    });
    expect(under.status).toBe(200);
  });
});

describe('422, the description shape (default)', () => {
  it('a missing field: type missing, "Field required", the body as input', async () => {
    const sim = await startSim();
    const res = await call(sim, CHAT, { token: TOKENS.demo, body: { stream: false } });
    expect(res.status).toBe(422);
    expect(res.text).toBe(
      '{"detail":[{"type":"missing","loc":["body","message"],"msg":"Field required","input":{"stream":false}}]}',
    );
    expect(HTTPValidationErrorSchema.safeParse(res.json).success).toBe(true);
  });

  it('lists every problem, nested locations included', async () => {
    const sim = await startSim();
    const body = {
      message: 7,
      llm_override: { temperature: 3 },
      origin: 'fax',
      chat_session_id: 'nope',
      internal_search_filters: { tags: [{ tag_key: 'a' }] },
    };
    const res = await call(sim, CHAT, { token: TOKENS.demo, body });
    const detail = HTTPValidationErrorSchema.parse(res.json).detail;
    expect(detail.map((error) => [error.type, error.loc.join('.')])).toEqual([
      ['string_type', 'body.message'],
      ['less_than_equal', 'body.llm_override.temperature'],
      ['missing', 'body.internal_search_filters.tags.0.tag_value'],
      ['enum', 'body.origin'],
      ['uuid_parsing', 'body.chat_session_id'],
    ]);
    expect(detail[1]).toMatchObject({ msg: 'Input should be less than or equal to 2', input: 3, ctx: { le: 2 } });
    expect(detail[2]).toMatchObject({ input: { tag_key: 'a' } });
  });

  it.each([
    { name: 'malformed JSON', body: '{"message": ', type: 'json_invalid', loc: ['body', 12] },
    { name: 'an empty body', body: '', type: 'missing', loc: ['body'] },
    { name: 'a JSON array', body: '[1]', type: 'model_attributes_type', loc: ['body'] },
  ])('$name is 422 $type', async ({ body, type, loc }) => {
    const sim = await startSim();
    const res = await call(sim, CHAT, { token: TOKENS.demo, body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(422);
    expect(HTTPValidationErrorSchema.parse(res.json).detail[0]).toMatchObject({ type, loc });
  });

  it('giving both chat_session_id and chat_session_info is 422 with the deployed validator message', async () => {
    const sim = await startSim();
    const body = {
      message: 'hi',
      chat_session_id: '6f1c2d3e-1111-4a2b-9c3d-0123456789ab',
      chat_session_info: { persona_id: 0 },
    };
    const res = await call(sim, CHAT, { token: TOKENS.demo, body });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body'],
          msg: 'Value error, Only one of chat_session_id or chat_session_info should be provided, not both.',
          input: body,
          ctx: { error: {} },
        },
      ],
    });
  });
});

describe('422, the deployed shape', () => {
  it('is {status_code, message, data} with the str() of the errors', async () => {
    const sim = await startSim({ config: { validation_shape: 'deployed' } });
    const res = await call(sim, CHAT, { token: TOKENS.demo, body: { stream: false, note: "it's" } });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      status_code: 422,
      message: `1 validation error: {'type': 'missing', 'loc': ('body', 'message'), 'msg': 'Field required', 'input': {'stream': False, 'note': "it's"}}`,
      data: null,
    });
  });

  it('counts several errors and prints a value error as Python does', async () => {
    const sim = await startSim({ config: { validation_shape: 'deployed' } });
    const res = await call(sim, '/web-search/open-urls', { token: TOKENS.demo, body: { urls: [''] } });
    expect((res.json as { message: string }).message).toBe(
      "1 validation error: {'type': 'value_error', 'loc': ('body', 'urls'), 'msg': 'Value error, urls must include at least one non-empty value', 'input': [''], 'ctx': {'error': ValueError('urls must include at least one non-empty value')}}",
    );
    const path = await call(sim, '/user/projects/x/instructions', { token: TOKENS.demo, body: { instructions: 'ok' } });
    expect((path.json as { message: string }).message).toBe(
      "1 validation error: {'type': 'int_parsing', 'loc': ('path', 'project_id'), 'msg': 'Input should be a valid integer, unable to parse string as an integer', 'input': 'x'}",
    );
    const both = await call(sim, '/user/projects/x/instructions', { token: TOKENS.demo, body: {} });
    expect((both.json as { message: string }).message).toMatch(
      /^2 validation errors: \{'type': 'int_parsing', .*\} \{'type': 'missing', 'loc': \('body', 'instructions'\), 'msg': 'Field required', 'input': \{\}\}$/,
    );
    const many = await call(sim, CHAT, { token: TOKENS.demo, body: { message: null, stream: 'yes' } });
    expect((many.json as { message: string }).message).toMatch(
      /^2 validation errors: \{'type': 'string_type', 'loc': \('body', 'message'\), .*'input': None\} \{'type': 'bool_type', /,
    );
  });
});
