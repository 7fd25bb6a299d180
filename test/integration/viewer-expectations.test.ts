/**
 * The served viewer's "Expected documents" API over real loopback HTTP: the candidates
 * draft-expectations wrote, decisions taken only as a same-origin JSON post naming a candidate,
 * appended to expectations.jsonl and read back by a new viewer, and the completed dataset CSV.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { openViewRuns } from '../../src/app/shared/view-runs.js';
import { startViewerServer, type ViewerServer } from '../../src/viewer/server.js';
import { draftedRun, writeRun } from '../helpers/expectations-run.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function serve(draft: boolean): Promise<{ root: string; server: ViewerServer }> {
  const root = mkdtempSync(join(tmpdir(), 'chatbench-view-expectations-'));
  if (draft) await draftedRun(root);
  else writeRun(root);
  const source = await openViewRuns({ runs: ['run'], cwd: root, reviewer: 'ann', version: 'test', resamples: 200 });
  const server = await startViewerServer({ source, bundle: { js: '', css: '' } });
  cleanups.push(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });
  return { root, server };
}

const origin = (server: ViewerServer) => server.url.replace(/\/$/, '');
const decide = (server: ViewerServer, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}api/expectations`, {
    method: 'POST',
    headers: { origin: origin(server), 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const problemOf = async (response: Response) => ({
  status: response.status,
  error: ((await response.json()) as { error: string }).error,
});

describe('the viewer: expected documents', () => {
  it('serves the candidates, takes decisions that persist, and exports the completed dataset', async () => {
    const { root, server } = await serve(true);
    const listed = (await (await fetch(`${server.url}api/expectations?id=pto`)).json()) as {
      expectations: { run: number; question: { candidates: { document_id: string; title: string }[] } }[];
    };
    expect(listed.expectations).toHaveLength(1);
    expect(listed.expectations[0]!.question.candidates.map((c) => [c.document_id, c.title])).toEqual([
      ['hr-pto-policy', 'Paid time off policy'],
      ['hr-parental-leave', 'Parental leave'],
    ]);

    const pto = { run: 0, question_id: 'pto', decision: 'accept' };
    expect((await decide(server, { ...pto, document_id: 'hr-pto-policy' })).status).toBe(200);
    expect((await decide(server, { ...pto, document_id: 'hr-parental-leave' })).status).toBe(200);
    expect((await decide(server, { ...pto, document_id: 'hr-parental-leave', decision: 'reject' })).status).toBe(200);
    const lines = readFileSync(join(root, 'run', 'expectations.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[2]!)).toMatchObject({
      decision_version: 1,
      question_id: 'pto',
      document_id: 'hr-parental-leave',
      decision: 'reject',
      reviewer: 'ann',
    });

    // A new viewer of the run reads the decisions back, the last of each candidate winning.
    const again = await openViewRuns({ runs: ['run'], cwd: root, reviewer: 'bo', version: 'test', resamples: 200 });
    expect((await again.expectations('pto'))[0]!.decisions).toEqual({
      'hr-pto-policy': 'accept',
      'hr-parental-leave': 'reject',
    });

    const exported = await fetch(`${server.url}api/expectations.csv?run=0`);
    expect(exported.headers.get('content-disposition')).toBe('attachment; filename="expectations.csv"');
    expect(parse(await exported.text(), { columns: true })).toEqual([
      expect.objectContaining({ id: 'pto', expected_documents: 'hr-pto-policy' }),
      expect.objectContaining({ id: 'leave', expected_documents: 'hr-parental-leave' }),
    ]);
  });

  it('takes a decision only as a same-origin JSON post naming a candidate of a question without expectations', async () => {
    const { root, server } = await serve(true);
    const body = { run: 0, question_id: 'pto', document_id: 'hr-pto-policy', decision: 'accept' };
    expect((await decide(server, body, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await decide(server, body, { 'content-type': 'text/plain' })).status).toBe(415);
    expect(await problemOf(await decide(server, { ...body, decision: 'maybe' }))).toMatchObject({ status: 400 });
    expect(await problemOf(await decide(server, { ...body, document_id: 'hr-nope' }))).toEqual({
      status: 400,
      error: 'decision: hr-nope is not a candidate of pto',
    });
    expect(await problemOf(await decide(server, { ...body, question_id: 'leave' }))).toEqual({
      status: 400,
      error: 'decision: leave has expected documents already (kept as they are)',
    });
    expect(await problemOf(await decide(server, { ...body, run: 3 }))).toMatchObject({ status: 400 });
    expect(() => readFileSync(join(root, 'run', 'expectations.jsonl'))).toThrow(/ENOENT/);
  });

  it('a run that was not drafted has no candidates and nothing to export', async () => {
    const { server } = await serve(false);
    expect(await (await fetch(`${server.url}api/expectations?id=pto`)).json()).toEqual({ expectations: [] });
    expect(await problemOf(await fetch(`${server.url}api/expectations.csv?run=0`))).toEqual({
      status: 400,
      error: 'run: no candidates (run chatbench draft-expectations on it first)',
    });
  });

  it('a bad line of expectations.jsonl is named with its line; a torn last line is skipped', async () => {
    const root = mkdtempSync(join(tmpdir(), 'chatbench-view-expectations-'));
    cleanups.push(async () => rmSync(root, { recursive: true, force: true }));
    await draftedRun(root);
    const file = join(root, 'run', 'expectations.jsonl');
    writeFileSync(file, '{"decision_version": 1, "question_id": "pto"');
    const open = () => openViewRuns({ runs: ['run'], cwd: root, reviewer: 'ann', version: 'test', resamples: 200 });
    await expect(open()).resolves.toBeDefined();
    appendFileSync(file, '\n');
    await expect(open()).rejects.toThrow(/run\/expectations\.jsonl:1: not JSON/);
  });
});
