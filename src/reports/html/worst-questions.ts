/**
 * @module reports/html/worst-questions
 * report.html's "Worst questions": the same records, in the same order and with the same facts as
 * report.md's section (question, outcome and verdict, expected and cited documents, the answer,
 * the judge's and the checks' reasons), as HTML. Each entry carries `data-question`, `data-set`,
 * `data-mode` and `data-repeat` so a reader (or a test) can match it with report.md's heading.
 */
import type { AnswerFigures, RequestRecord } from '../../records/record.js';
import { answerNotes } from '../answer-notes.js';
import { answerFailReasons, describeOutcome, recordFailReasons, recordPassed } from '../fail-reasons.js';
import { NA, formatScore, trimText } from '../format.js';
import { ANSWER_CHARS } from '../report-md.js';
import { esc } from './svg.js';

export function worstQuestionsHtml(worst: readonly RequestRecord[]): string[] {
  if (worst.length === 0) return [];
  return ['<h2 id="worst-questions">Worst questions</h2>', `<ol class="worst">${worst.map((record, i) => entry(record, i + 1)).join('')}</ol>`];
}

function entry(record: RequestRecord, n: number): string {
  const verdict = recordPassed(record) ? 'passed' : recordFailReasons(record).join('; ');
  const turn = record.conversation === null ? '' : ` · conversation ${record.conversation}, turn ${record.turn ?? '?'}`;
  const data = `data-question="${esc(record.question_id)}" data-set="${esc(record.set)}" data-mode="${record.mode}" data-repeat="${record.repeat}"`;
  const answers = record.models
    ? record.models.map((m) => {
        const reasons = answerFailReasons(m, record.http_status);
        const why = reasons.length > 0 && m.outcome === 'ok' ? `; ${reasons.join('; ')}` : '';
        return `<p class="model"><strong>Model ${esc(m.model_name ?? String(m.model_index))}</strong> (${esc(describeOutcome(m, record.http_status))}${esc(why)})</p>${answer(m)}`;
      })
    : [answer(record)];
  return [
    `<li class="worst-entry" ${data}>`,
    `<h3>${n}. ${esc(record.question_id)} · ${esc(record.set)} (${record.mode}, repeat ${record.repeat})${esc(turn)}</h3>`,
    line('Question', esc(trimText(record.question, ANSWER_CHARS))),
    `<p><strong>Outcome:</strong> ${esc(describeOutcome(record, record.http_status))} · <strong>Verdict:</strong> ${esc(verdict)}</p>`,
    line('Expected documents', ids(record.expected_document_ids)),
    record.reference_answer === null ? '' : line('Reference answer', esc(trimText(record.reference_answer, ANSWER_CHARS))),
    record.rubric === null ? '' : line('Rubric', esc(trimText(record.rubric, ANSWER_CHARS))),
    ...answers,
    '</li>',
  ].join('');
}

function answer(figures: AnswerFigures): string {
  const text = figures.answer === null || figures.answer === '' ? NA : trimText(figures.answer, ANSWER_CHARS);
  const notes = answerNotes(figures);
  return [
    `<p><strong>Cited:</strong> ${ids(figures.cited_document_ids)} · <strong>citation F1:</strong> ${esc(formatScore(figures.scores?.citation_f1))} · <strong>invalid citations:</strong> ${figures.scores?.invalid_citations ?? NA}</p>`,
    `<blockquote class="answer">${esc(text)}</blockquote>`,
    notes.judge.length === 0 ? '' : line('Judge', notes.judge.map((v) => esc(trimText(v, 300))).join(' · ')),
    notes.checks.length === 0 ? '' : line('Checks', notes.checks.map((c) => esc(trimText(c, 300))).join(' · ')),
  ].join('');
}

const line = (label: string, html: string): string => `<p><strong>${label}:</strong> ${html}</p>`;

function ids(list: readonly string[]): string {
  return list.length === 0 ? NA : list.map((id) => `<code>${esc(id)}</code>`).join(', ');
}
