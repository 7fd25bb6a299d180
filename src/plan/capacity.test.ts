import { describe, expect, it } from 'vitest';
import { bracket, DEFAULT_SATURATION, judgeStep, nextStep, type SearchOptions, type StepFigures } from './capacity.js';

/** Runs the search against a fake service that is good up to `knee`; bounded by maxSteps + 1 iterations. */
function search(knee: number, o: SearchOptions) {
  const history: { target: number; good: boolean; phase: string }[] = [];
  for (let i = 0; i <= o.maxSteps; i += 1) {
    const next = nextStep(history, o);
    if ('stop' in next) return { history, stop: next.stop, ...bracket(history) };
    history.push({ target: next.target, good: next.target <= knee, phase: next.phase });
  }
  throw new Error('the search did not stop by itself');
}

const RATES: SearchOptions = { start: 1, factor: 2, precision: 0.1, maxSteps: 12, integer: false };

describe('nextStep', () => {
  it.each([37, 5, 100, 1.5, 250])('finds a knee at %d within 10%', (knee) => {
    const result = search(knee, RATES);
    expect(result.stop).toBe('converged');
    expect(result.good).not.toBeNull();
    expect(result.good!).toBeLessThanOrEqual(knee);
    expect(result.good!).toBeGreaterThanOrEqual(knee / 1.1);
    expect(result.bad!).toBeGreaterThan(knee);
    expect(result.history.length).toBeLessThanOrEqual(12);
  });

  it('ramps ×2 then bisects', () => {
    const { history } = search(37, RATES);
    expect(history.map((s) => s.target)).toEqual([1, 2, 4, 8, 16, 32, 64, 48, 40, 36, 38]);
    expect(history.map((s) => s.phase).lastIndexOf('ramp')).toBe(6);
  });

  it('stops at max steps with no knee when every step is good', () => {
    const result = search(Infinity, { ...RATES, maxSteps: 5 });
    expect(result.stop).toBe('no_knee');
    expect(result.history.map((s) => s.target)).toEqual([1, 2, 4, 8, 16]);
    expect(result.bad).toBeNull();
  });

  it('stops at max steps in the middle of a bisection', () => {
    const result = search(1000, { ...RATES, maxSteps: 12 });
    expect(result.stop).toBe('max_steps');
    expect(result.history).toHaveLength(12);
  });

  it('steps down from a bad start and stops at a floor when nothing is sustainable', () => {
    const down = search(3, { ...RATES, start: 20 });
    expect(down.history.slice(0, 3).map((s) => s.target)).toEqual([20, 10, 5]);
    expect(down.stop).toBe('converged');
    expect(down.good).toBeGreaterThanOrEqual(3 / 1.1);
    const none = search(0, { ...RATES, start: 20 });
    expect(none.stop).toBe('floor');
    expect(none.good).toBeNull();
  });

  it('users: whole numbers, bisection down to one user', () => {
    const result = search(13, { ...RATES, integer: true });
    expect(result.history.every((s) => Number.isInteger(s.target))).toBe(true);
    expect(result.good).toBe(13);
    expect(result.bad).toBe(14);
  });
});

describe('judgeStep', () => {
  const ok: StepFigures = {
    offered_rate: 100,
    sent_rate: 100,
    ok_rate_per_s: 99,
    ttfp_first_p50_ms: 100,
    ttfp_last_p50_ms: 110,
    broken_slos: [],
  };

  it('a step that accepts what it was offered, with a flat TTFP, is good', () => {
    expect(judgeStep(ok)).toEqual({ good: true, reasons: [] });
  });

  it.each([
    {
      name: 'accepted under 95%',
      f: { ...ok, ok_rate_per_s: 90 },
      reason: /accepted 90\/s, under 95% of the offered 100\/s/,
    },
    { name: 'sent under 95%', f: { ...ok, sent_rate: 80, ok_rate_per_s: 80 }, reason: /sent 80\/s/ },
    {
      name: 'TTFP rising',
      f: { ...ok, ttfp_last_p50_ms: 400 },
      reason: /TTFP p50 rose 300% within the step \(100 → 400 ms\)/,
    },
    {
      name: 'an SLO broken',
      f: { ...ok, broken_slos: ['ttfp_ms.p95<=2000 broken: ttfp_ms.p95 = 2500'] },
      reason: /ttfp_ms\.p95<=2000 broken/,
    },
    { name: 'nothing offered', f: { ...ok, offered_rate: 0 }, reason: /nothing was offered/ },
  ])('bad: $name', ({ f, reason }) => {
    const verdict = judgeStep(f);
    expect(verdict.good).toBe(false);
    expect(verdict.reasons.join('\n')).toMatch(reason);
  });

  it('a small absolute TTFP rise of a fast service is jitter, not saturation', () => {
    expect(judgeStep({ ...ok, ttfp_first_p50_ms: 2, ttfp_last_p50_ms: 6 }).good).toBe(true);
    expect(judgeStep({ ...ok, ttfp_last_p50_ms: 400 }, { ...DEFAULT_SATURATION, maxTtfpRise: 5 }).good).toBe(true);
  });
});

describe('nextStep at the highest target allowed', () => {
  it('ramps no further than max and stops there when it is good', () => {
    const result = search(Infinity, { ...RATES, max: 20 });
    expect(result.history.map((s) => s.target)).toEqual([1, 2, 4, 8, 16, 20]);
    expect(result.stop).toBe('max_target');
  });

  it('bisects below max as before when the knee is under it', () => {
    expect(search(37, { ...RATES, max: 50 }).stop).toBe('converged');
  });
});
