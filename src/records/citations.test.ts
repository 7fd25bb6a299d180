import { describe, expect, it } from 'vitest';
import { parseCitationMarkers, resolveMarkers, stripCitations, type CitationMarker } from './citations.js';

/** The markers as a global regex read them (the reader before markers were read by hand), for comparison. */
function regexMarkers(answer: string): CitationMarker[] {
  const marker = /\[\[(\d+)\]\]/g;
  const markers: CitationMarker[] = [];
  for (let match = marker.exec(answer); match !== null; match = marker.exec(answer)) {
    if (!Number.isSafeInteger(Number(match[1]))) continue;
    const start = match.index;
    const afterMarker = start + match[0].length;
    let linkEnd = -1;
    if (answer[afterMarker] === '(') {
      let depth = 0;
      for (let i = afterMarker; i < answer.length; i += 1) {
        if (answer[i] === '(') depth += 1;
        else if (answer[i] === ')') {
          depth -= 1;
          if (depth === 0) {
            linkEnd = i;
            break;
          }
        } else if (/\s/.test(answer[i]!)) break;
      }
    }
    const end = linkEnd === -1 ? afterMarker : linkEnd + 1;
    markers.push({
      number: Number(match[1]),
      start,
      end,
      link: linkEnd === -1 ? null : answer.slice(afterMarker + 1, linkEnd),
    });
    marker.lastIndex = end;
  }
  return markers;
}

function regexResolve(answer: string, cited: ReadonlySet<number>, links: ReadonlyMap<string, string>) {
  const resolved = new Map<number, string>();
  const missing = new Set<number>();
  for (const m of regexMarkers(answer)) {
    if (cited.has(m.number) || resolved.has(m.number)) continue;
    const document = m.link === null ? undefined : links.get(m.link.trim());
    if (document === undefined) missing.add(m.number);
    else {
      resolved.set(m.number, document);
      missing.delete(m.number);
    }
  }
  return {
    marker_citations: [...resolved].map(([citation_number, document_id]) => ({ citation_number, document_id })),
    markers_without_citation: [...missing],
  };
}

describe('citation markers read by hand', () => {
  it('read as the global regex did: markers, stripped text and resolution, on 3,000 seeded texts', () => {
    let seed = 5;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const pieces = [
      '[[',
      ']]',
      '[',
      ']',
      '(',
      ')',
      '1',
      '2',
      '0',
      '7',
      ' ',
      'a',
      'https://d.example/1',
      ' https://d.example/2 ',
      '99999999999999999999',
      '9007199254740993',
      '\n',
      '\u00a0',
      '[[3]]',
      '[[1]](https://d.example/1)',
    ];
    const links = new Map([
      ['https://d.example/1', 'doc-1'],
      ['https://d.example/2', 'doc-2'],
    ]);
    for (let k = 0; k < 3000; k++) {
      const answer = Array.from(
        { length: Math.floor(next() * 24) },
        () => pieces[Math.floor(next() * pieces.length)]!,
      ).join('');
      const want = regexMarkers(answer);
      expect(parseCitationMarkers(answer), answer).toEqual(want);
      let stripped = '';
      let from = 0;
      for (const m of want) {
        stripped += answer.slice(from, m.start);
        from = m.end;
      }
      expect(stripCitations(answer), answer).toBe(stripped + answer.slice(from));
      // A few citations (searched) and many (a set): the same resolution.
      const count = k % 5 === 0 ? 20 : Math.floor(next() * 3);
      const citations = Array.from({ length: count }, (_, i) => ({ citation_number: i * 2 + 1, document_id: `c${i}` }));
      const cited = new Set(citations.map((c) => c.citation_number));
      expect(resolveMarkers(answer, citations, links), answer).toEqual(regexResolve(answer, cited, links));
    }
  });
});
