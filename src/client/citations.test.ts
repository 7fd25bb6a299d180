import { expect, it } from 'vitest';
import { citedDocumentIds, markersWithoutCitation, parseCitationMarkers } from './citations.js';

it('ranks cited documents by citation number, trimmed and de-duplicated', () => {
  const citations = [
    { citation_number: 3, document_id: 'C' }, { citation_number: 1, document_id: ' A ' },
    { citation_number: 2, document_id: 'A' }, { citation_number: 4, document_id: '' },
  ];
  expect(citedDocumentIds(citations)).toEqual(['A', 'C']);
  expect(citedDocumentIds([])).toEqual([]);
});

it('finds linked and bare markers, adjacent ones included', () => {
  expect(parseCitationMarkers('a [[1]](https://x.org/a_(b)) b [[2]][[10]] [3] [[x]]')).toEqual([1, 2, 10]);
  expect(parseCitationMarkers('no markers')).toEqual([]);
});

it('lists markers with no citation_info once each', () => {
  expect(markersWithoutCitation('[[1]] [[4]] [[4]] [[2]]', [{ citation_number: 1, document_id: 'a' }])).toEqual([4, 2]);
});
