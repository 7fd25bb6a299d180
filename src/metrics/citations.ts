/**
 * @module metrics/citations
 * Citations of one answer: the ranked list R (shared by the client, which writes it into the record
 * as `cited_document_ids`), the `[[n]]` markers of the answer text, and the citation scores of
 * shared/spec/metrics.md (precision, recall, F1, invalid citations, duplicates).
 */
import type { z } from 'zod';
import type { CitationSchema } from '../records/record.js';
import { rankedUnique } from './ranking.js';

type Citation = z.infer<typeof CitationSchema>;

/**
 * Orders citations by citation number (ties keep arrival order), trims ids, drops empty ones and
 * keeps the first occurrence of each document. `duplicates` counts citations of a document already
 * cited (metrics.md: kept once in the ranking, reported separately).
 */
export function rankCitations(citations: readonly Citation[]): { ranked: string[]; duplicates: number } {
  // Array.prototype.sort is stable, so equal numbers keep the order they arrived in.
  const byNumber = [...citations].sort((a, b) => a.citation_number - b.citation_number);
  return rankedUnique(byNumber.map((c) => c.document_id));
}

/** The record's `cited_document_ids`: cited documents in citation-number order, de-duplicated. */
export function citedDocumentIds(citations: readonly Citation[]): string[] {
  return rankCitations(citations).ranked;
}

/** One `[[n]]` marker in the answer text; `end` is exclusive and covers the `(link)` when present. */
export interface CitationMarker {
  number: number;
  start: number;
  end: number;
  link: string | null;
}

const MARKER = /\[\[(\d+)\]\]/g;
const WHITESPACE = /\s/;

/**
 * Finds `[[n]](link)` and bare `[[n]]` markers, in text order. A link may hold brackets and
 * balanced parentheses (`(https://w.org/Foo_(bar))`); it ends at the parenthesis that balances the
 * opening one. A `(` that is not closed before whitespace or the end of the text is not a link: the
 * marker is then bare and the text after it stays. Text inside a link is never read as a marker.
 */
export function parseCitationMarkers(answer: string): CitationMarker[] {
  const markers: CitationMarker[] = [];
  MARKER.lastIndex = 0;
  for (let match = MARKER.exec(answer); match !== null; match = MARKER.exec(answer)) {
    const start = match.index;
    const afterMarker = start + match[0].length;
    const linkEnd = answer[afterMarker] === '(' ? closingParenthesis(answer, afterMarker) : -1;
    const end = linkEnd === -1 ? afterMarker : linkEnd + 1;
    const link = linkEnd === -1 ? null : answer.slice(afterMarker + 1, linkEnd);
    markers.push({ number: Number(match[1]), start, end, link });
    MARKER.lastIndex = end;
  }
  return markers;
}

/** Index of the `)` balancing the `(` at `open`, or -1 when whitespace or the end comes first. */
function closingParenthesis(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    const ch = text[i] ?? '';
    if (ch === '(') depth += 1;
    else if (ch === ')') {
      depth -= 1;
      if (depth === 0) return i;
    } else if (WHITESPACE.test(ch)) return -1;
  }
  return -1;
}

/**
 * The answer with every marker (and its link) removed; nothing else changes, so "Compose [[1]](x)."
 * becomes "Compose ." — the answer checks fold whitespace, which makes that harmless.
 */
export function stripCitations(answer: string): string {
  let out = '';
  let from = 0;
  for (const marker of parseCitationMarkers(answer)) {
    out += answer.slice(from, marker.start);
    from = marker.end;
  }
  return out + answer.slice(from);
}

/**
 * The record's `markers_without_citation`: numbers of markers with no citation of that number,
 * each once, in order of first appearance. A null answer has none.
 */
export function markersWithoutCitation(answer: string | null, citations: readonly Citation[]): number[] {
  if (answer === null) return [];
  const cited = new Set(citations.map((c) => c.citation_number));
  const missing = new Set<number>();
  for (const marker of parseCitationMarkers(answer)) if (!cited.has(marker.number)) missing.add(marker.number);
  return [...missing];
}

/** Citation precision, recall and F1 of one answer; null = N/A. */
export interface CitationScores {
  citation_precision: number | null;
  citation_recall: number | null;
  citation_f1: number | null;
}

/**
 * precision = |R ∩ E| / n, recall = |R ∩ E| / m, F1 = 2PR / (P + R).
 * m = 0 → all three null. n = 0 → precision null, recall 0, F1 0 (F1 is 0 whenever P and R are 0
 * or P is N/A), so the question stays in the recall and F1 denominators.
 */
export function citationScores(ranked: readonly string[], expected: Iterable<string>): CitationScores {
  const expectedSet = new Set(expected);
  const m = expectedSet.size;
  if (m === 0) return { citation_precision: null, citation_recall: null, citation_f1: null };
  const hits = ranked.filter((id) => expectedSet.has(id)).length;
  const recall = hits / m;
  if (ranked.length === 0) return { citation_precision: null, citation_recall: recall, citation_f1: 0 };
  const precision = hits / ranked.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { citation_precision: precision, citation_recall: recall, citation_f1: f1 };
}

/**
 * Invalid citations of metrics.md: each distinct cited document that is not among the documents the
 * answer was given (`top_document_ids`; ids compared trimmed), plus each marker number with no
 * citation_info. A document cited twice counts once here; the repeat is a duplicate.
 */
export function invalidCitations(
  ranked: readonly string[],
  topDocumentIds: readonly string[],
  markersWithoutCitationInfo: readonly number[],
): number {
  const given = new Set(topDocumentIds.map((id) => id.trim()));
  return ranked.filter((id) => !given.has(id)).length + markersWithoutCitationInfo.length;
}
