/**
 * A small run directory for the viewer's tests: a few questions × a streamed set, a full set and
 * a multi-model set, answers with citation markers (one invalid), a failure, a timeout with a
 * retry, and a field this version does not know (a judge's verdict) kept in results.jsonl.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildViewer } from '../../scripts/build-viewer.mjs';
import { makeFigures, makeModel, makeRecord, makeScores } from '../../src/metrics/test-records.js';
import type { RequestRecord } from '../../src/records/record.js';

const LONG_URL = `https://wiki.example/${'very-long-path-segment-'.repeat(8)}end`;

/** The records of the run; `variant: 'baseline'` makes q2 pass for `fast` (so the current run broke it). */
export function viewRecords(variant: 'current' | 'baseline' = 'current'): RequestRecord[] {
  const out: RequestRecord[] = [];
  const questions = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6'];
  for (const q of questions) {
    const expected = [`doc-${q}`];
    const good = makeScores({ citation_recall: 1, citation_precision: 1, hit_at_5: 1, pass: true });
    const bad = makeScores({
      citation_recall: 0,
      citation_precision: 0,
      hit_at_5: 0,
      pass: false,
      invalid_citations: 1,
    });
    const answer = `The answer to ${q} is in the policy [[1]](https://wiki.example/${q}) and nowhere else [[2]](${LONG_URL}).`;
    const figures = makeFigures({
      answer,
      citations: [
        { citation_number: 1, document_id: `doc-${q}` },
        { citation_number: 2, document_id: 'doc-elsewhere' },
      ],
      cited_document_ids: [`doc-${q}`, 'doc-elsewhere'],
      top_document_ids: [`doc-${q}`, 'doc-other'],
      first_packet_ms: { search_tool_documents_delta: 60, message_start: 90, citation_info: 250 },
    });
    const fastFails = q === 'q2' && variant === 'current';
    out.push(
      makeRecord({
        ...figures,
        question_id: q,
        question: `What does the policy say about ${q}?`,
        category: q < 'q4' ? 'hr' : 'it',
        set: 'fast',
        expected_document_ids: expected,
        scores: fastFails ? bad : good,
      }),
    );
    out.push(
      makeRecord({
        ...figures,
        question_id: q,
        question: `What does the policy say about ${q}?`,
        category: q < 'q4' ? 'hr' : 'it',
        set: 'fast',
        mode: 'full',
        ttfp_ms: null,
        ttft_ms: null,
        expected_document_ids: expected,
        scores: good,
      }),
    );
    const timeout = q === 'q5';
    out.push(
      makeRecord({
        question_id: q,
        question: `What does the policy say about ${q}?`,
        category: q < 'q4' ? 'hr' : 'it',
        set: 'duo',
        expected_document_ids: expected,
        scores: null,
        outcome: timeout ? 'timeout' : 'ok',
        ...(timeout
          ? {
              attempts: [
                {
                  attempt: 0,
                  outcome: 'network' as const,
                  http_status: null,
                  error_code: 'ECONNRESET',
                  retry_after_s: null,
                  total_ms: 12,
                },
                {
                  attempt: 1,
                  outcome: 'timeout' as const,
                  http_status: 200,
                  error_code: null,
                  retry_after_s: null,
                  total_ms: 3000,
                },
              ],
            }
          : {}),
        models: [
          makeModel(0, { ...figures, scores: good, model_name: 'small' }),
          makeModel(1, {
            ...figures,
            scores: timeout ? null : good,
            outcome: timeout ? 'timeout' : 'ok',
            model_name: 'large',
          }),
        ],
      }),
    );
  }
  return out;
}

/** The judge's verdict one record carries (records/quality): the question page shows it with its reason. */
export const VIEW_JUDGEMENT = {
  model: 'judge-1',
  prompt_version: 'v1',
  verdicts: {
    correctness: {
      status: 'ok',
      score: 0.5,
      reason: 'Names the policy but not the number of days.',
      error: null,
      asks: [0.5],
      cached: 0,
    },
  },
};

/** Writes a run directory (results.jsonl with the judge's verdict on one record) and gives its path. */
export function writeViewRun(root: string, name: string, variant: 'current' | 'baseline' = 'current'): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const lines = viewRecords(variant).map((r) =>
    JSON.stringify(r.key === 'q1|fast|stream|0' ? { ...r, judge: VIEW_JUDGEMENT } : r),
  );
  writeFileSync(join(dir, 'results.jsonl'), `${lines.join('\n')}\n`);
  return dir;
}

/** A fresh viewer bundle in a temporary directory (esbuild, well under a second). */
export async function buildTestBundle(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'chatbench-bundle-'));
  await buildViewer(dir);
  return dir;
}
