/**
 * A V8 CPU profile (`--cpu-prof`) read for profile-summary.ts and profile-diff.ts: each sample's
 * stack (innermost frame first), each sample's time, and the window of the run in which answers end
 * (samples with `marker` on the stack), cut to its `from`..`to` fractions so that the JIT's warm-up
 * and the drain are left out.
 */
import { readFileSync } from 'node:fs';

export interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface ReadProfile {
  readonly profile: CpuProfile;
  /** Sample i's time (µs, the profile's clock). */
  readonly times: readonly number[];
  /** A node's stack, innermost frame first. */
  stackOf(id: number): ProfileNode[];
  /** The window's start and end (µs): `from`..`to` of the span of samples with `marker` on the stack. */
  window(marker: string, from: number, to: number): { start: number; end: number };
}

export function readCpuProfile(file: string): ReadProfile {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const stackOf = (id: number): ProfileNode[] => {
    const stack: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) stack.push(byId.get(at)!);
    return stack;
  };
  const times: number[] = [];
  let clock = profile.startTime;
  for (const delta of profile.timeDeltas) times.push((clock += delta));
  const window = (marker: string, from: number, to: number) => {
    let first = Infinity;
    let last = -Infinity;
    profile.samples.forEach((id, i) => {
      if (stackOf(id).some((n) => n.callFrame.functionName === marker)) {
        first = Math.min(first, times[i]!);
        last = Math.max(last, times[i]!);
      }
    });
    if (first > last) throw new Error(`${file}: no sample has ${marker} on its stack (not the tool's main thread?)`);
    return { start: first + (last - first) * from, end: first + (last - first) * to };
  };
  return { profile, times, stackOf, window };
}
