/**
 * The next runtime's stream (upstream be8920ec) folds into the same milestones as its
 * `message_delta` twin (test/fixtures/onyx-releases), each line decoded as the client decodes it
 * and timed on a fake clock (line i arrives at 10·i ms), so TTFT and the first citation compare exactly.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createCollector } from './collect.js';
import { decodeText } from './wire/decode-part.js';

function fold(name: string) {
  const text = readFileSync(new URL(`../../test/fixtures/onyx-releases/${name}`, import.meta.url), 'utf8');
  const collector = createCollector({ sent: 0, modelNames: null });
  text.split('\n').forEach((line, i) => {
    const part = decodeText(line);
    if (part !== undefined) collector.onPart(part, 10 * i);
  });
  return collector.finish(1000);
}

it('a pydantic_ai stream has the TTFT, first citation, answer and citations of its message_delta twin', () => {
  const twin = fold('v4.6-answer.ndjson');
  const next = fold('next-pydantic-ai-answer.ndjson');
  const figures = (f: ReturnType<typeof fold>) => ({
    outcome: f.outcome,
    ttfp_ms: f.ttfp_ms,
    ttft_ms: f.ttft_ms,
    first_citation_ms: f.first_citation_ms,
    answer: f.answer,
    answer_deltas: f.answer_deltas,
    citations: f.citations,
    cited_document_ids: f.cited_document_ids,
    top_document_ids: f.top_document_ids,
    pre_answer_processing_seconds: f.pre_answer_processing_seconds,
    answer_gaps_ms: f.answer_gaps_ms,
    decode_errors: f.decode_errors,
  });
  expect(figures(next)).toEqual(figures(twin));
  expect(next).toMatchObject({ outcome: 'ok', ttft_ms: 90, first_citation_ms: 100, unknown_parts: 0 });
});
