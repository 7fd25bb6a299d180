/**
 * @module records/answer-key
 * Names one answer of a run: a whole record by its key, or one model's answer of a multi-model
 * record as `key#model_index`. What reviews and their verdicts are matched on. No dependency, so
 * the viewer's browser bundle uses the same function.
 */
export const answerKey = (key: string, modelIndex: number | null): string =>
  modelIndex === null ? key : `${key}#${modelIndex}`;
