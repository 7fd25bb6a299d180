/**
 * @module records/judge-figures
 * The figures a judge model scores, in the order they are asked: records/quality's schema enum and
 * the `--judge-figures` choices. Apart from records/quality (which loads zod) so that the flags'
 * module stays light: `--help` loads it.
 */
export const JUDGE_FIGURES = ['correctness', 'groundedness', 'relevance', 'rubric'] as const;
export type JudgeFigure = (typeof JUDGE_FIGURES)[number];
