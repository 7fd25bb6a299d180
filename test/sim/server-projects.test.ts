// Project instructions over real HTTP: replace semantics, GET, isolation between two users,
// the integer path parameter, and `basic` (which no scoped token holds).
import { describe, expect, it } from 'vitest';
import { TOKENS, call, startSim } from '../helpers/start-sim.js';

const path = (id: number | string) => `/user/projects/${id}/instructions`;

describe('project instructions', () => {
  it('POST replaces the text (empty allowed) and GET reads it back', async () => {
    const sim = await startSim();
    const first = await call(sim, path(2), { token: TOKENS.demo, body: { instructions: 'Answer in French.' } });
    expect(first.status).toBe(200);
    expect(first.text).toBe('{"instructions":"Answer in French."}');
    expect((await call(sim, path(2), { token: TOKENS.demo })).json).toEqual({ instructions: 'Answer in French.' });
    const long = 'x'.repeat(200_000);
    expect((await call(sim, path(2), { token: TOKENS.demo, body: { instructions: long } })).json).toEqual({
      instructions: long,
    });
    const cleared = await call(sim, path(2), { token: TOKENS.demo, body: { instructions: '' } });
    expect(cleared.json).toEqual({ instructions: '' });
    expect((await call(sim, path(2), { token: TOKENS.demo })).json).toEqual({ instructions: '' });
  });

  it('isolates users: another user\'s project is "not found" for reading and writing, and stays unchanged', async () => {
    const sim = await startSim();
    const before = (await call(sim, path(3), { token: TOKENS.secondUser })).json;
    expect(before).toEqual({ instructions: 'Only answer questions about finance.' });
    for (const [token, id] of [
      [TOKENS.demo, 3],
      [TOKENS.secondUser, 1],
      [TOKENS.secondUser, 2],
    ] as const) {
      const write = await call(sim, path(id), { token, body: { instructions: 'hijacked' } });
      expect(write.status).toBe(404);
      expect(write.json).toEqual({ detail: 'Project not found' });
      expect((await call(sim, path(id), { token })).json).toEqual({ detail: 'Project not found' });
    }
    expect((await call(sim, path(3), { token: TOKENS.secondUser })).json).toEqual(before);
    expect((await call(sim, path(1), { token: TOKENS.demo })).status).toBe(200);
  });

  it('a project that does not exist is 404 too', async () => {
    const sim = await startSim();
    const res = await call(sim, path(999), { token: TOKENS.demo, body: { instructions: 'x' } });
    expect([res.status, res.json]).toEqual([404, { detail: 'Project not found' }]);
  });

  it.each(['abc', '1.5', '%20'])('a non-integer project id %j is 422 at loc path.project_id', async (id) => {
    const sim = await startSim();
    const res = await call(sim, path(id), { token: TOKENS.demo, body: { instructions: 'x' } });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      detail: [
        {
          type: 'int_parsing',
          loc: ['path', 'project_id'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: decodeURIComponent(id),
        },
      ],
    });
  });

  it('a body without instructions, or with a non-string, is 422 in pydantic form', async () => {
    const sim = await startSim();
    const missing = await call(sim, path(1), { token: TOKENS.demo, body: { text: 'x' } });
    expect(missing.json).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'instructions'], msg: 'Field required', input: { text: 'x' } }],
    });
    const wrong = await call(sim, path(1), { token: TOKENS.demo, body: { instructions: 5 } });
    expect(wrong.json).toEqual({
      detail: [{ type: 'string_type', loc: ['body', 'instructions'], msg: 'Input should be a valid string', input: 5 }],
    });
  });

  it('projects come from the config when given', async () => {
    const sim = await startSim({ config: { projects: [{ id: 42, owner: 'demo-user', instructions: 'configured' }] } });
    expect((await call(sim, path(42), { token: TOKENS.demo })).json).toEqual({ instructions: 'configured' });
    expect((await call(sim, path(1), { token: TOKENS.demo })).status).toBe(404);
  });
});
