import { describe, expect, it } from 'vitest';
import type { ViewCell, ViewData, ViewQuestion } from '../view-data.js';
import { clearedFilters, filterQuestions, filtersFrom, paramsOf, searchTexts } from './filter.js';

const cell = (state: ViewCell['state'], value: number | null, over: Partial<ViewCell> = {}): ViewCell => ({
  state,
  outcomes: [state === 'error' ? 'timeout' : 'ok'],
  values: [value],
  review: null,
  change: null,
  text: '',
  ...over,
});
const question = (id: string, cells: (ViewCell | null)[], over: Partial<ViewQuestion> = {}): ViewQuestion => ({
  id,
  question: `About ${id}?`,
  category: null,
  conversation: null,
  turn: null,
  expected: [],
  cells,
  ...over,
});
const column = (id: number, set: string, mode: 'stream' | 'full' = 'stream') => ({
  id,
  run: 0,
  set,
  mode,
  model_index: null,
  model_name: null,
  label: set,
  requests: 1,
  figures: [],
});

const data = {
  columns: [column(0, 'fast'), column(1, 'slow'), column(2, 'slow', 'full')],
  cell_figures: [
    { name: 'citation_recall', base: 'citation_recall', kind: 'score', higher_is_better: true, headline: true },
  ],
  questions: [
    question('q1', [cell('pass', 1, { text: 'Paid time off is 25 days' }), cell('pass', 1), cell('pass', 1)], {
      category: 'hr',
    }),
    question('q2', [cell('fail', 0), cell('pass', 0.5, { change: 'broken' }), null], { conversation: 'pto', turn: 1 }),
    question('q10', [cell('error', null), cell('fail', 0.2, { review: 'fail' }), cell('fail', 0.2)], {
      category: 'it',
      conversation: 'vpn',
      turn: 1,
    }),
  ],
} as unknown as ViewData;
const texts = searchTexts(data);
const ids = (params: string) =>
  filterQuestions(data, filtersFrom(new URLSearchParams(params)), texts).map((i) => data.questions[i]!.id);

describe('questions filters', () => {
  it('keeps every question by default, in id order', () => expect(ids('')).toEqual(['q1', 'q2', 'q10']));
  it('searches ids, questions and answers, every word', () => {
    expect(ids('q=paid%20days')).toEqual(['q1']);
    expect(ids('q=ABOUT%20q1')).toEqual(['q1', 'q10']);
    expect(ids('q=nothing')).toEqual([]);
  });
  it('filters by set and mode (the columns in view), category and outcome', () => {
    expect(ids('set=slow&mode=full')).toEqual(['q1', 'q10']);
    expect(ids('category=hr')).toEqual(['q1']);
    expect(ids('outcome=timeout')).toEqual(['q10']);
    expect(ids('outcome=timeout&set=slow')).toEqual([]);
  });
  it('filters by conversation: one, or every conversation turn', () => {
    expect(ids('conv=pto')).toEqual(['q2']);
    expect(ids('conv=*')).toEqual(['q2', 'q10']);
  });
  it('pass/fail, differs between sets, broken against the baseline, reviews', () => {
    expect(ids('result=pass')).toEqual(['q1']);
    expect(ids('result=fail')).toEqual(['q2', 'q10']);
    expect(ids('differs=1')).toEqual(['q2', 'q10']);
    expect(ids('differs=1&set=slow')).toEqual([]);
    expect(ids('broken=1')).toEqual(['q2']);
    expect(ids('review=fail')).toEqual(['q10']);
    expect(ids('review=unreviewed')).toEqual(['q1', 'q2']);
  });
  it('sorts by a figure worst first (mean over the columns in view, or one column), missing values last', () => {
    expect(ids('sort=citation_recall')).toEqual(['q10', 'q2', 'q1']);
    expect(ids('sort=citation_recall&dir=desc')).toEqual(['q1', 'q2', 'q10']);
    expect(ids('sort=citation_recall&sortcol=0')).toEqual(['q2', 'q1', 'q10']);
  });
  it('round-trips through the URL, defaults left out', () => {
    const f = filtersFrom(new URLSearchParams('q=x&differs=1&colour=pass&result=bogus'));
    expect(paramsOf(f)).toEqual({ q: 'x', differs: '1' });
  });

  it('clears every filter and the search, keeping the colouring and the order', () => {
    const busy = filtersFrom(
      new URLSearchParams('q=refund&set=fast&result=fail&differs=1&review=pass&colour=ttft_ms&sort=ttft_ms&dir=asc'),
    );
    expect(paramsOf(clearedFilters(busy))).toEqual({ colour: 'ttft_ms', sort: 'ttft_ms', dir: 'asc' });
    expect(paramsOf(clearedFilters(filtersFrom(new URLSearchParams())))).toEqual({});
  });
});
