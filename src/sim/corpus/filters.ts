/**
 * @module sim/corpus/filters
 * `internal_search_filters` (BaseFilters) as the service applies them: each given field restricts,
 * values inside one field are alternatives (OR, as the service's index query builds them), an empty
 * or null field does not restrict. Time ranges are inclusive with open null bounds; a bound without
 * a timezone is UTC. `time_cutoff` keeps documents updated on or after it.
 */
import type { BaseFilters, TimeRange } from '../../api/index.js';
import type { CorpusDocument } from './schema.js';

const HAS_ZONE = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

/** Milliseconds since the epoch of an ISO date-time; no timezone means UTC. */
export function parseInstant(text: string): number {
  return Date.parse(HAS_ZONE.test(text) ? text : `${text}Z`);
}

/** A predicate over documents, or undefined when the filters restrict nothing. */
export function compileFilters(
  filters: BaseFilters | null | undefined,
): ((doc: CorpusDocument) => boolean) | undefined {
  if (filters === null || filters === undefined) return undefined;
  const tests: Array<(doc: CorpusDocument) => boolean> = [];
  const sources = filters.source_type ?? [];
  if (sources.length > 0) tests.push((doc) => sources.includes(doc.source_type));
  const sets = filters.document_set ?? [];
  if (sets.length > 0) tests.push((doc) => doc.document_sets.some((set) => sets.includes(set)));
  const tags = filters.tags ?? [];
  if (tags.length > 0) tests.push((doc) => tags.some((tag) => doc.tags[tag.tag_key] === tag.tag_value));
  const created = rangeTest(filters.created_at_range);
  if (created) tests.push((doc) => created(parseInstant(doc.created_at)));
  const updated = rangeTest(filters.updated_at_range);
  if (updated) tests.push((doc) => updated(parseInstant(doc.updated_at)));
  if (filters.time_cutoff !== null && filters.time_cutoff !== undefined) {
    const cutoff = parseInstant(filters.time_cutoff);
    tests.push((doc) => parseInstant(doc.updated_at) >= cutoff);
  }
  if (tests.length === 0) return undefined;
  return (doc) => tests.every((test) => test(doc));
}

function rangeTest(range: TimeRange | null | undefined): ((at: number) => boolean) | undefined {
  if (range === null || range === undefined) return undefined;
  const start = range.start === null || range.start === undefined ? -Infinity : parseInstant(range.start);
  const end = range.end === null || range.end === undefined ? Infinity : parseInstant(range.end);
  if (start === -Infinity && end === Infinity) return undefined;
  return (at) => at >= start && at <= end;
}
