/**
 * @module viewer/ui/answer
 * One answer as a reader needs it: the text wrapped, each `[[n]]` marker a link to the document it
 * cites (expected documents marked, invalid citations flagged), the documents the answer was
 * given, and the waterfall of its milestones.
 */
import { Fragment } from 'preact';
import { formatMs } from '../../reports/format.js';

/** The answer fields a pane reads (records/record AnswerFigures, from the raw record). */
export interface AnswerView {
  readonly answer: string | null;
  readonly citations: readonly { citation_number: number; document_id: string }[];
  readonly cited_document_ids: readonly string[];
  readonly top_document_ids: readonly string[];
  readonly markers_without_citation: readonly number[];
}

const MARKER = /\[\[(\d+)\]\](?:\(([^)\s]*)\))?/g;

/** Splits an answer into text and citation markers (with the link a marker carries, if any). */
export function splitMarkers(text: string): ({ text: string } | { marker: number; link: string | null })[] {
  const out: ({ text: string } | { marker: number; link: string | null })[] = [];
  let last = 0;
  for (const m of text.matchAll(MARKER)) {
    const at = m.index ?? 0;
    if (at > last) out.push({ text: text.slice(last, at) });
    out.push({ marker: Number(m[1]), link: m[2] ?? null });
    last = at + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

/** One cited document of an answer, by citation number. */
export interface CitedDocument {
  readonly n: number;
  readonly document_id: string | null;
  readonly link: string | null;
  readonly expected: boolean;
  /** Not among the documents the answer was given, or a marker with no citation. */
  readonly invalid: string | null;
}

/** The answer's citations by number (markers without a citation included), with their verdicts. */
export function citedDocuments(a: AnswerView, expected: ReadonlySet<string>): CitedDocument[] {
  const links = new Map<number, string>();
  for (const part of splitMarkers(a.answer ?? ''))
    if ('marker' in part && part.link && !links.has(part.marker)) links.set(part.marker, part.link);
  const byNumber = new Map<number, string>();
  for (const c of a.citations) if (!byNumber.has(c.citation_number)) byNumber.set(c.citation_number, c.document_id);
  const given = new Set(a.top_document_ids);
  const numbers = [...new Set([...byNumber.keys(), ...a.markers_without_citation])].sort((x, y) => x - y);
  return numbers.map((n) => {
    const doc = byNumber.get(n) ?? null;
    const invalid =
      doc === null
        ? 'a marker with no citation'
        : given.size > 0 && !given.has(doc)
          ? 'not among the documents the answer was given'
          : null;
    return { n, document_id: doc, link: links.get(n) ?? null, expected: doc !== null && expected.has(doc), invalid };
  });
}

/** The answer text with markers as buttons that show their document. */
export function AnswerText(props: {
  answer: AnswerView;
  cited: readonly CitedDocument[];
  onCite: (n: number) => void;
}) {
  const text = props.answer.answer;
  if (text === null || text === '') return <p class="answer empty">(no answer)</p>;
  const byNumber = new Map(props.cited.map((c) => [c.n, c]));
  return (
    <div class="answer">
      {splitMarkers(text).map((part, i) => {
        if ('text' in part) return <Fragment key={i}>{part.text}</Fragment>;
        const doc = byNumber.get(part.marker);
        const cls = `marker${doc?.expected ? ' expected' : ''}${doc?.invalid ? ' invalid' : ''}`;
        return (
          <button
            key={i}
            type="button"
            class={cls}
            title={doc?.document_id ?? 'no citation for this marker'}
            onClick={() => props.onCite(part.marker)}
          >
            [{part.marker}]
          </button>
        );
      })}
    </div>
  );
}

/** The cited documents and the documents the answer was given, expected ones marked. */
export function Documents(props: {
  id: string;
  answer: AnswerView;
  cited: readonly CitedDocument[];
  expected: readonly string[];
  target: number | null;
}) {
  const expected = new Set(props.expected);
  const citedIds = new Set(props.answer.cited_document_ids);
  const top = props.answer.top_document_ids;
  const missed = props.expected.filter((d) => !citedIds.has(d));
  return (
    <div class="documents">
      <h4>Cited</h4>
      {props.cited.length === 0 ? (
        <p class="muted">Nothing cited.</p>
      ) : (
        <ol class="cited">
          {props.cited.map((c) => (
            <li
              key={c.n}
              id={`${props.id}-cite-${c.n}`}
              class={`${props.target === c.n ? 'target' : ''}${c.invalid ? ' invalid' : ''}`}
              data-cite={c.n}
            >
              <span class="n">[{c.n}]</span> <code>{c.document_id ?? '—'}</code>
              {c.expected ? (
                <span class="tag good" title="an expected document">
                  expected
                </span>
              ) : null}
              {c.invalid ? (
                <span class="tag bad" title={c.invalid}>
                  invalid: {c.invalid}
                </span>
              ) : null}
              {c.link ? (
                <div class="link">
                  <a href={c.link} target="_blank" rel="noopener noreferrer">
                    {c.link}
                  </a>
                </div>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {missed.length > 0 && props.expected.length > 0 ? (
        <p class="missed">
          Expected, not cited:{' '}
          {missed.map((d) => (
            <code key={d}>{d} </code>
          ))}
        </p>
      ) : null}
      <details>
        <summary>Top documents ({top.length})</summary>
        <ol class="top">
          {top.map((d) => (
            <li key={d}>
              <code>{d}</code>
              {expected.has(d) ? <span class="tag good">expected</span> : null}
              {citedIds.has(d) ? <span class="tag">cited</span> : null}
            </li>
          ))}
        </ol>
      </details>
    </div>
  );
}

/** A milestone of one answer, ms after sent. */
export interface Milestone {
  readonly label: string;
  readonly ms: number;
  readonly main: boolean;
}

const MAIN: readonly [
  string,
  (f: Readonly<Record<string, unknown>>, packets: Readonly<Record<string, number>>) => unknown,
][] = [
  ['headers', (f) => f.headers_ms],
  ['first part', (f) => f.ttfp_ms],
  ['search documents', (_f, p) => Object.entries(p).find(([k]) => k.includes('documents'))?.[1]],
  ['message start', (_f, p) => p.message_start],
  ['first answer', (f) => f.ttft_ms],
  ['first citation', (f) => f.first_citation_ms],
  ['done', (f) => f.total_ms],
];

/** The milestones of an answer: the named ones first, then the first packet of every other type; ordered by time. */
export function milestones(figures: Readonly<Record<string, unknown>>, headersMs: unknown): Milestone[] {
  const packets = (
    typeof figures.first_packet_ms === 'object' && figures.first_packet_ms !== null ? figures.first_packet_ms : {}
  ) as Record<string, number>;
  const withHeaders = { ...figures, headers_ms: headersMs };
  const out: Milestone[] = [{ label: 'sent', ms: 0, main: true }];
  for (const [label, get] of MAIN) {
    const ms = get(withHeaders, packets);
    if (typeof ms === 'number' && Number.isFinite(ms)) out.push({ label, ms, main: true });
  }
  for (const [type, ms] of Object.entries(packets))
    if (typeof ms === 'number') out.push({ label: type, ms, main: false });
  return out.sort((a, b) => a.ms - b.ms || Number(b.main) - Number(a.main));
}

/** The waterfall: one bar per milestone on a shared scale (`scale` ms wide), so answers side by side compare. */
export function Waterfall(props: { items: readonly Milestone[]; scale: number }) {
  const scale = Math.max(props.scale, 1);
  const [main, packets] = [props.items.filter((m) => m.main), props.items.filter((m) => !m.main)];
  const row = (m: Milestone) => (
    <div class={`wf-row${m.main ? '' : ' minor'}`} key={m.label}>
      <span class="wf-label">{m.label}</span>
      <span class="wf-track">
        <span class="wf-bar" style={{ width: `${Math.min(100, (m.ms / scale) * 100)}%` }} />
      </span>
      <span class="wf-ms">{formatMs(m.ms)}</span>
    </div>
  );
  return (
    <div
      class="waterfall"
      role="img"
      aria-label={`Milestones: ${main.map((m) => `${m.label} ${formatMs(m.ms)}`).join(', ')}`}
    >
      {main.map(row)}
      {packets.length > 0 ? (
        <details>
          <summary>First packet of each type ({packets.length})</summary>
          {packets.map(row)}
        </details>
      ) : null}
    </div>
  );
}
