/**
 * @module compare/model-changes
 * A comparison must say first when a set asked for another model than in the baseline: otherwise
 * a change of model reads as a change of the system. From both runs' summary `models` (what the
 * records asked for), sets matched through --map. Runs whose records predate `model_asked` say nothing.
 */
import type { SetModels } from '../records/summary.js';

/** How a set's models read: the versions (`gpt-4o + gpt-4o-mini`), the full `provider:version` when only the providers differ; `the configured model` for none. */
function describe(asked: readonly string[], full: boolean): string {
  if (asked.length === 0) return 'the configured model';
  return asked.map((a) => (full ? a : a.slice(a.indexOf(':') + 1))).join(' + ');
}

/** `set accurate: model changed gpt-4o → gpt-4o-mini` per current set whose models differ from its baseline set's. */
export function modelChanges(
  baseline: readonly SetModels[],
  current: readonly SetModels[],
  setMap: Readonly<Record<string, string>>,
): string[] {
  const renamed = new Map(Object.entries(setMap).map(([from, to]) => [to, from]));
  return current.flatMap(({ set, asked }) => {
    const before = baseline.find((b) => b.set === (renamed.get(set) ?? set));
    if (before === undefined || before.asked.join('\u0000') === asked.join('\u0000')) return [];
    const short = describe(before.asked, false) !== describe(asked, false);
    return [`set ${set}: model changed ${describe(before.asked, !short)} → ${describe(asked, !short)}`];
  });
}
