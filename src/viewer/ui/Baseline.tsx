/**
 * @module viewer/ui/Baseline
 * Against the baseline: per group the figures compare.md shows with their deltas and 95%
 * intervals, then the broken and fixed questions with both answers side by side.
 */
import { formatDelta, formatDirection, formatInterval, formatValue } from '../../compare/format-delta.js';
import type { GroupComparison, QuestionChange, QuestionSide } from '../../compare/schema.js';
import type { ViewData, ViewRun } from '../view-data.js';
import { href } from './route.js';

function Side(props: { title: string; side: QuestionSide }) {
  const s = props.side;
  return (
    <div class="side">
      <h5>{props.title}</h5>
      <p class="meta">
        {[...new Set(s.outcomes)].join('/') || 'no request'} · pass{' '}
        {s.pass === null ? '–' : `${Math.round(s.pass * 100)}%`} ·{' '}
        {s.cited_document_ids.length > 0 ? `cited ${s.cited_document_ids.join(', ')}` : 'cited nothing'}
      </p>
      <div class="answer">{s.answer ?? '(no answer)'}</div>
    </div>
  );
}

function Changes(props: { title: string; list: readonly QuestionChange[]; kind: 'broken' | 'fixed' }) {
  if (props.list.length === 0) return <p class="muted">No {props.kind} question.</p>;
  return (
    <section class={`changes ${props.kind}`}>
      <h4>
        {props.title} ({props.list.length})
      </h4>
      {props.list.map((q) => (
        <div class="change" key={q.question_id} data-change={q.question_id}>
          <p>
            <a href={href('question', {}, q.question_id)}>
              <code>{q.question_id}</code>
            </a>{' '}
            {q.question} <span class={props.kind === 'broken' ? 'tag bad' : 'tag good'}>{q.changes.join(', ')}</span>
          </p>
          <div class="sides">
            <Side title="baseline" side={q.baseline} />
            <Side title="current" side={q.current} />
          </div>
        </div>
      ))}
    </section>
  );
}

function Group(props: { group: GroupComparison; shown: readonly string[] }) {
  const g = props.group;
  const rows = props.shown.flatMap((name) => g.figures.find((f) => f.figure === name) ?? []);
  return (
    <section class="group" data-group={g.label}>
      <h3>{g.label}</h3>
      <p class="meta">
        {g.questions.paired} questions paired · supporting detail, not the verdict: {g.pass_changes.worse} passed less,{' '}
        {g.pass_changes.better} more, {g.pass_changes.unchanged} unchanged (sign test on the flips only, p ={' '}
        {g.pass_changes.p_value.toFixed(3)}; pass_rate's row decides)
      </p>
      <div class="table-box">
        <table class="deltas">
          <thead>
            <tr>
              <th scope="col">figure</th>
              <th scope="col">baseline</th>
              <th scope="col">current</th>
              <th scope="col">Δ</th>
              <th scope="col">95% interval (latency: ratio)</th>
              <th scope="col">change</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((f) => (
              <tr key={f.figure} class={f.significant ? `sig ${f.direction ?? ''}` : ''}>
                <th scope="row">
                  {f.figure}
                  {f.significant ? ' ✱' : ''}
                </th>
                <td>{formatValue(f, f.baseline)}</td>
                <td>{formatValue(f, f.current)}</td>
                <td>{formatDelta(f, f.delta)}</td>
                <td>{formatInterval(f)}</td>
                <td>{formatDirection(f)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Changes title="Broken" list={g.broken} kind="broken" />
      <Changes title="Fixed" list={g.fixed} kind="fixed" />
    </section>
  );
}

function RunComparison(props: { run: ViewRun }) {
  const c = props.run.comparison;
  if (c === null) return null;
  return (
    <div class="comparison">
      <h2>{props.run.name} against the baseline</h2>
      <p>
        {c.significant.better + c.significant.worse === 0
          ? 'No significant change.'
          : `Significant changes: ${c.significant.worse} worse, ${c.significant.better} better.`}{' '}
        Paired bootstrap, {c.resamples} resamples, seed {c.seed}; ✱ significant.
      </p>
      {c.unmatched.baseline.length + c.unmatched.current.length > 0 ? (
        <p class="notice">
          Not compared — baseline only: {c.unmatched.baseline.map((g) => g.label).join(', ') || 'none'}; current only:{' '}
          {c.unmatched.current.map((g) => g.label).join(', ') || 'none'}.
        </p>
      ) : null}
      {c.groups.map((g, i) => (
        <Group key={g.label} group={g} shown={props.run.shown_figures[i] ?? []} />
      ))}
    </div>
  );
}

export function Baseline(props: { data: ViewData }) {
  if (props.data.baseline === null)
    return (
      <p class="notice">
        No baseline: open the viewer with <code>--baseline RUN</code> to compare.
      </p>
    );
  return (
    <div class="baseline-page">
      <p class="lead">
        Baseline {props.data.baseline.name} ({props.data.baseline.requests} requests).
      </p>
      {props.data.runs.map((r) => (
        <RunComparison key={r.name} run={r} />
      ))}
    </div>
  );
}
