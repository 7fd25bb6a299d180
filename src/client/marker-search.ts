/**
 * @module client/marker-search
 * Whether a text holds any of a few short strings: a run's secret markers (client/redact.ts),
 * looked for in every string of every exchange and in every results.jsonl line. `includes` reads a
 * text at ~0.85 ns a character whatever it looks for (a full answer's 3.6 KB line: ~3 µs a marker,
 * 6 for a token's two). Each marker is looked for instead at its character that records and prose
 * hold least (a capital, an `x`, an `h` rather than an `e`): `indexOf` of one character runs at
 * memchr's speed, and each place it stops is checked with `startsWith` (docs/benchmarks-log.md,
 * "Session 54"). It finds a marker exactly where `includes` does. A text that holds that character
 * more than once in every sixteen goes back to `includes` (stopsFor), so no text costs much more
 * than `includes` alone.
 */

/** A marker, and the place and character of it that indexOf looks for first. */
export interface Marker {
  readonly text: string;
  readonly anchorAt: number;
  readonly anchor: string;
}

/**
 * Characters by how often a results.jsonl line of a full answer holds them (its keys, numbers and
 * English answer), the most common first. Any other character (a capital, `+`, `=`, a non-ASCII
 * one) is rarer than all of them.
 */
const COMMON = '"etar_liosn:,c pd1umh30fvy-wg[]k.52b/48{}769xqjz';
const commonness = (unit: string): number => {
  const at = COMMON.indexOf(unit);
  return at === -1 ? 0 : COMMON.length - at;
};

/**
 * Places of the anchor checked before a marker is looked for by `includes`: a check costs about what
 * `includes` spends on sixteen characters.
 */
const stopsFor = (text: string): number => 16 + (text.length >>> 4);

export function markerOf(text: string): Marker {
  let anchorAt = 0;
  for (let i = 1; i < text.length; i++) if (commonness(text[i]!) < commonness(text[anchorAt]!)) anchorAt = i;
  return { text, anchorAt, anchor: text.slice(anchorAt, anchorAt + 1) };
}

export function holdsAnyMarker(text: string, markers: readonly Marker[]): boolean {
  for (let i = 0; i < markers.length; i++) if (holdsMarker(text, markers[i]!)) return true;
  return false;
}

function holdsMarker(text: string, marker: Marker): boolean {
  const { anchorAt, anchor } = marker;
  if (anchor === '') return true; // the empty marker, as includes('') has it
  let stops = stopsFor(text);
  for (let at = text.indexOf(anchor, anchorAt); at !== -1; at = text.indexOf(anchor, at + 1)) {
    if (text.startsWith(marker.text, at - anchorAt)) return true;
    if (--stops === 0) return text.includes(marker.text, at - anchorAt + 1);
  }
  return false;
}
