/**
 * @module records/round-ms
 * The precision every millisecond figure of a record and of generator.json keeps: 3 decimals (µs).
 * With the records, so the client, the runner and the app round alike without importing each other.
 */

/** Rounds a millisecond figure to 3 decimals (µs). */
export const roundMs = (ms: number): number => Math.round(ms * 1000) / 1000;
