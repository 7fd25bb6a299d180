import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { holdsAnyMarker, markerOf } from './marker-search.js';

describe('markerOf', () => {
  it('anchors a marker at its character that records and prose hold least', () => {
    expect(markerOf('onyx_pat')).toMatchObject({ anchorAt: 3, anchor: 'x' });
    expect(markerOf('nch_demo')).toMatchObject({ anchorAt: 2, anchor: 'h' });
    expect(markerOf('abcQdefg')).toMatchObject({ anchorAt: 3, anchor: 'Q' });
    expect(markerOf('"_:,')).toMatchObject({ anchorAt: 3, anchor: ',' });
  });
});

describe('holdsAnyMarker', () => {
  it('finds a marker at the start, the end and in the middle, and not a near miss', () => {
    const markers = [markerOf('onyx_pat'), markerOf('nch_demo')];
    expect(holdsAnyMarker('onyx_pat_rest', markers)).toBe(true);
    expect(holdsAnyMarker('the token ends nch_demo', markers)).toBe(true);
    expect(holdsAnyMarker('{"auth":"Bearer onyx_pat_chatbench_demo"}', markers)).toBe(true);
    expect(holdsAnyMarker('onyx_pa xnch_dem0 x', markers)).toBe(false);
    expect(holdsAnyMarker('', markers)).toBe(false);
    expect(holdsAnyMarker('anything', [])).toBe(false);
  });

  it('finds a marker past the places of its anchor it checks before includes', () => {
    const marker = markerOf('xxxxxxxQ');
    const text = `${'x'.repeat(100)}${'xQ'.repeat(40)}xxxxxxxQ`;
    expect(holdsAnyMarker(text, [marker])).toBe(true);
    expect(holdsAnyMarker(`${'x'.repeat(100)}xxxxxxxq`, [marker])).toBe(false);
  });

  it('says what includes says, for any text and markers (surrogates and anchors repeated included)', () => {
    const unit = fc.constantFrom('a', 'x', 'Q', '_', '"', ' ', '\uD83D', '\uDE00', 'é', '1');
    const text = fc.array(unit, { maxLength: 80 }).map((units) => units.join(''));
    const marker = fc.array(unit, { minLength: 1, maxLength: 6 }).map((units) => units.join(''));
    fc.assert(
      fc.property(text, fc.array(marker, { minLength: 1, maxLength: 3 }), (t, ms) => {
        expect(holdsAnyMarker(t, ms.map(markerOf))).toBe(ms.some((m) => t.includes(m)));
      }),
      { numRuns: 2000 },
    );
  });

  it('says what includes says where the anchor stands in many places (past the places it checks)', () => {
    const unit = fc.constantFrom('x', 'Q');
    const text = fc.array(unit, { minLength: 60, maxLength: 200 }).map((units) => units.join(''));
    const marker = fc.array(unit, { minLength: 1, maxLength: 9 }).map((units) => units.join(''));
    fc.assert(
      fc.property(text, marker, (t, m) => {
        expect(holdsAnyMarker(t, [markerOf(m)])).toBe(t.includes(m));
      }),
      { numRuns: 2000 },
    );
  });
});
