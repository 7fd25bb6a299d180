/**
 * @module viewer/ui/Expectations
 * The question page's "Expected documents" panel of the served viewer: per run that has them, the
 * candidates `chatbench draft-expectations` found (title, link, sets that cited it), each accepted
 * or rejected by a person (saved to the run's expectations.jsonl), and the link that downloads the
 * run's completed dataset CSV.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Candidate } from '../../dataset/expectation-candidates.js';
import type { DecisionKind } from '../../dataset/expectation-decisions.js';
import type { ViewData, ViewExpectations } from '../view-data.js';
import type { DataSource } from './api.js';

/** Only a web link is made a link: a service's document link may be anything. */
const webLink = (link: string | null): string | null => (link !== null && /^https?:\/\//i.test(link) ? link : null);

/** One candidate: its title, id and link, the sets that cited it, and its Accept / Reject buttons. */
function CandidateRow(props: {
  candidate: Candidate;
  proposed: boolean;
  decision: DecisionKind | undefined;
  onDecide: (decision: DecisionKind) => void;
}) {
  const c = props.candidate;
  const link = webLink(c.link);
  return (
    <tr data-document={c.document_id} class={props.decision ?? 'undecided'}>
      <td>
        <div>{c.title ?? <span class="muted">(no title)</span>}</div>
        <code>{c.document_id}</code>
        {props.proposed ? (
          <span class="tag" title="what the draft proposed">
            proposed
          </span>
        ) : null}
        {link ? (
          <div class="link">
            <a href={link} target="_blank" rel="noopener noreferrer">
              {link}
            </a>
          </div>
        ) : null}
      </td>
      <td class="num">{c.sets_cited}</td>
      <td class="decide">
        <button type="button" aria-pressed={props.decision === 'accept'} onClick={() => props.onDecide('accept')}>
          Accept
        </button>
        <button type="button" aria-pressed={props.decision === 'reject'} onClick={() => props.onDecide('reject')}>
          Reject
        </button>
      </td>
    </tr>
  );
}

function RunCandidates(props: {
  entry: ViewExpectations;
  runName: string | null;
  exportUrl: string;
  onDecide: (document: string, decision: DecisionKind) => Promise<void>;
}) {
  const { question, decisions } = props.entry;
  const [failure, setFailure] = useState<string | null>(null);
  const decide = (document: string, decision: DecisionKind) => {
    setFailure(null);
    props.onDecide(document, decision).catch((error: Error) => setFailure(error.message));
  };
  const accepted = question.candidates.filter((c) => decisions[c.document_id] === 'accept').length;
  return (
    <div class="run-candidates">
      {props.runName ? <h4>{props.runName}</h4> : null}
      {question.expected.length > 0 ? (
        <p class="muted">The dataset expects documents here already: they are kept as they are.</p>
      ) : question.candidates.length === 0 ? (
        <p class="muted">No answer of this run cited or was given a document: no candidate.</p>
      ) : (
        <table class="candidates">
          <thead>
            <tr>
              <th>document</th>
              <th>sets cited</th>
              <th>decision</th>
            </tr>
          </thead>
          <tbody>
            {question.candidates.map((c) => (
              <CandidateRow
                key={c.document_id}
                candidate={c}
                proposed={question.proposed.includes(c.document_id)}
                decision={decisions[c.document_id]}
                onDecide={(decision) => decide(c.document_id, decision)}
              />
            ))}
          </tbody>
        </table>
      )}
      {failure ? <p class="error">Not saved: {failure}</p> : null}
      <p>
        <a href={props.exportUrl} download="expectations.csv" class="export">
          Export the completed CSV
        </a>{' '}
        <span class="muted">
          ({question.expected.length > 0 ? '' : `${accepted} accepted here; `}the dataset with every question's
          decisions, as of now)
        </span>
      </p>
    </div>
  );
}

export function ExpectationsPanel(props: { id: string; data: ViewData; source: DataSource }) {
  const api = props.source.expectations;
  const [list, setList] = useState<ViewExpectations[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setList([]);
    setFailure(null);
    api?.of(props.id).then(
      (l) => live && setList(l),
      (error: Error) => live && setFailure(error.message),
    );
    return () => {
      live = false;
    };
  }, [props.id, api]);
  if (api === undefined) return null;
  if (failure) return <p class="error">Could not load the candidate expected documents: {failure}</p>;
  if (list.length === 0) return null;
  const decide = async (entry: ViewExpectations, document: string, decision: DecisionKind) => {
    await api.save({ run: entry.run, question_id: props.id, document_id: document, decision });
    setList((l) => l.map((e) => (e === entry ? { ...e, decisions: { ...e.decisions, [document]: decision } } : e)));
  };
  return (
    <section class="expectations" aria-label="Expected documents">
      <h3>Expected documents</h3>
      <p class="note">
        The documents the answers cited or were given (chatbench draft-expectations), most sets first. Accept the ones
        this question is about; the exported CSV sets its expected_documents to the accepted ones.
      </p>
      {list.map((entry) => (
        <RunCandidates
          key={entry.run}
          entry={entry}
          runName={props.data.runs.length > 1 ? (props.data.runs[entry.run]?.name ?? null) : null}
          exportUrl={api.exportUrl(entry.run)}
          onDecide={(document, decision) => decide(entry, document, decision)}
        />
      ))}
    </section>
  );
}
