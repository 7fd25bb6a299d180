import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.js';

describe('isoTime', () => {
  it.each([
    0,
    -0,
    -0.5,
    1.9,
    59_999,
    60_000,
    1_764_230_400_000, // a minute's first millisecond
    1_764_230_459_999, // its last
    1_764_230_400_007.25,
    951_782_400_000, // 2000-02-29
    253_402_300_799_999, // the last four-digit year's last millisecond
    253_402_300_800_000, // +010000-01-01: Date's own text
    -1, // 1969: Date's own text
    -62_198_755_200_000, // year 0000
  ])('is Date#toISOString for %d', (ms) => {
    expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('is Date#toISOString for times in and across minutes, in any order', () => {
    let ms = 1_764_230_000_000;
    for (let i = 0; i < 5000; i++) {
      ms += (i * 7919) % 2003; // forward by up to 2 s, through many minutes
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      const back = ms - ((i * 104_729) % 3_600_000); // and back up to an hour, off the minute kept
      expect(isoTime(back)).toBe(new Date(back).toISOString());
    }
  });

  it('throws as Date does for a time that is no date', () => {
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
  });
});
