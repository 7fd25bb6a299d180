/**
 * @module viewer/ui/judge
 * The judge's verdicts on one answer, one compact line per figure: the figure, its score (or the
 * judge's error) and the reason behind a disclosure, so a pane reads at a glance and the reason is
 * one click away (the lines: judge-lines). A person's verdict, drawn unlike the pass rule's.
 */
import { formatScore } from '../../reports/format.js';
import type { JudgeLine } from './judge-lines.js';

/** The judge's verdicts of one answer; `model` names the judge in the heading's title. */
export function Judge(props: { lines: readonly JudgeLine[]; model: string | null }) {
  if (props.lines.length === 0) return null;
  return (
    <section class="judge">
      <h4 title={props.model === null ? undefined : `judged by ${props.model}`}>judge</h4>
      <ul class="judge-lines">
        {props.lines.map((l) => (
          <li key={l.figure} class={`judge-line${l.error === null ? '' : ' judge-error'}`} data-figure={l.figure}>
            <span class="judge-figure">{l.figure}</span>{' '}
            <span class="judge-score">{l.error === null ? formatScore(l.score) : 'error'}</span>
            {l.asks > 1 ? <span class="muted"> (mean of {l.asks})</span> : null}
            {l.reason !== null || l.error !== null ? (
              <details class="judge-reason">
                <summary>{l.error === null ? 'why' : 'error'}</summary>
                <p>{l.error ?? l.reason}</p>
              </details>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * A person's verdict (a review), drawn unlike the pass rule's ✓ and ✗ (Question's Mark): a filled
 * badge holding a check or a cross, so "passed" and "reviewed good" never look alike.
 */
export function ReviewMark(props: { pass: boolean }) {
  const label = props.pass ? 'reviewed pass' : 'reviewed fail';
  return (
    <svg
      class={`review-mark ${props.pass ? 'good' : 'bad'}`}
      viewBox="0 0 16 16"
      width="16"
      height="16"
      role="img"
      aria-label={label}
    >
      <title>{label}</title>
      <rect x="0.5" y="0.5" width="15" height="15" rx="4" fill="currentColor" />
      <path
        d={props.pass ? 'M4 8.5l2.6 2.6L12 5.5' : 'M5 5l6 6M11 5l-6 6'}
        fill="none"
        stroke="#fff"
        stroke-width="2"
      />
    </svg>
  );
}
