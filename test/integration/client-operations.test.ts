import { describe, expect, it } from 'vitest';
import { openUrls } from '../../src/client/open-urls-client.js';
import { getProjectInstructions, putProjectInstructions } from '../../src/client/project-client.js';
import { RunError } from '../../src/errors.js';
import { startScriptedServer } from '../helpers/scripted-server.js';

const TOKEN = 'onyx_pat_operations_secret';
const json = { 'content-type': 'application/json' };
const reply = (status: number, body: unknown) => ({
  status,
  headers: json,
  chunks: [{ at_ms: 0, bytes: JSON.stringify(body) }],
});

describe('project instructions', () => {
  it('POSTs the instructions and returns what was saved; GET reads them', async () => {
    const server = await startScriptedServer([
      reply(200, { instructions: 'Be brief.' }),
      reply(200, { instructions: 'Be brief.' }),
    ]);
    const options = { baseUrl: server.baseUrl, token: TOKEN };
    expect(await putProjectInstructions(options, 7, 'Be brief.')).toEqual({ instructions: 'Be brief.' });
    expect(await getProjectInstructions(options, 7)).toEqual({ instructions: 'Be brief.' });
    expect(server.requests.map((r) => [r.method, r.url, r.headers['authorization']])).toEqual([
      ['POST', '/api/user/projects/7/instructions', `Bearer ${TOKEN}`],
      ['GET', '/api/user/projects/7/instructions', `Bearer ${TOKEN}`],
    ]);
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ instructions: 'Be brief.' });
  });
  it.each([
    [reply(404, { detail: 'Project not found' }), /project 7 instructions: POST .* answered 404: Project not found/],
    [reply(403, { detail: `Access denied for ${TOKEN}` }), /answered 403: Access denied for \[redacted\]/],
    [reply(200, { nope: 1 }), /answered 200 with an unexpected body/],
  ])('a failure is a RunError naming the status and detail (%#)', async (script, message) => {
    const server = await startScriptedServer([script]);
    const error = await putProjectInstructions({ baseUrl: server.baseUrl, token: TOKEN }, 7, 'x').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RunError);
    expect((error as RunError).message).toMatch(message);
    expect((error as RunError).message).not.toContain(TOKEN);
    expect((error as RunError).exitCode).toBe(3);
  });
});

describe('open-urls', () => {
  it('returns the results, provider and latency', async () => {
    const body = {
      results: [
        { document_citation_number: -1, unique_identifier_to_strip_away: 'https://a', type: 'open_url', content: 'A' },
      ],
      provider_type: 'exa',
    };
    const server = await startScriptedServer([
      { ...reply(200, body), chunks: [{ at_ms: 30, bytes: JSON.stringify(body) }] },
    ]);
    const e = await openUrls({ baseUrl: server.baseUrl, token: TOKEN }, ['https://a', 'https://b']);
    expect(e).toMatchObject({ outcome: 'ok', http_status: 200, provider_type: 'exa', results: body.results });
    expect(e.latency_ms).toBeGreaterThanOrEqual(29);
    expect(server.requests[0]?.url).toBe('/api/web-search/open-urls');
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ urls: ['https://a', 'https://b'] });
  });
  it('classifies 422, 502, a wrong body, a timeout and a cancel', async () => {
    const server = await startScriptedServer([
      reply(422, { detail: [{ loc: ['body', 'urls'], msg: 'no URL left', type: 'value_error' }] }),
      reply(502, { error_code: 'BAD_GATEWAY', detail: 'provider failed' }),
      reply(200, { results: 'x' }),
      { chunks: [], stall: true, headers_at_ms: 5_000 },
      { chunks: [], stall: true, headers_at_ms: 5_000 },
    ]);
    const options = { baseUrl: server.baseUrl, token: TOKEN };
    expect(await openUrls(options, [' '])).toMatchObject({
      outcome: 'http_error',
      http_status: 422,
      error_message: 'no URL left',
    });
    expect(await openUrls(options, ['u'])).toMatchObject({ outcome: 'http_error', error_code: 'BAD_GATEWAY' });
    expect(await openUrls(options, ['u'])).toMatchObject({ outcome: 'invalid_response', http_status: 200 });
    expect(await openUrls({ ...options, timeoutMs: 100 }, ['u'])).toMatchObject({
      outcome: 'timeout',
      http_status: null,
    });
    expect(await openUrls(options, ['u'], AbortSignal.timeout(50))).toMatchObject({ outcome: 'cancelled' });
  });
});
