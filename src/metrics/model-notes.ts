/**
 * @module metrics/model-notes
 * What a run can say of which model answered each set: a set that asked for a model the service
 * never confirmed (a single-model answer that went well names no model), and one the service says
 * another model answered (a release that ignores llm_overrides, a provider the service lacks and
 * replaces by its default). Pure: from summary.json's `models`.
 */
import type { SetModels } from '../records/summary.js';

/** The version part of `provider:version`, which is how the service names a model. */
const versionOf = (label: string): string => label.slice(label.indexOf(':') + 1);

/** One warning per set whose model was never confirmed or was not the one asked; [] when all is as asked. */
export function modelWarnings(models: readonly SetModels[]): string[] {
  return models.flatMap(({ set, asked, answered }) => {
    if (asked.length === 0) return [];
    if (answered.length === 0) {
      return [`set ${set}: asked for ${asked.join(', ')}, but the service never confirmed which model answered (a single-model answer names none; only a streaming error's details or a multi-model stream do)`];
    }
    const expected = new Set(asked.flatMap((a) => [a, versionOf(a)]));
    const others = answered.filter((name) => !expected.has(name));
    return others.length === 0 ? [] : [`set ${set}: asked for ${asked.join(', ')}, but the service says ${others.join(', ')} answered`];
  });
}
