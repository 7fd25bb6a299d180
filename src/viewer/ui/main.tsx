/**
 * @module viewer/ui/main
 * The viewer's browser app (Preact): reads the runs from the local server or from the data
 * embedded in viewer.html, and shows the overview, the questions, one question, and the
 * comparison with a baseline. Bundled by scripts/build-viewer.mjs; nothing is fetched from
 * anywhere but the page's own server.
 */
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Review } from '../../records/review.js';
import type { ViewData } from '../view-data.js';
import { openSource, type DataSource } from './api.js';
import { Baseline } from './Baseline.js';
import { filterQuestions, filtersFrom, searchTexts } from './filter.js';
import { Overview } from './Overview.js';
import { QuestionPage } from './Question.js';
import { Questions, type SearchHits } from './Questions.js';
import { href, parseRoute, type Page } from './route.js';
import './viewer.css';

/** The cell of a question's column after a review, until the server's figures come back. */
function withReview(data: ViewData, run: number, review: Review): ViewData {
  const columnIds = data.columns
    .filter(
      (c) => c.run === run && c.set === review.set && c.mode === review.mode && c.model_index === review.model_index,
    )
    .map((c) => c.id);
  return {
    ...data,
    questions: data.questions.map((q) =>
      q.id !== review.question_id
        ? q
        : {
            ...q,
            cells: q.cells.map((cell, i) =>
              cell && columnIds.includes(i)
                ? {
                    ...cell,
                    review:
                      cell.review === null || cell.review === review.verdict || cell.outcomes.length === 1
                        ? review.verdict
                        : 'mixed',
                  }
                : cell,
            ),
          },
    ),
  };
}

function App(props: { source: DataSource }) {
  const [data, setData] = useState<ViewData | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [hash, setHash] = useState(location.hash);
  const [listParams, setListParams] = useState(new URLSearchParams());
  const [hits, setHits] = useState<SearchHits | null>(null);
  useEffect(() => {
    const onHash = () => setHash(location.hash);
    addEventListener('hashchange', onHash);
    props.source.data().then(setData, (error: Error) => setFailure(error.message));
    return () => removeEventListener('hashchange', onHash);
  }, []);
  const route = parseRoute(hash);
  useEffect(() => {
    if (route.page === 'questions') setListParams(route.params);
    scrollTo(0, 0);
  }, [hash]);
  const texts = useMemo(() => (data ? searchTexts(data) : []), [data]);

  if (failure) return <p class="error">Could not load the runs: {failure}</p>;
  if (data === null) return <p class="loading">Loading the runs…</p>;
  const navigate = (next: string) => {
    location.hash = next;
  };
  const tabs: [Page, string][] = [
    ['overview', 'Overview'],
    ['questions', 'Questions'],
    ...(data.baseline ? [['baseline', 'Against the baseline'] as [Page, string]] : []),
  ];
  const neighbours = () => {
    const filters = filtersFrom(listParams);
    const order = filterQuestions(
      data,
      filters,
      texts,
      props.source.search && hits?.q === filters.q ? hits.ids : null,
    ).map((i) => data.questions[i]!.id);
    const at = order.indexOf(route.id ?? '');
    const list = at === -1 ? data.questions.map((q) => q.id) : order;
    const i = list.indexOf(route.id ?? '');
    return {
      prev: i > 0 ? list[i - 1]! : null,
      next: i >= 0 && i < list.length - 1 ? list[i + 1]! : null,
      back: `#/questions${listParams.toString() ? `?${listParams}` : ''}`,
    };
  };
  return (
    <div class="app">
      <header class="top">
        <h1>chatbench viewer</h1>
        <nav>
          {tabs.map(([page, label]) => (
            <a
              key={page}
              href={page === 'questions' ? `#/questions${listParams.toString() ? `?${listParams}` : ''}` : href(page)}
              class={route.page === page || (page === 'questions' && route.page === 'question') ? 'current' : ''}
            >
              {label}
            </a>
          ))}
        </nav>
        <span class="runs">{data.runs.map((r) => r.name).join(' · ')}</span>
      </header>
      {props.source.readOnly ? (
        <p class="banner" role="note">
          Read-only: this viewer.html embeds the run
          {data.details.source === 'embedded' && !data.details.complete
            ? ' (the answers of some questions only: see docs/commands/view.md)'
            : ''}
          ; saving reviews is unavailable here. Run <code>chatbench view DIR</code> to review.
        </p>
      ) : null}
      <main>
        {route.page === 'overview' ? <Overview data={data} params={route.params} /> : null}
        {route.page === 'questions' ? (
          <Questions
            data={data}
            params={route.params}
            navigate={navigate}
            source={props.source}
            hits={hits}
            onHits={setHits}
          />
        ) : null}
        {route.page === 'question' && route.id !== null ? (
          <QuestionPage
            id={route.id}
            data={data}
            source={props.source}
            params={route.params}
            neighbours={neighbours()}
            onReviewed={(run, review) => {
              setData((d) => (d ? withReview(d, run, review) : d));
              // The server read the run again: its figures (human_pass_rate) come back with the data.
              props.source.data().then(setData, () => undefined);
            }}
          />
        ) : null}
        {route.page === 'baseline' ? <Baseline data={data} /> : null}
      </main>
      <footer>
        {data.generated_by} ·{' '}
        {data.mode === 'server' ? `served locally; reviews are saved as ${data.reviewer ?? 'you'}` : 'viewer.html'}
      </footer>
    </div>
  );
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App source={openSource(document)} />, root);
}
