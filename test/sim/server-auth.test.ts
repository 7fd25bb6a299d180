// The auth matrix over real HTTP: each default token (and none, and an unknown one) against each
// operation, the two 403 bodies, and anonymous chat on and off.
import { describe, expect, it } from 'vitest';
import { NOT_AUTHENTICATED_DETAIL } from '../../src/api/index.js';
import { TOKENS, call, startSim } from '../helpers/start-sim.js';

const OPERATIONS = {
  chat: {
    path: '/chat/send-chat-message',
    body: { message: 'How many days of paid time off do I get?', stream: false },
  },
  openUrls: { path: '/web-search/open-urls', body: { urls: ['https://unknown.example/'] } },
  projectPost: { path: '/user/projects/1/instructions', body: { instructions: 'Be brief.' } },
  projectGet: { path: '/user/projects/1/instructions', body: undefined },
} as const;
type Operation = keyof typeof OPERATIONS;

const OK = 200;
const DENIED = 'denied'; // 403 not authenticated
const SCOPE = 'scope'; // 403 INSUFFICIENT_PERMISSIONS
const NOT_FOUND = 404; // project 1 belongs to the demo user
type Expected = typeof OK | typeof DENIED | typeof SCOPE | typeof NOT_FOUND;

const MATRIX: Array<[string, string | undefined, Record<Operation, Expected>]> = [
  ['demo (unrestricted)', TOKENS.demo, { chat: OK, openUrls: OK, projectPost: OK, projectGet: OK }],
  ['read:search only', TOKENS.searchOnly, { chat: SCOPE, openUrls: OK, projectPost: SCOPE, projectGet: SCOPE }],
  ['write:chat only', TOKENS.chatOnly, { chat: OK, openUrls: SCOPE, projectPost: SCOPE, projectGet: SCOPE }],
  [
    'second user (unrestricted)',
    TOKENS.secondUser,
    { chat: OK, openUrls: OK, projectPost: NOT_FOUND, projectGet: NOT_FOUND },
  ],
  ['no token', undefined, { chat: DENIED, openUrls: DENIED, projectPost: DENIED, projectGet: DENIED }],
  [
    'an unknown token',
    'onyx_pat_not_issued',
    { chat: DENIED, openUrls: DENIED, projectPost: DENIED, projectGet: DENIED },
  ],
];

describe('auth matrix', () => {
  it.each(MATRIX)('%s', async (_name, token, expected) => {
    const sim = await startSim();
    for (const [operation, want] of Object.entries(expected) as Array<[Operation, Expected]>) {
      const { path, body } = OPERATIONS[operation];
      const res = await call(sim, path, { token, body });
      const got =
        res.status === 403
          ? (res.json as { error_code?: string }).error_code === 'INSUFFICIENT_PERMISSIONS'
            ? SCOPE
            : DENIED
          : res.status;
      expect({ operation, got }).toEqual({ operation, got: want });
      if (want === DENIED) expect(res.json).toEqual({ detail: NOT_AUTHENTICATED_DETAIL });
      if (want === SCOPE) {
        expect(res.json).toEqual({
          error_code: 'INSUFFICIENT_PERMISSIONS',
          detail: expect.stringMatching(/'(write:chat|read:search|basic)' permission/),
        });
      }
    }
  });

  it('the scheme is case-insensitive; another scheme or a malformed header is not authenticated', async () => {
    const sim = await startSim();
    const path = OPERATIONS.projectGet.path;
    expect((await call(sim, path, { headers: { authorization: `bearer ${TOKENS.demo}` } })).status).toBe(200);
    for (const authorization of [`Basic ${TOKENS.demo}`, TOKENS.demo, 'Bearer', `Bearer ${TOKENS.demo} extra`]) {
      const res = await call(sim, path, { headers: { authorization } });
      expect([authorization, res.status]).toEqual([authorization, 403]);
    }
  });

  it('scope implication: basic grants everything, write:chat grants read:chat but not search', async () => {
    const tokens = [
      { token: 't_basic', user_id: 'u1', scopes: ['basic'] },
      { token: 't_read_chat', user_id: 'u1', scopes: ['read:chat'] },
    ] as const;
    const sim = await startSim({
      config: { tokens: tokens.map((t) => ({ ...t, scopes: [...t.scopes] })), projects: [{ id: 1, owner: 'u1' }] },
    });
    expect(sim.tokens.map((t) => t.token)).toEqual(['t_basic', 't_read_chat']);
    expect(
      (await call(sim, OPERATIONS.openUrls.path, { token: 't_basic', body: OPERATIONS.openUrls.body })).status,
    ).toBe(200);
    expect((await call(sim, OPERATIONS.projectGet.path, { token: 't_basic' })).json).toEqual({ instructions: '' });
    const readChat = await call(sim, OPERATIONS.chat.path, { token: 't_read_chat', body: OPERATIONS.chat.body });
    expect((readChat.json as { error_code: string }).error_code).toBe('INSUFFICIENT_PERMISSIONS');
  });

  it('the demo token can be chosen (options.token)', async () => {
    const sim = await startSim({ token: 'onyx_pat_custom' });
    expect(sim.tokens[0]).toEqual({ token: 'onyx_pat_custom', user_id: 'demo-user' });
    expect((await call(sim, OPERATIONS.projectGet.path, { token: 'onyx_pat_custom' })).status).toBe(200);
    expect((await call(sim, OPERATIONS.projectGet.path, { token: TOKENS.demo })).status).toBe(403);
  });
});

describe('anonymous chat', () => {
  it('off (default): chat without a token is 403', async () => {
    const sim = await startSim();
    const res = await call(sim, OPERATIONS.chat.path, { body: OPERATIONS.chat.body });
    expect([res.status, res.json]).toEqual([403, { detail: NOT_AUTHENTICATED_DETAIL }]);
  });

  it('on: a missing or unknown token chats as the anonymous user; other operations still refuse', async () => {
    const sim = await startSim({ config: { anonymous_chat: true } });
    expect((await call(sim, OPERATIONS.chat.path, { body: OPERATIONS.chat.body })).status).toBe(200);
    expect((await call(sim, OPERATIONS.chat.path, { token: 'bogus', body: OPERATIONS.chat.body })).status).toBe(200);
    expect((await call(sim, OPERATIONS.openUrls.path, { body: OPERATIONS.openUrls.body })).status).toBe(403);
    expect((await call(sim, OPERATIONS.projectGet.path, {})).status).toBe(403);
    // A known token without the scope is still refused: anonymous access is not a way around scopes.
    const scoped = await call(sim, OPERATIONS.chat.path, { token: TOKENS.searchOnly, body: OPERATIONS.chat.body });
    expect((scoped.json as { error_code: string }).error_code).toBe('INSUFFICIENT_PERMISSIONS');
  });
});
