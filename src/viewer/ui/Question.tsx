/**
 * @module viewer/ui/Question
 * One question: its text and expected documents, every column's answer side by side (wrapped,
 * citations linked), checks and scores, the judge's and any other extra fields, the waterfall of
 * milestones, every attempt, and the review of each answer. Each answer's token figures stand over its
 * set's (the run summary's, ui/token-summary).
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { answerKey } from '../../records/answer-key.js';
import type { AnswerFigures } from '../../records/record.js';
import type { Review, Verdict } from '../../records/review.js';
import { answerFailReasons } from '../../reports/fail-reasons.js';
import { formatMs } from '../../reports/format.js';
import type { ViewAnswerFigures, ViewColumn, ViewData, ViewDetail, ViewQuestion } from '../view-data.js';
import type { DataSource } from './api.js';
import { AnswerText, citedDocuments, Documents, milestones, Waterfall, type AnswerView } from './answer.js';
import { ExpectationsPanel } from './Expectations.js';
import { Judge, ReviewMark } from './judge.js';
import { judgeLines } from './judge-lines.js';
import { href } from './route.js';
import { tokenLine } from './token-line.js';
import { tokenSummaries, tokenSummaryLine, type TokenSummary } from './token-summary.js';

type Raw = Readonly<Record<string, unknown>>;

/** One answer shown in a pane: a record's, or one model's of a multi-model record. */
interface Pane {
  readonly id: string;
  readonly run: number;
  readonly column: ViewColumn | undefined;
  readonly label: string;
  readonly record: Raw;
  /** The answer's own figures: the record, or its models[] entry. */
  readonly figures: Raw;
  /** Its token figures and own ITL (viewer/answer-figures); undefined in a viewer.html from before them. */
  readonly tokens: ViewAnswerFigures | undefined;
  readonly model_index: number | null;
  readonly key: string;
  readonly repeat: number;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function panesOf(detail: ViewDetail, data: ViewData): Pane[] {
  const panes: Pane[] = [];
  for (const { run, record, figures: counted } of detail.records) {
    const set = str(record.set) ?? '';
    const mode = str(record.mode) ?? '';
    const key = str(record.key) ?? '';
    const repeat = num(record.repeat) ?? 0;
    const models = Array.isArray(record.models) && record.models.length > 0 ? (record.models as Raw[]) : null;
    const entries = models ?? [record];
    for (const [index, figures] of entries.entries()) {
      const modelIndex = models ? num(figures.model_index) : null;
      const column =
        run >= 0
          ? data.columns.find((c) => c.run === run && c.set === set && c.mode === mode && c.model_index === modelIndex)
          : undefined;
      const modelName = models ? (str(figures.model_name) ?? `model ${modelIndex}`) : null;
      const label =
        column?.label ?? `${run < 0 ? 'baseline: ' : ''}${set}${modelName ? ` · ${modelName}` : ''} (${mode})`;
      panes.push({
        id: `p${panes.length}`,
        run,
        column,
        label,
        record,
        figures,
        tokens: counted?.[index],
        model_index: modelIndex,
        key,
        repeat,
      });
    }
  }
  // Columns in the overview's order; the baseline's answers after the runs'.
  const order = (p: Pane) => (p.run < 0 ? 1e6 : (p.column?.id ?? 1e5));
  return panes.sort((a, b) => order(a) - order(b) || a.repeat - b.repeat);
}

function answerOf(f: Raw): AnswerView {
  const list = (v: unknown) => (Array.isArray(v) ? v : []);
  return {
    answer: str(f.answer),
    citations: list(f.citations) as AnswerView['citations'],
    cited_document_ids: list(f.cited_document_ids) as string[],
    top_document_ids: list(f.top_document_ids) as string[],
    markers_without_citation: list(f.markers_without_citation) as number[],
  };
}

/** Any value as readable text and nested lists: how fields this version does not know are shown. */
function Value(props: { value: unknown; depth?: number }) {
  const { value } = props;
  const depth = props.depth ?? 0;
  if (value === null || value === undefined) return <span class="muted">–</span>;
  if (typeof value === 'number') return <span>{Number.isInteger(value) ? value : value.toFixed(3)}</span>;
  if (typeof value === 'boolean') return <span>{value ? 'yes' : 'no'}</span>;
  if (typeof value === 'string') return <span class="text">{value}</span>;
  if (depth > 3) return <code>{JSON.stringify(value)}</code>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span class="muted">none</span>;
    return (
      <ul class="value-list">
        {value.map((v, i) => (
          <li key={i}>
            <Value value={v} depth={depth + 1} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <dl class="value-map">
      {Object.entries(value as Raw).map(([k, v]) => [
        <dt key={`${k}-t`}>{k}</dt>,
        <dd key={`${k}-d`}>
          <Value value={v} depth={depth + 1} />
        </dd>,
      ])}
    </dl>
  );
}

function Scores(props: { scores: unknown }) {
  if (typeof props.scores !== 'object' || props.scores === null)
    return <p class="muted">No scores (the request was not ok, or a multi-model request: see each model).</p>;
  const entries = Object.entries(props.scores as Raw);
  return (
    <details class="scores">
      <summary>Scores ({entries.length})</summary>
      <table>
        <tbody>
          {entries.map(([k, v]) => (
            <tr key={k}>
              <th scope="row">{k}</th>
              <td>
                <Value value={v} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

function Attempts(props: { attempts: unknown }) {
  const attempts = Array.isArray(props.attempts) ? (props.attempts as Raw[]) : [];
  if (attempts.length <= 1) return null;
  return (
    <details class="attempts" open>
      <summary>Attempts ({attempts.length})</summary>
      <table>
        <thead>
          <tr>
            <th>#</th>
            <th>outcome</th>
            <th>status</th>
            <th>error</th>
            <th>retry after</th>
            <th>total</th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((a, i) => (
            <tr key={i}>
              <td>{String(a.attempt ?? i)}</td>
              <td>{String(a.outcome ?? '')}</td>
              <td>{a.http_status === null ? '–' : String(a.http_status ?? '–')}</td>
              <td>{str(a.error_code) ?? '–'}</td>
              <td>{num(a.retry_after_s) === null ? '–' : `${num(a.retry_after_s)} s`}</td>
              <td>{formatMs(num(a.total_ms))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/**
 * The judge's verdicts (one line per figure, the reason on demand), then the checks, the reference
 * answer and rubric (shown as they are), and any field of the record (or of the model's entry)
 * this version does not know.
 */
function Extras(props: { pane: Pane; known: ViewData['known_fields'] }) {
  const record = new Set(props.known.record);
  const model = new Set(props.known.model);
  // A field with nothing in it (no judge, no check) says nothing: left out.
  const said = ([, v]: [string, unknown]) =>
    v !== null && v !== undefined && !(typeof v === 'object' && Object.keys(v).length === 0);
  const all: [string, unknown][] = [
    ...Object.entries(props.pane.record).filter(([k]) => !record.has(k)),
    ...(props.pane.model_index === null ? [] : Object.entries(props.pane.figures).filter(([k]) => !model.has(k))),
  ].filter(said);
  // The answer's own judgement: the model's entry's for a model pane, else the record's.
  const judge = props.pane.model_index === null ? props.pane.record.judge : props.pane.figures.judge;
  const lines = judgeLines(judge);
  const extras = lines === null ? all : all.filter(([k]) => k !== 'judge');
  if (extras.length === 0 && (lines === null || lines.length === 0)) return null;
  return (
    <section class="extras">
      {lines === null ? null : <Judge lines={lines} model={str((judge as Raw).model)} />}
      {extras.map(([k, v]) => (
        <div key={k} class="extra">
          <h4>{k.replace(/_/g, ' ')}</h4>
          <Value value={v} />
        </div>
      ))}
    </section>
  );
}

/** The conversation a turn belongs to: its turns in order, this one marked, each a link. */
function ConversationNav(props: { question: ViewQuestion; data: ViewData }) {
  const turns = props.data.questions
    .filter((q) => q.conversation === props.question.conversation)
    .sort((a, b) => (a.turn ?? 0) - (b.turn ?? 0));
  return (
    <p class="conversation">
      conversation <strong>{props.question.conversation}</strong>, turn {props.question.turn ?? '?'} of {turns.length}:{' '}
      {turns.map((q) =>
        q.id === props.question.id ? (
          <strong key={q.id}>{q.turn ?? '?'} </strong>
        ) : (
          <a key={q.id} href={href('question', {}, q.id)} title={q.question}>
            {q.turn ?? '?'}{' '}
          </a>
        ),
      )}
    </p>
  );
}

function Checks(props: { pane: Pane }) {
  const f = props.pane.figures as unknown as AnswerFigures;
  const reasons = answerFailReasons(f, num(props.pane.record.http_status));
  const pass = f.outcome === 'ok' && f.scores?.pass === true;
  const s = f.scores;
  return (
    <div class="checks">
      <p class={pass ? 'verdict pass' : 'verdict fail'}>
        <Mark pass={pass} /> {pass ? 'passes' : reasons.join('; ') || 'does not pass'}
      </p>
      {s && (s.missing_phrases.length > 0 || s.forbidden_phrases.length > 0 || s.no_answer_ok !== null) ? (
        <ul class="phrase-checks">
          {s.missing_phrases.map((p) => (
            <li key={`m${p}`}>missing “{p}”</li>
          ))}
          {s.forbidden_phrases.map((p) => (
            <li key={`f${p}`}>forbidden “{p}” present</li>
          ))}
          {s.no_answer_ok !== null ? (
            <li>no answer expected: {s.no_answer_ok ? 'nothing cited (ok)' : 'cited documents'}</li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}

/** A check or cross drawn in SVG: no emoji font needed. */
export function Mark(props: { pass: boolean }) {
  return props.pass ? (
    <svg class="mark good" viewBox="0 0 16 16" width="14" height="14" role="img" aria-label="passed">
      <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" stroke-width="2.2" />
    </svg>
  ) : (
    <svg class="mark bad" viewBox="0 0 16 16" width="14" height="14" role="img" aria-label="failed">
      <path d="M4 4l8 8M12 4l-8 8" fill="none" stroke="currentColor" stroke-width="2.2" />
    </svg>
  );
}

interface ReviewState {
  /** Answer key → reviews oldest first. */
  readonly byAnswer: ReadonlyMap<string, readonly Review[]>;
}

function ReviewBox(props: {
  pane: Pane;
  history: readonly Review[];
  readOnly: boolean;
  reviewer: string | null;
  onSave: (verdict: Verdict, note: string) => Promise<void>;
}) {
  const last = props.history[props.history.length - 1];
  const [note, setNote] = useState(last?.note ?? '');
  const [state, setState] = useState<{ saving: boolean; error: string | null }>({ saving: false, error: null });
  const save = async (verdict: Verdict) => {
    setState({ saving: true, error: null });
    try {
      await props.onSave(verdict, note);
      setState({ saving: false, error: null });
    } catch (error) {
      setState({ saving: false, error: (error as Error).message });
    }
  };
  return (
    <div class="review" data-review={last?.verdict ?? 'none'}>
      <h4>Review</h4>
      {last ? (
        <p class={`review-current ${last.verdict}`}>
          <ReviewMark pass={last.verdict === 'pass'} /> reviewed {last.verdict} by {last.reviewer},{' '}
          {last.at.slice(0, 16).replace('T', ' ')}
          {last.note ? `: ${last.note}` : ''}
        </p>
      ) : (
        <p class="muted">Not reviewed.</p>
      )}
      {props.readOnly ? (
        <p class="muted read-only">
          Saving reviews is unavailable in viewer.html (read-only). Open the run with <code>chatbench view DIR</code> to
          review.
        </p>
      ) : (
        <div class="review-form">
          <textarea
            aria-label={`note on ${props.pane.label}`}
            placeholder="Note (optional): what is right or wrong"
            value={note}
            onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)}
            maxLength={4000}
            rows={2}
          />
          <div class="buttons">
            <button type="button" class="good" disabled={state.saving} onClick={() => void save('pass')}>
              Pass
            </button>
            <button type="button" class="bad" disabled={state.saving} onClick={() => void save('fail')}>
              Fail
            </button>
            <span class="muted">as {props.reviewer ?? 'you'}</span>
          </div>
          {state.error ? <p class="error">{state.error}</p> : null}
        </div>
      )}
    </div>
  );
}

function PaneView(props: {
  pane: Pane;
  expected: readonly string[];
  scale: number;
  data: ViewData;
  /** Its column's token figures from the run summary (ui/token-summary); undefined when it has none. */
  setTokens: TokenSummary | undefined;
  reviews: readonly Review[];
  readOnly: boolean;
  onSave: (pane: Pane, verdict: Verdict, note: string) => Promise<void>;
}) {
  const { pane } = props;
  const [target, setTarget] = useState<number | null>(null);
  const answer = answerOf(pane.figures);
  const cited = useMemo(() => citedDocuments(answer, new Set(props.expected)), [pane]);
  const outcome = str(pane.figures.outcome) ?? '?';
  const status = num(pane.record.http_status);
  const error = str(pane.figures.error_code) ?? str(pane.figures.error_message);
  const tokens = tokenLine(pane.tokens);
  const onCite = (n: number) => {
    setTarget(n);
    requestAnimationFrame(() => document.getElementById(`${pane.id}-cite-${n}`)?.scrollIntoView({ block: 'nearest' }));
  };
  return (
    <article class={`pane${pane.run < 0 ? ' baseline' : ''}`} data-pane={pane.label}>
      <header>
        <h3>{pane.label}</h3>
        <p class="meta">
          {outcome}
          {status !== null && outcome !== 'ok' ? ` ${status}` : ''}
          {error ? ` · ${error}` : ''} · repeat {pane.repeat} · total {formatMs(num(pane.figures.total_ms))}
          {str(pane.record.session) ? ` · session ${str(pane.record.session)}` : ''}
          {Array.isArray(pane.figures.tools_used) && pane.figures.tools_used.length > 0
            ? ` · tools ${(pane.figures.tools_used as string[]).join(', ')}`
            : ''}
        </p>
        {tokens === null ? null : (
          <p class="meta tokens" data-figures="tokens">
            {tokens}
          </p>
        )}
        {props.setTokens === undefined ? null : (
          <p class="meta tokens" data-figures="set-tokens" title="this set's figures in the run summary (summary.json)">
            {tokenSummaryLine(props.setTokens)}
          </p>
        )}
        {outcome === 'skipped' ? <p class="muted">{str(pane.figures.error_message)}</p> : null}
      </header>
      <Checks pane={pane} />
      <AnswerText answer={answer} cited={cited} onCite={onCite} />
      <Documents id={pane.id} answer={answer} cited={cited} expected={props.expected} target={target} />
      <Extras pane={pane} known={props.data.known_fields} />
      <h4>Milestones</h4>
      <Waterfall items={milestones(pane.figures, pane.record.headers_ms)} scale={props.scale} />
      <Attempts attempts={pane.record.attempts} />
      <Scores scores={pane.figures.scores} />
      {pane.run >= 0 ? (
        <ReviewBox
          pane={pane}
          history={props.reviews}
          readOnly={props.readOnly}
          reviewer={props.data.reviewer}
          onSave={(v, n) => props.onSave(pane, v, n)}
        />
      ) : null}
    </article>
  );
}

export function QuestionPage(props: {
  id: string;
  data: ViewData;
  source: DataSource;
  params: URLSearchParams;
  neighbours: { prev: string | null; next: string | null; back: string };
  onReviewed: (run: number, review: Review) => void;
}) {
  const { data, id } = props;
  const question: ViewQuestion | undefined = data.questions.find((q) => q.id === id);
  const [detail, setDetail] = useState<ViewDetail | undefined | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [reviews, setReviews] = useState<ReviewState>({ byAnswer: new Map() });
  const repeat = Number(props.params.get('repeat') ?? '0');
  const showBaseline = props.params.get('baseline') !== '0';

  useEffect(() => {
    let live = true;
    setDetail(null);
    setFailure(null);
    props.source.question(id).then(
      (d) => {
        if (!live) return;
        setDetail(d);
        const byAnswer = new Map<string, Review[]>();
        for (const { run, review } of d?.reviews ?? []) {
          const k = `${run}|${answerKey(review.key, review.model_index)}`;
          byAnswer.set(k, [...(byAnswer.get(k) ?? []), review]);
        }
        setReviews({ byAnswer });
      },
      (error: Error) => live && setFailure(error.message),
    );
    return () => {
      live = false;
    };
  }, [id, props.source]);

  if (question === undefined) return <p class="error">No question {id} in these runs.</p>;
  const panes = detail ? panesOf(detail, data) : [];
  const repeats = [...new Set(panes.map((p) => p.repeat))].sort((a, b) => a - b);
  const shown = panes.filter(
    (p) => p.repeat === (repeats.includes(repeat) ? repeat : (repeats[0] ?? 0)) && (showBaseline || p.run >= 0),
  );
  const scale = Math.max(1, ...shown.map((p) => num(p.figures.total_ms) ?? 0));
  const setTokens = new Map(tokenSummaries(data).map((s) => [s.column, s]));
  const save = async (pane: Pane, verdict: Verdict, note: string) => {
    const review = await props.source.saveReview({
      run: pane.run,
      key: pane.key,
      model_index: pane.model_index,
      verdict,
      note,
    });
    const k = `${pane.run}|${answerKey(pane.key, pane.model_index)}`;
    setReviews((r) => ({ byAnswer: new Map(r.byAnswer).set(k, [...(r.byAnswer.get(k) ?? []), review]) }));
    props.onReviewed(pane.run, review);
  };
  const link = (over: Record<string, string>) => href('question', { repeat: String(repeat), ...over }, id);

  return (
    <div class="question-page">
      <nav class="question-nav">
        <a href={props.neighbours.back}>← questions</a>
        {props.neighbours.prev ? (
          <a href={href('question', {}, props.neighbours.prev)} rel="prev">
            previous
          </a>
        ) : null}
        {props.neighbours.next ? (
          <a href={href('question', {}, props.neighbours.next)} rel="next">
            next
          </a>
        ) : null}
      </nav>
      <h2>
        <code>{question.id}</code> {question.question}
      </h2>
      <p class="meta">
        {question.category ? `category ${question.category} · ` : ''}
        expected documents:{' '}
        {question.expected.length === 0 ? 'none' : question.expected.map((d) => <code key={d}>{d} </code>)}
      </p>
      {question.conversation !== null ? <ConversationNav question={question} data={data} /> : null}
      <ExpectationsPanel id={id} data={data} source={props.source} />
      {repeats.length > 1 ? (
        <p class="repeats">
          Repeat:{' '}
          {repeats.map((r) => (
            <a key={r} href={link({ repeat: String(r) })} class={r === repeat ? 'current' : ''}>
              {r}
            </a>
          ))}
        </p>
      ) : null}
      {data.baseline ? (
        <p>
          <a href={link({ baseline: showBaseline ? '0' : '1' })}>
            {showBaseline ? 'Hide' : 'Show'} the baseline's answers
          </a>
        </p>
      ) : null}
      {failure ? <p class="error">Could not load the question: {failure}</p> : null}
      {detail === null && !failure ? <p class="loading">Loading the answers…</p> : null}
      {detail === undefined ? (
        <p class="notice">
          This question's records are not embedded in this viewer.html (the run is larger than it embeds; see
          docs/commands/view.md). Open the run with <code>chatbench view DIR</code> to read every answer. The first{' '}
          {data.answer_chars} characters of each answer:
        </p>
      ) : null}
      {detail === undefined ? (
        <div class="panes">
          {data.columns.map((c) => {
            const cell = question.cells[c.id];
            return cell ? (
              <article class="pane" key={c.id}>
                <header>
                  <h3>{c.label}</h3>
                </header>
                <div class="answer">{cell.text || '(no answer)'}</div>
              </article>
            ) : null;
          })}
        </div>
      ) : (
        <div class="panes">
          {shown.map((p) => (
            <PaneView
              key={`${p.id}`}
              pane={p}
              expected={question.expected}
              scale={scale}
              data={data}
              setTokens={p.column === undefined ? undefined : setTokens.get(p.column.id)}
              reviews={reviews.byAnswer.get(`${p.run}|${answerKey(p.key, p.model_index)}`) ?? []}
              readOnly={props.source.readOnly}
              onSave={save}
            />
          ))}
        </div>
      )}
    </div>
  );
}
