/**
 * @module history/sparkline
 * A trend in one line of block characters, lowest value ▁, highest █. Pure.
 */
const BARS = '▁▂▃▄▅▆▇█';

export function sparkline(values: readonly number[]): string {
  if (values.length === 0) return '';
  const low = Math.min(...values);
  const span = Math.max(...values) - low;
  return values.map((v) => BARS[span === 0 ? 3 : Math.round(((v - low) / span) * (BARS.length - 1))]).join('');
}
