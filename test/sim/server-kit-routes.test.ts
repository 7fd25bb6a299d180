/**
 * What the service's own load-test kit needs beyond send-chat-message (issue 25 §3): a created
 * session continued by a message, a multipart upload whose file a message attaches by
 * `file_descriptors`, and the kit's mock model names as profiles (timings, length, tools).
 */
import { describe, expect, it } from 'vitest';
import { FileUploadResponseSchema } from '../../src/api/index.js';
import { createFileStore, MAX_ATTACHED_TOKENS } from '../../src/sim/chat-setup.js';
import { call, startSim, TOKENS } from '../helpers/start-sim.js';

const CHAT = '/chat/send-chat-message';
const QUESTION = 'How many days of paid time off do employees get?';
const objs = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { obj?: { type: string; content?: string } }).obj)
    .filter((o) => o !== undefined);
const answerOf = (text: string) =>
  objs(text)
    .filter((o) => o.type === 'message_delta' || o.type === 'message_start')
    .map((o) => o.content ?? '')
    .join('');

describe('the kit routes', () => {
  it('POST /chat/create-chat-session makes an empty session a message continues', async () => {
    const sim = await startSim();
    const created = await call(sim, '/chat/create-chat-session', {
      token: TOKENS.demo,
      body: { persona_id: 0, description: 'loadtest-1' },
    });
    expect(created.status).toBe(200);
    const { chat_session_id: id, incognito } = created.json as { chat_session_id: string; incognito: boolean };
    expect([typeof id, incognito]).toEqual(['string', false]);
    const first = await call(sim, CHAT, {
      token: TOKENS.demo,
      body: { message: QUESTION, chat_session_id: id, stream: true },
    });
    expect(first.text).not.toContain('"error"');
    expect(first.text).toContain('"type":"stop"'.replace(':', ': '));
    expect((await call(sim, '/chat/create-chat-session', { body: {} })).status).toBe(403); // no token
    expect(
      (await call(sim, CHAT, { token: TOKENS.secondUser, body: { message: QUESTION, chat_session_id: id } })).text,
    ).toContain('Invalid Chat Session ID provided');
  });

  it('POST /user/projects/file/upload keeps the file for its user; a message attaches it by file_descriptors', async () => {
    const sim = await startSim({ config: { chat: { time_scale: 0.001 } } });
    const form = new FormData();
    form.append('files', new Blob(['word '.repeat(2000)], { type: 'text/plain' }), 'notes.txt');
    const res = await fetch(`${sim.baseUrl}/user/projects/file/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKENS.demo}` },
      body: form,
    });
    expect(res.status).toBe(200);
    const body = FileUploadResponseSchema.parse(await res.json());
    expect(body.user_files).toHaveLength(1);
    expect(body.user_files[0]).toMatchObject({ name: 'notes.txt', chat_file_type: 'plain_text', token_count: 2000 });
    const uf = body.user_files[0]!;
    const attach = [{ id: uf.file_id, type: uf.chat_file_type, name: uf.name, user_file_id: uf.id }];
    const attached = await call(sim, CHAT, {
      token: TOKENS.demo,
      body: { message: QUESTION, stream: false, file_descriptors: attach },
    });
    expect(attached.status).toBe(200);
    expect(sim.stats().http['file-upload']).toEqual({ '200': 1 });
    const noFiles = await fetch(`${sim.baseUrl}/user/projects/file/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKENS.demo}` },
      body: new FormData(),
    });
    expect(noFiles.status).toBe(422);
  });

  it('a file store counts the attached files of their owner only', () => {
    const store = createFileStore();
    store.add(['uf-1', 'file-1'], { userId: 'u1', tokens: 300 });
    expect(store.attachedTokens('u1', [{ id: 'file-1' }])).toBe(300);
    expect(store.attachedTokens('u1', [{ id: 'nope', user_file_id: 'uf-1' }])).toBe(300);
    expect(store.attachedTokens('u2', [{ id: 'file-1' }])).toBe(0);
    expect(store.attachedTokens('u1', [{ id: 'unknown' }])).toBe(0);
    store.add(['big'], { userId: 'u1', tokens: 90_000 });
    expect(store.attachedTokens('u1', [{ id: 'big' }, { id: 'file-1' }])).toBe(MAX_ATTACHED_TOKENS);
  });

  it.each([
    { name: 'mock-ttft500-itl20-len40', tokens: 40, search: false },
    { name: 'mock-tools1', tokens: 150, search: true },
    { name: 'mock-len7-tools3', tokens: 7, search: true },
  ])('the mock model $name answers with $tokens tokens (search: $search)', async ({ name, tokens, search }) => {
    const sim = await startSim({ config: { chat: { time_scale: 0.001 } } });
    const res = await call(sim, CHAT, {
      token: TOKENS.demo,
      body: { message: QUESTION, llm_override: { model_version: name } },
    });
    const types = objs(res.text).map((o) => o.type);
    expect(types.includes('search_tool_start')).toBe(search);
    expect(
      objs(res.text)
        .filter((o) => o.type === 'message_delta' || o.type === 'message_start')
        .filter((o) => (o.content ?? '') !== '').length,
    ).toBe(tokens);
    expect(answerOf(res.text).length).toBeGreaterThan(0);
  });
});
