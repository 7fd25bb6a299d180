/**
 * @module metrics/citations
 * The citation scores of docs/reference/metrics.md: precision, recall, F1 and invalid citations, over
 * the ranked list R that src/records/citations.ts derives.
 */
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
export function citationScores(
  ranked: readonly string[],
  expected: ReadonlySet<string> | Iterable<string>,
): CitationScores {
  // A set is read as it is (score.ts keeps one per question).
  const expectedSet: ReadonlySet<string> = expected instanceof Set ? expected : new Set(expected);
  const m = expectedSet.size;
  if (m === 0) return { citation_precision: null, citation_recall: null, citation_f1: null };
  let hits = 0;
  for (let i = 0; i < ranked.length; i++) if (expectedSet.has(ranked[i]!)) hits += 1;
  const recall = hits / m;
  if (ranked.length === 0) return { citation_precision: null, citation_recall: recall, citation_f1: 0 };
  const precision = hits / ranked.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { citation_precision: precision, citation_recall: recall, citation_f1: f1 };
}

/**
 * Invalid citations of docs/reference/metrics.md: each distinct cited document that is not among the documents the
 * answer was given (`top_document_ids`; ids compared trimmed), plus each marker number with no
 * citation_info. A document cited twice counts once here; the repeat is a duplicate.
 */
export function invalidCitations(
  ranked: readonly string[],
  topDocumentIds: readonly string[],
  markersWithoutCitationInfo: readonly number[],
): number {
  let invalid = markersWithoutCitationInfo.length;
  if (topDocumentIds.length <= SMALL_LIST) {
    // A handful of documents (the service gives some ten): compared in place, no set built per answer.
    for (const id of ranked) if (!givenAt(topDocumentIds, id)) invalid += 1;
    return invalid;
  }
  const given = new Set(topDocumentIds.map((id) => id.trim()));
  for (const id of ranked) if (!given.has(id)) invalid += 1;
  return invalid;
}

/** Lists this short are searched in place rather than through a set built for one answer. */
export const SMALL_LIST = 32;

/** Whether `id` is one of `given`, trimmed: compared as they are first (ids seldom have spaces to trim). */
function givenAt(given: readonly string[], id: string): boolean {
  for (let j = 0; j < given.length; j++) if (given[j] === id) return true;
  for (let j = 0; j < given.length; j++) if (given[j]!.trim() === id) return true;
  return false;
}
