/**
 * @module bench/load/full-answer
 * A full answer as `chatbench serve` sends it (test/bench/fixtures/serve-full.json), and the HTTP
 * facts of its exchange as a load run's client records them: what record-path.bench.ts and
 * score-pass.bench.ts make their records from.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Exchange, HttpFields } from '../../../src/client/exchange.js';

export const FULL_ANSWER_BODY = readFileSync(
  join(resolve(import.meta.dirname, '../../..'), 'test/bench/fixtures/serve-full.json'),
  'utf8',
);

/** The exchange's HTTP facts for the answer sent `sent` ms into the run. */
export const fullAnswerMeta = (sent: number): Pick<Exchange, HttpFields> => ({
  http_status: 200,
  content_type: 'application/json',
  headers_ms: 3,
  rate_limit: null,
  error_body: null,
  framing: null,
  sent,
  started_at: '2026-11-29T00:00:00.000Z',
});
