import { expect, it } from 'vitest';
import { fixtureSummary } from '../../test/fixtures/reports/fixture.js';
import { SummarySchema, type Summary } from '../records/summary.js';
import { renderSummaryJson } from './summary-json.js';

/** The same summary with every open map's keys inserted in reverse. */
function reversed(summary: Summary): Summary {
  const flip = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).reverse()) as T;
  return {
    ...summary,
    run: { ...summary.run, outcomes: flip(summary.run.outcomes) },
    groups: summary.groups.map((g) => ({
      ...flip(g),
      outcomes: flip(g.outcomes),
      scores: flip(g.scores),
      by_category: flip(Object.fromEntries(Object.entries(g.by_category).map(([k, v]) => [k, { ...flip(v), scores: flip(v.scores) }]))),
    })),
  };
}

it('renders pretty JSON that parses back to the same Summary', () => {
  const text = renderSummaryJson({ summary: fixtureSummary() });
  expect(text.endsWith('}\n')).toBe(true);
  expect(text).toContain('\n  "summary_version": 1,');
  expect(SummarySchema.parse(JSON.parse(text))).toEqual(fixtureSummary());
});

it('gives the same text whatever order the keys were inserted in', () => {
  const a = renderSummaryJson({ summary: fixtureSummary() });
  const b = renderSummaryJson({ summary: reversed(fixtureSummary()) });
  expect(b).toBe(a);
  const parsed = JSON.parse(a) as Summary;
  expect(Object.keys(parsed)).toEqual(['summary_version', 'banner', 'timing', 'run', 'groups', 'models', 'quality']);
  expect(Object.keys(parsed.groups[0]!.by_category)).toEqual(['billing', 'setup']);
  expect(Object.keys(parsed.groups[0]!.scores)).toEqual([...Object.keys(parsed.groups[0]!.scores)].sort());
  expect(Object.keys(parsed.run.outcomes).slice(0, 3)).toEqual(['ok', 'rate_limited', 'http_error']);
});

it('keeps null for a figure that does not exist', () => {
  const parsed = JSON.parse(renderSummaryJson({ summary: fixtureSummary() })) as Summary;
  expect(parsed.groups[1]!.latency.ttfp_ms).toBeNull();
  expect(parsed.groups[1]!.scores.citation_precision).toBeNull();
});
