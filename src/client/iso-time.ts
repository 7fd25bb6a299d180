/**
 * @module client/iso-time
 * `new Date(ms).toISOString()` for the moment each attempt starts (an exchange's `started_at`),
 * without formatting a whole date per request: the text up to the minute is kept and reused while
 * the times stay in that minute, and only the seconds and milliseconds are written. Date's own
 * formatting was ~0.5 µs a request, the largest part of an attempt's start (docs/benchmarks-log.md,
 * "Session 38: the full-mode path").
 */

/** 9999-12-31T23:59:59.999Z: past it (and before 1970) the text is Date's own. */
const LAST_FOUR_DIGIT_YEAR_MS = 253_402_300_799_999;

/** The minute whose text is kept: its first millisecond, and `YYYY-MM-DDTHH:MM:`. */
let minuteStart = Number.NaN;
let minuteText = '';

/** Exactly `new Date(ms).toISOString()`, RangeError for NaN included. */
export function isoTime(ms: number): string {
  const t = Math.trunc(ms); // as Date's TimeClip: 1.9 is 1
  if (!(t >= 0 && t <= LAST_FOUR_DIGIT_YEAR_MS)) return new Date(ms).toISOString();
  if (!(t - minuteStart >= 0 && t - minuteStart < 60_000)) {
    minuteStart = t - (t % 60_000);
    minuteText = new Date(minuteStart).toISOString().slice(0, 17);
  }
  const inMinute = t - minuteStart;
  const seconds = Math.floor(inMinute / 1000);
  const millis = inMinute % 1000;
  return `${minuteText}${seconds < 10 ? '0' : ''}${seconds}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}
