/**
 * @module viewer/ui/Overview
 * The sets side by side: every figure of the catalogue that the runs have, with its interval and
 * n; the best of a row marked only where the run's verdict says a set is significantly best (the
 * paired comparison of its sets, viewer/ui/best). The verdict opens it, with what the run can say
 * of which model answered. A figure's name links to the questions sorted by it. Below, each set's
 * token figures in one block (ui/TokenSummary).
 */
import { useState } from 'preact/hooks';
import type { ViewData } from '../view-data.js';
import { bestOf, enoughValues } from './best.js';
import { formatEstimate } from './figures.js';
import { href } from './route.js';
import { TokenSummaryBlock } from './TokenSummary.js';

export function Overview(props: { data: ViewData; params: URLSearchParams }) {
  const { data } = props;
  const [all, setAll] = useState(props.params.get('all') === '1');
  const rows = data.figures.map((f, i) => ({ f, i })).filter(({ f }) => all || f.headline);
  const perQuestion = new Set(data.cell_figures.map((f) => f.name));
  return (
    <div class="overview">
      {data.runs.map((r) =>
        r.verdict ? (
          <section class={`verdict verdict-${r.verdict.status}`} role="status" key={r.name}>
            <p>
              <strong>
                {data.runs.length > 1 ? `${r.name}: ` : ''}
                {r.verdict.headline}
              </strong>{' '}
              (exit {r.verdict.exit_code})
            </p>
            {r.verdict.comparisons.length > 0 ? (
              <ul>
                {r.verdict.comparisons.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            ) : null}
            {(r.verdict.models?.warnings ?? []).map((w) => (
              <p class="banner model-warning" role="alert" key={w}>
                Model: {w}
              </p>
            ))}
            {r.verdict.models?.note ? <p class="note model-note">Model: {r.verdict.models.note}.</p> : null}
          </section>
        ) : null,
      )}
      <p class="lead">
        {data.runs
          .map(
            (r) =>
              `${r.name}: ${r.requests} requests, ${r.questions} questions, sets ${r.sets.join(', ')}${r.reviews > 0 ? `, ${r.reviews} reviews` : ''}`,
          )
          .join(' · ')}
        {data.baseline ? ` · baseline ${data.baseline.name}` : ''}
      </p>
      <label class="toggle">
        <input type="checkbox" checked={all} onChange={(e) => setAll((e.target as HTMLInputElement).checked)} /> every
        figure ({data.figures.length}), not only the headline ones
      </label>
      <div class="table-box">
        <table class="figures">
          <thead>
            <tr>
              <th scope="col">figure</th>
              {data.columns.map((c) => (
                <th scope="col" key={c.id}>
                  {c.label}
                  <div class="sub">{c.requests} requests</div>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map(({ f, i }) => {
              const cells = data.columns.map((c) => c.figures[i] ?? null);
              const best = bestOf(f, data.columns, cells, data.runs);
              const sortable = perQuestion.has(f.name) ? f.name : perQuestion.has(f.base) ? f.base : null;
              return (
                <tr key={f.name} data-figure={f.name}>
                  <th scope="row">
                    {sortable ? (
                      <a
                        href={href('questions', { sort: sortable, colour: sortable })}
                        title={`questions sorted by ${sortable}, worst first`}
                      >
                        {f.name}
                      </a>
                    ) : (
                      f.name
                    )}
                    <span class="dir" title={f.higher_is_better ? 'higher is better' : 'lower is better'}>
                      {f.higher_is_better ? '↑' : '↓'}
                    </span>
                  </th>
                  {cells.map((e, j) => {
                    if (e === null && f.name === 'pass_rate' && data.columns[j]!.unchecked_questions > 0)
                      return (
                        <td key={j} class="not-checked" title="no question of this column expects anything">
                          <span class="v">not checked</span>
                        </td>
                      );
                    const { value, interval } = formatEstimate(f, e);
                    return (
                      <td key={j} class={best[j] ? 'best' : e !== null && !enoughValues(f, e) ? 'few' : ''}>
                        <span class="v">{value}</span>
                        {interval ? <span class="ci"> [{interval}]</span> : null}
                        {e?.n !== null && e?.n !== undefined ? <span class="n"> n={e.n}</span> : null}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p class="note">
        Best of a row (shaded) only with two or more values that differ as printed, each resting on enough values
        (greyed otherwise: a mean needs 5, a p-quantile 10 / (1 − p), e.g. p95 200; a max never). Intervals are 95%
        (Student t for scores, Wilson for rates); latency statistics are over ok requests. Click a figure to sort the
        questions by it, worst first.
      </p>
      <TokenSummaryBlock data={data} />
    </div>
  );
}
