/**
 * @module client/citations
 * The two citation helpers the client needs while folding a stream into figures. src/metrics owns the
 * scoring versions, but the lint boundary forbids client → metrics; these follow metrics.md exactly
 * (ranked list R: citation-number order, trimmed, first occurrence kept).
 */
import type { AnswerFigures } from '../records/record.js';

type Citation = AnswerFigures['citations'][number];

/** Document ids in citation-number order (stable for equal numbers), trimmed, blanks dropped, de-duplicated. */
export function citedDocumentIds(citations: readonly Citation[]): string[] {
  const ordered = [...citations].sort((a, b) => a.citation_number - b.citation_number);
  const seen = new Set<string>();
  for (const { document_id } of ordered) {
    const id = document_id.trim();
    if (id !== '') seen.add(id);
  }
  return [...seen];
}

// `[[n]](link)` or a bare `[[n]]`; the link is not needed, only n.
const MARKER = /\[\[(\d+)\]\]/g;

/** Citation numbers of every `[[n]]` marker in the answer, in order of appearance, duplicates kept. */
export function parseCitationMarkers(answer: string): number[] {
  return Array.from(answer.matchAll(MARKER), (match) => Number(match[1]));
}

/** Marker numbers with no citation_info of that number, each once, in order of first appearance. */
export function markersWithoutCitation(answer: string, citations: readonly Citation[]): number[] {
  const known = new Set(citations.map((c) => c.citation_number));
  return [...new Set(parseCitationMarkers(answer).filter((n) => !known.has(n)))];
}
