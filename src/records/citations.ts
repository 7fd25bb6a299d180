/**
 * @module records/citations
 * How a record's citation fields derive from what the service sent: the ranked list R of
 * docs/reference/metrics.md (`cited_document_ids`), and the `[[n]](link)` markers of the answer text. One copy,
 * used by the client that writes the record and by the metrics that score it, so they cannot disagree.
 */
import type { z } from 'zod';
import type { CitationSchema } from './record.js';

type Citation = z.infer<typeof CitationSchema>;

/**
 * Trims each id, drops empty ones and keeps the first occurrence of every id, in order: the ranked
 * list R of docs/reference/metrics.md. `duplicates` counts the later occurrences that were dropped.
 */
export function rankedUnique(ids: readonly string[]): { ranked: string[]; duplicates: number } {
  const seen = new Set<string>();
  let duplicates = 0;
  for (const raw of ids) {
    const id = raw.trim();
    if (id === '') continue;
    if (seen.has(id)) duplicates += 1;
    else seen.add(id);
  }
  return { ranked: [...seen], duplicates };
}

/**
 * Orders citations by citation number (ties keep arrival order), trims ids, drops empty ones and
 * keeps the first occurrence of each document. `duplicates` counts citations of a document already
 * cited (docs/reference/metrics.md: kept once in the ranking, reported separately).
 */
export function rankCitations(citations: readonly Citation[]): { ranked: string[]; duplicates: number } {
  // Array.prototype.sort is stable, so equal numbers keep the order they arrived in.
  const byNumber = [...citations].sort((a, b) => a.citation_number - b.citation_number);
  return rankedUnique(byNumber.map((c) => c.document_id));
}

/**
 * The record's `cited_document_ids`: cited documents in citation-number order, de-duplicated, over
 * the citation_info parts and the markers resolved by their link (`markerCitations`) together.
 */
export function citedDocumentIds(citations: readonly Citation[], markerCitations: readonly Citation[] = []): string[] {
  return rankCitations(markerCitations.length === 0 ? citations : [...citations, ...markerCitations]).ranked;
}

/** One `[[n]]` marker in the answer text; `end` is exclusive and covers the `(link)` when present. */
export interface CitationMarker {
  number: number;
  start: number;
  end: number;
  link: string | null;
}

const WHITESPACE = /\s/;
/** `\s` for one character; printable ASCII but the space never is, so a link's usual characters skip the regex. */
const isWhitespace = (ch: string): boolean => (ch <= ' ' || ch > '~') && WHITESPACE.test(ch);

/**
 * Finds `[[n]](link)` and bare `[[n]]` markers, in text order. A link may hold brackets and
 * balanced parentheses (`(https://w.org/Foo_(bar))`); it ends at the parenthesis that balances the
 * opening one. A `(` that is not closed before whitespace or the end of the text is not a link: the
 * marker is then bare and the text after it stays. Text inside a link is never read as a marker.
 */
export function parseCitationMarkers(answer: string): CitationMarker[] {
  const markers: CitationMarker[] = [];
  for (let from = 0; nextMarker(answer, from); from = found.end) {
    const link = found.linkEnd === -1 ? null : answer.slice(found.start + found.markerLength + 1, found.linkEnd);
    markers.push({ number: found.number, start: found.start, end: found.end, link });
  }
  return markers;
}

/**
 * The marker nextMarker found last: one object, overwritten by each call, so that reading an
 * answer's markers allocates nothing per marker (every answer is read twice: by the client for its
 * figures, by scoring for its text).
 */
const found = { number: 0, start: 0, end: 0, markerLength: 0, linkEnd: -1 };

/**
 * Finds the first marker at or after `from` as parseCitationMarkers reads it (`[[`, ASCII digits,
 * `]]`, then the link's parentheses if any), leaving it in `found`; false when there is none. Read
 * by hand rather than by a global regex, whose every match is an array and two strings.
 */
function nextMarker(answer: string, from: number): boolean {
  for (let at = answer.indexOf('[[', from); at !== -1; at = answer.indexOf('[[', at + 1)) {
    let i = at + 2;
    let number = 0;
    for (let c = answer.charCodeAt(i); c >= 0x30 && c <= 0x39; c = answer.charCodeAt(++i))
      number = number * 10 + (c - 0x30);
    if (i === at + 2 || answer.charCodeAt(i) !== 0x5d || answer.charCodeAt(i + 1) !== 0x5d) continue;
    // `[[99999999999999999999]]` is no citation number a record can hold (a safe integer): text, not
    // a marker. (Digits read one by one are exact below 2^53, and at or over it whatever they round to.)
    if (!Number.isSafeInteger(number)) continue;
    const afterMarker = i + 2;
    const linkEnd = answer.charCodeAt(afterMarker) === 0x28 ? closingParenthesis(answer, afterMarker) : -1;
    found.number = number;
    found.start = at;
    found.markerLength = afterMarker - at;
    found.linkEnd = linkEnd;
    found.end = linkEnd === -1 ? afterMarker : linkEnd + 1;
    return true;
  }
  return false;
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
    } else if (isWhitespace(ch)) return -1;
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
  while (nextMarker(answer, from)) {
    out += answer.slice(from, found.start);
    from = found.end;
  }
  return from === 0 ? answer : out + answer.slice(from);
}

/** How the markers of an answer resolve: by their citation_info, by their link, or not at all. */
export interface MarkerResolution {
  /** Markers with no citation_info for their number whose link is a given document's: they cite it. */
  marker_citations: Citation[];
  /** Numbers of markers that match neither (each once, in order of first appearance): invalid citations. */
  markers_without_citation: number[];
}

/**
 * Resolves the `[[n]](link)` markers of `answer`. The service numbers citations per search call (a
 * second search starts at 101) and sends citation_info only the first time a document is cited, so
 * a marker whose number has no citation_info is still valid when its link is the link of a
 * document the answer was given (`linkToDocument`, trimmed links → document ids): it cites that
 * document. Only a marker that matches neither is invalid. A null answer has no markers.
 */
export function resolveMarkers(
  answer: string | null,
  citations: readonly Citation[],
  linkToDocument: ReadonlyMap<string, string> = new Map(),
): MarkerResolution {
  if (answer === null) return { marker_citations: [], markers_without_citation: [] };
  // Most markers have their citation_info: nothing is built for them (no set of numbers for a few
  // citations, no link sliced), and the maps below only once a marker has none.
  const cited = citations.length > SEARCHED_CITATIONS ? new Set(citations.map((c) => c.citation_number)) : null;
  let resolved: Map<number, string> | undefined;
  let missing: Set<number> | undefined;
  for (let from = 0; nextMarker(answer, from); from = found.end) {
    const number = found.number;
    if (cited === null ? citations.some((c) => c.citation_number === number) : cited.has(number)) continue;
    if (resolved?.has(number)) continue;
    const linkStart = found.start + found.markerLength + 1;
    const document =
      found.linkEnd === -1 ? undefined : linkToDocument.get(answer.slice(linkStart, found.linkEnd).trim());
    if (document === undefined) (missing ??= new Set()).add(number);
    else {
      (resolved ??= new Map()).set(number, document);
      missing?.delete(number);
    }
  }
  return {
    marker_citations:
      resolved === undefined
        ? []
        : [...resolved].map(([citation_number, document_id]) => ({ citation_number, document_id })),
    markers_without_citation: missing === undefined ? [] : [...missing],
  };
}

/** Citations this few are searched for a marker's number rather than put in a set. */
const SEARCHED_CITATIONS = 16;

/**
 * The record's `markers_without_citation` when no document link is known: numbers of markers with
 * no citation of that number, each once, in order of first appearance. A null answer has none.
 */
export function markersWithoutCitation(answer: string | null, citations: readonly Citation[]): number[] {
  return resolveMarkers(answer, citations).markers_without_citation;
}
