/**
 * @module metrics/question-index
 * The pass's question ids, each interned once: an id → a small integer (in first-seen order), and
 * back. The summary's questions, its groups' and categories' rows and the repeats keep a question's
 * state at that integer (metrics/question-rows), not each in a map keyed by its id: a map entry costs
 * ~35 bytes, and a run of distinct questions held one a question in every such map (docs/benchmarks-log.md
 * "Session 40: distinct questions"). Shaped as reports/columns ValueTable, so the reports' question ids
 * can be this same table.
 */
export interface QuestionIndex {
  /** The ids interned so far. */
  readonly size: number;
  /** The id's integer; a new id gets the next (`size` before the call). */
  id(questionId: string): number;
  /** The id of integer `question`. */
  at(question: number): string;
}

export function createQuestionIndex(): QuestionIndex {
  const numbers = new Map<string, number>();
  const ids: string[] = [];
  return {
    get size() {
      return ids.length;
    },
    id(questionId) {
      let question = numbers.get(questionId);
      if (question === undefined) {
        question = ids.length;
        numbers.set(questionId, question);
        ids.push(questionId);
      }
      return question;
    },
    at: (question) => ids[question]!,
  };
}
