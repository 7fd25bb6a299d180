import { describe, expect, it } from 'vitest';
import { answerWithMarkers, judgeDocuments, judgeInput, type JudgedAnswer, type QuestionContext } from './inputs.js';

const doc = (id: string, over: Partial<JudgedAnswer['top_documents'][number]> = {}) => ({
  document_id: id,
  title: `Title ${id}`,
  link: `https://d.example/${id}`,
  blurb: `blurb of ${id}`,
  highlights: [`hl ${id}`],
  ...over,
});
const answer = (over: Partial<JudgedAnswer> = {}): JudgedAnswer => ({
  answer: 'You get 25 days [[1]](https://d.example/a). Ask HR [[2]](https://d.example/b).',
  citations: [
    { citation_number: 2, document_id: 'b' },
    { citation_number: 1, document_id: 'a' },
  ],
  top_documents: [doc('a'), doc('b'), doc('c')],
  ...over,
});
const context: QuestionContext = {
  question: 'How many days?',
  reference_answer: '25 days',
  rubric: null,
  expect_no_answer: false,
};

describe('judgeInput', () => {
  it('correctness: the citation-free answer and the reference', () => {
    expect(judgeInput('correctness', answer(), context)).toEqual({
      input: {
        task: 'correctness',
        question: 'How many days?',
        answer: 'You get 25 days. Ask HR.',
        reference_answer: '25 days',
      },
    });
  });
  it.each([
    { task: 'correctness' as const, ctx: { reference_answer: null }, skip: 'no reference answer' },
    { task: 'correctness' as const, ctx: { reference_answer: '  ' }, skip: 'no reference answer' },
    { task: 'rubric' as const, ctx: {}, skip: 'no rubric' },
    { task: 'relevance' as const, ctx: {}, skip: 'empty answer', figures: { answer: null } },
    {
      task: 'groundedness' as const,
      ctx: {},
      skip: 'no document text (nothing cited, no document given)',
      figures: { citations: [], top_documents: [] },
    },
  ])('$task is N/A: $skip', ({ task, ctx, skip, figures }) => {
    expect(judgeInput(task, answer(figures), { ...context, ...ctx })).toEqual({ skip });
  });
  it('relevance says when the dataset expects no answer; rubric carries the criterion', () => {
    expect(judgeInput('relevance', answer(), { ...context, expect_no_answer: true })).toMatchObject({
      input: { no_answer_expected: true },
    });
    expect(judgeInput('rubric', answer(), { ...context, rubric: 'Mentions "HR".' })).toMatchObject({
      input: { task: 'rubric', rubric: 'Mentions "HR".' },
    });
  });
  it('groundedness keeps the markers as [n] and the cited documents, in citation-number order', () => {
    const made = judgeInput('groundedness', answer(), context);
    expect(made).toEqual({
      input: {
        task: 'groundedness',
        question: 'How many days?',
        answer: 'You get 25 days [1]. Ask HR [2].',
        documents: [
          { number: 1, title: 'Title a', text: 'blurb of a\n…\nhl a' },
          { number: 2, title: 'Title b', text: 'blurb of b\n…\nhl b' },
        ],
      },
    });
  });
});

describe('judgeDocuments', () => {
  it('adds the fetched page of a cited link, cut to its limit', () => {
    const pages = new Map([['https://d.example/a', 'x'.repeat(7000)]]);
    const [first] = judgeDocuments(answer(), pages);
    expect(first?.text.startsWith('blurb of a\n…\nhl a\n…\nxxx')).toBe(true);
    expect(first?.text.endsWith('x [...]')).toBe(true);
  });
  it('a cited document the answer was not given has no text; nothing cited → every document given, unnumbered', () => {
    expect(judgeDocuments(answer({ citations: [{ citation_number: 1, document_id: 'zzz' }] }))).toEqual([
      { number: 1, title: 'zzz', text: '' },
    ]);
    expect(judgeDocuments(answer({ citations: [] })).map((d) => [d.number, d.title])).toEqual([
      [null, 'Title a'],
      [null, 'Title b'],
      [null, 'Title c'],
    ]);
  });
});

it('answerWithMarkers', () => {
  expect(answerWithMarkers('A [[1]](https://x.example/(a)) b [[2]] c')).toBe('A [1] b [2] c');
});
