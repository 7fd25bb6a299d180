/**
 * @module plan/stages
 * `--stages "30s:10,2m:50,30s:0"`: a k6-style ramp. Each stage moves the target (a rate per second in
 * the open model, a number of virtual users in the closed one) linearly from the previous stage's
 * target to its own over its duration; the first stage starts from 0. Pure.
 */

import type { Stage } from '../records/load-spec.js';
export type { Stage } from '../records/load-spec.js';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/**
 * Milliseconds of `500ms`, `30s`, `2m`, `1h`, `1m30s`, or a bare number of seconds; undefined when
 * the text is none of these. Kept here (not in src/cli) because planning must not import the CLI.
 */
export function parseDurationMs(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== trimmed) return undefined;
  return parts.reduce((total, [, value, unit]) => total + Number(value) * UNIT_MS[unit as keyof typeof UNIT_MS], 0);
}

/**
 * Parses a stages string; returns every problem (one line each, naming the stage by its position)
 * or the stages. `integerTargets` (closed model: users) refuses fractional targets.
 */
export function parseStages(
  text: string,
  options: { integerTargets?: boolean; maxTarget?: number; maxTotalMs?: number } = {},
): Stage[] | { problems: string[] } {
  const problems: string[] = [];
  const stages: Stage[] = [];
  const items = text.split(',').map((item) => item.trim());
  if (text.trim() === '') return { problems: ['no stages: give duration:target pairs, e.g. "30s:10,2m:50,30s:0"'] };
  items.forEach((item, i) => {
    const where = `stage ${i + 1} "${item}"`;
    const match = /^([^:]+):([^:]+)$/.exec(item);
    if (!match) {
      problems.push(`${where}: not duration:target (e.g. 30s:10)`);
      return;
    }
    const durationMs = parseDurationMs(match[1] ?? '');
    const target = Number((match[2] ?? '').trim());
    if (durationMs === undefined)
      problems.push(`${where}: "${match[1]}" is not a duration (e.g. 500ms, 30s, 2m, 1m30s)`);
    else if (durationMs <= 0) problems.push(`${where}: the duration must be more than 0`);
    if ((match[2] ?? '').trim() === '' || !Number.isFinite(target))
      problems.push(`${where}: the target "${match[2]}" is not a number`);
    else if (target < 0) problems.push(`${where}: the target must be 0 or more`);
    else if (options.integerTargets && !Number.isInteger(target))
      problems.push(`${where}: the target is a number of users: a whole number`);
    else if (options.maxTarget !== undefined && target > options.maxTarget)
      problems.push(`${where}: the target is over the maximum of ${options.maxTarget.toLocaleString('en-US')}`);
    if (durationMs !== undefined && durationMs > 0 && Number.isFinite(target) && target >= 0)
      stages.push({ duration_ms: durationMs, target });
  });
  if (problems.length === 0 && stages.every((s) => s.target === 0))
    problems.push('every stage targets 0: nothing would be sent');
  const total = stagesDurationMs(stages);
  if (problems.length === 0 && options.maxTotalMs !== undefined && total > options.maxTotalMs) {
    problems.push(
      `the stages last ${Math.round(total / 3_600_000).toLocaleString('en-US')} h, over the maximum of ${Math.round(options.maxTotalMs / 3_600_000).toLocaleString('en-US')} h`,
    );
  }
  return problems.length > 0 ? { problems } : stages;
}

/** Total length of the stages, ms. */
export const stagesDurationMs = (stages: readonly Stage[]): number => stages.reduce((sum, s) => sum + s.duration_ms, 0);

/** The target at `offsetMs` (linear within a stage; 0 before the start and after the end). */
export function targetAt(stages: readonly Stage[], offsetMs: number): number {
  if (offsetMs < 0) return 0;
  let start = 0;
  let from = 0;
  for (const stage of stages) {
    if (offsetMs < start + stage.duration_ms)
      return from + ((stage.target - from) * (offsetMs - start)) / stage.duration_ms;
    start += stage.duration_ms;
    from = stage.target;
  }
  return 0;
}
