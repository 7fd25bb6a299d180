import { describe, expect, it } from 'vitest';
import {
  citedDocumentIds,
  markersWithoutCitation,
  parseCitationMarkers,
  rankCitations,
  stripCitations,
} from '../records/citations.js';
import { citationScores, invalidCitations } from './citations.js';

const c = (citation_number: number, document_id: string) => ({ citation_number, document_id });

describe('rankCitations / citedDocumentIds', () => {
  it('orders by citation number, not arrival, and keeps the first occurrence', () => {
    const citations = [c(3, 'C'), c(1, 'A'), c(2, 'B'), c(4, 'A')];
    expect(rankCitations(citations)).toEqual({ ranked: ['A', 'B', 'C'], duplicates: 1 });
    expect(citedDocumentIds(citations)).toEqual(['A', 'B', 'C']);
  });

  it('keeps arrival order between equal numbers and counts a re-sent citation as a duplicate', () => {
    expect(rankCitations([c(1, 'B'), c(1, 'A'), c(1, 'B')])).toEqual({ ranked: ['B', 'A'], duplicates: 1 });
  });

  it('trims ids and drops empty ones', () => {
    expect(rankCitations([c(1, ' A '), c(2, 'A'), c(3, ' ')])).toEqual({ ranked: ['A'], duplicates: 1 });
  });

  it('has nothing for no citations', () => {
    expect(rankCitations([])).toEqual({ ranked: [], duplicates: 0 });
  });

  it('does not reorder its input', () => {
    const citations = [c(2, 'B'), c(1, 'A')];
    citedDocumentIds(citations);
    expect(citations[0]).toEqual(c(2, 'B'));
  });
});

describe('parseCitationMarkers', () => {
  it.each([
    { name: 'no markers', text: 'Plain text [1] and [[x]] and [[ 1 ]].', want: [] },
    { name: 'linked', text: 'A [[1]](https://d.example/a).', want: [{ number: 1, link: 'https://d.example/a' }] },
    { name: 'bare', text: 'A [[12]].', want: [{ number: 12, link: null }] },
    {
      name: 'parentheses in the link',
      text: 'See [[2]](https://w.org/wiki/Foo_(bar)) now',
      want: [{ number: 2, link: 'https://w.org/wiki/Foo_(bar)' }],
    },
    {
      name: 'brackets in the link',
      text: 'See [[3]](https://x.io/a[1]?q=[[9]]) now',
      want: [{ number: 3, link: 'https://x.io/a[1]?q=[[9]]' }],
    },
    {
      name: 'adjacent linked',
      text: '[[1]](a)[[2]](b)',
      want: [
        { number: 1, link: 'a' },
        { number: 2, link: 'b' },
      ],
    },
    {
      name: 'adjacent bare',
      text: 'x[[1]][[2]]y',
      want: [
        { number: 1, link: null },
        { number: 2, link: null },
      ],
    },
    { name: 'triple bracket', text: '[[[4]]]', want: [{ number: 4, link: null }] },
    { name: 'unclosed link is bare', text: 'A [[5]](http://x.io/(a b) c', want: [{ number: 5, link: null }] },
    { name: 'empty link', text: 'A [[6]]() b', want: [{ number: 6, link: '' }] },
  ])('$name', ({ text, want }) => {
    expect(parseCitationMarkers(text).map(({ number, link }) => ({ number, link }))).toEqual(want);
  });

  it('reports spans that cover the link', () => {
    const text = 'ab [[1]](x(y)) cd';
    const [marker] = parseCitationMarkers(text);
    expect(marker).toEqual({ number: 1, start: 3, end: 14, link: 'x(y)' });
    expect(text.slice(marker?.start, marker?.end)).toBe('[[1]](x(y))');
  });

  it('gives the same answer when called twice (no regex state leaks)', () => {
    const text = 'a [[1]] b [[2]](l)';
    expect(parseCitationMarkers(text)).toEqual(parseCitationMarkers(text));
  });
});

describe('stripCitations', () => {
  it.each([
    {
      text: 'It can be deployed with Docker Compose [[1]](https://docs.example.com/deploy).',
      want: 'It can be deployed with Docker Compose .',
    },
    { text: 'x[[1]][[2]](b)y', want: 'xy' },
    { text: 'See [[2]](https://w.org/wiki/Foo_(bar)) now', want: 'See  now' },
    { text: 'no markers at all', want: 'no markers at all' },
    { text: '', want: '' },
    { text: 'open [[5]](http://x.io/(a b) c', want: 'open (http://x.io/(a b) c' },
  ])('$text', ({ text, want }) => expect(stripCitations(text)).toBe(want));
});

describe('markersWithoutCitation', () => {
  it('lists marker numbers without a citation, once each, in order of appearance', () => {
    const answer = 'a [[3]] b [[1]](l) c [[3]] d [[2]]';
    expect(markersWithoutCitation(answer, [c(1, 'A')])).toEqual([3, 2]);
  });
  it('is empty for a null answer or when every marker is cited', () => {
    expect(markersWithoutCitation(null, [])).toEqual([]);
    expect(markersWithoutCitation('[[1]] [[2]]', [c(2, 'B'), c(1, 'A')])).toEqual([]);
  });
});

describe('citationScores', () => {
  it.each([
    { q: 'q1', ranked: ['B', 'A', 'D', 'C'], expected: ['A', 'C'], p: 0.5, r: 1, f1: 0.6667 },
    { q: 'q2', ranked: [], expected: ['X'], p: null, r: 0, f1: 0 },
    { q: 'q4', ranked: ['P'], expected: ['P', 'Q', 'R'], p: 1, r: 0.3333, f1: 0.5 },
    { q: 'all wrong', ranked: ['Z'], expected: ['A'], p: 0, r: 0, f1: 0 },
  ])('$q', ({ ranked, expected, p, r, f1 }) => {
    const s = citationScores(ranked, expected);
    const near = (got: number | null, want: number | null) =>
      want === null ? expect(got).toBeNull() : expect(got).toBeCloseTo(want, 4);
    near(s.citation_precision, p);
    near(s.citation_recall, r);
    near(s.citation_f1, f1);
  });

  it('q3 (nothing expected) is N/A', () => {
    expect(citationScores(['N'], [])).toEqual({ citation_precision: null, citation_recall: null, citation_f1: null });
  });
});

describe('invalidCitations', () => {
  it.each([
    { name: 'all given', ranked: ['A', 'B'], top: ['B', 'A', 'C'], markers: [], want: 0 },
    { name: 'one not given', ranked: ['A', 'Z'], top: ['A'], markers: [], want: 1 },
    { name: 'markers without citation', ranked: ['A'], top: ['A'], markers: [4, 7], want: 2 },
    { name: 'both kinds', ranked: ['Z', 'Y'], top: [], markers: [3], want: 3 },
    { name: 'ids compared trimmed', ranked: ['A'], top: [' A '], markers: [], want: 0 },
  ])('$name', ({ ranked, top, markers, want }) => expect(invalidCitations(ranked, top, markers)).toBe(want));
});
