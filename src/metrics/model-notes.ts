/**
 * @module metrics/model-notes
 * What a run can say of which model answered each set. The service names the model only in a
 * multi-model stream (its ids line) and in a streaming error's details; a single-model answer that
 * went well names none, so "never confirmed" is the normal state of a single-model set, not an
 * alarm: it is one quiet note per run naming what each set asked for. The warning is a set the
 * service says another model answered (a release that ignores llm_overrides, a provider the
 * service lacks and replaces by its default). Pure: from summary.json's `models`.
 */
import type { SetModels } from '../records/summary.js';
import type { ModelNotes } from '../verdict/index.js';

/** The version part of `provider:version`, which is how the service names a model. */
const versionOf = (label: string): string => label.slice(label.indexOf(':') + 1);

/**
 * `warnings`: one per set the service says a model other than the one asked answered. `note`: one
 * line for the whole run naming the sets whose model the service never confirmed; null when none.
 */
export function modelNotes(models: readonly SetModels[]): ModelNotes {
  const unconfirmed = models.filter(({ asked, answered }) => asked.length > 0 && answered.length === 0);
  const warnings = models.flatMap(({ set, asked, answered }) => {
    if (asked.length === 0 || answered.length === 0) return [];
    const expected = new Set(asked.flatMap((a) => [a, versionOf(a)]));
    const others = answered.filter((name) => !expected.has(name));
    return others.length === 0
      ? []
      : [`set ${set}: asked for ${asked.join(', ')}, but the service says ${others.join(', ')} answered`];
  });
  const note =
    unconfirmed.length === 0
      ? null
      : `the service does not confirm which model answered single-model requests; asked: ${unconfirmed.map(({ set, asked }) => `${set}=${asked.join('+')}`).join(', ')}`;
  return { warnings, note };
}

/** Whether there is anything to say. */
export const hasModelNotes = (notes: ModelNotes): boolean => notes.warnings.length > 0 || notes.note !== null;
