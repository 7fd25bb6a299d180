/**
 * @module metrics/banner
 * The lines every report of a run opens with, before any figure (terminal, report.md, report.html,
 * summary.json): a run where requests failed must never look green, and a run whose generator was
 * too busy to time well must say how late its timings may be. Pure; every outcome class is named
 * as it is, so a class added to the record needs nothing here.
 */
import { LOOP_DELAY_WARN_MS, type LoopDelay } from '../records/generator-health.js';
import { OUTCOMES } from '../records/record.js';

/**
 * "12 of 75 requests failed (16%): 10 http_error, 2 timeout. …"; null when every request ended ok
 * (or there were none). Classes in the record's order, then any other class by name. A `skipped`
 * turn (nothing was sent: its conversation ended at an earlier turn) is no failure of its own: it
 * is counted in a sentence of its own; so is an `abandoned` request (`load --abandon`: the client
 * closed it on purpose, as a user leaving).
 */
export function failureBanner(requests: number, outcomes: Readonly<Record<string, number>>): string | null {
  const known: readonly string[] = OUTCOMES;
  const classes = [
    ...known,
    ...Object.keys(outcomes)
      .filter((o) => !known.includes(o))
      .sort(),
  ].filter((o) => o !== 'ok' && o !== 'skipped' && o !== 'abandoned' && (outcomes[o] ?? 0) > 0);
  const failed = classes.reduce((sum, o) => sum + (outcomes[o] ?? 0), 0);
  const skipped = outcomes['skipped'] ?? 0;
  const abandoned = outcomes['abandoned'] ?? 0;
  if (requests <= 0 || failed + skipped + abandoned === 0) return null;
  const share = (failed / requests) * 100;
  const pct = share > 0 && share < 1 ? '<1' : String(Math.round(share));
  const ok = requests - failed - skipped - abandoned;
  const tail =
    ok === 0
      ? 'No request ended ok: there are no latencies and no scores.'
      : `Latencies and scores describe the ${ok} that ended ok.`;
  const skips =
    skipped > 0
      ? `${skipped} conversation turn${skipped === 1 ? ' was' : 's were'} skipped (nothing sent: an earlier turn failed or the run ended). `
      : '';
  const failures =
    failed > 0
      ? `${failed} of ${requests} requests failed (${pct}%): ${classes.map((o) => `${outcomes[o]} ${o}`).join(', ')}. `
      : '';
  const left =
    abandoned > 0
      ? `${abandoned} request${abandoned === 1 ? ' was' : 's were'} abandoned by the client on purpose (--abandon: users leaving; not failures). `
      : '';
  return `${failures}${skips}${left}${tail}`;
}

/** "Timings may be late by up to 23.1 ms: …" when the loop delay's max exceeded LOOP_DELAY_WARN_MS; else null. */
export function timingBanner(loop: LoopDelay | null | undefined): string | null {
  if (loop === null || loop === undefined || !(loop.max > LOOP_DELAY_WARN_MS)) return null;
  return `Timings may be late by up to ${formatDelay(loop.max)} ms: the generator was busy (its event-loop delay reached p99 ${formatDelay(loop.p99)} ms, max ${formatDelay(loop.max)} ms, over ${LOOP_DELAY_WARN_MS} ms).`;
}

/** The timing uncertainty in words, for the reports' notes: "event-loop delay p99 1.2 ms, max 3.4 ms". */
export function timingNote(loop: LoopDelay | null | undefined): string {
  if (loop === null || loop === undefined) return 'timing uncertainty not measured';
  return `timing uncertainty: the generator's event-loop delay was p99 ${formatDelay(loop.p99)} ms, max ${formatDelay(loop.max)} ms`;
}

const formatDelay = (ms: number) => (ms < 10 ? ms.toFixed(1) : String(Math.round(ms)));

/** Past this share of its asks without a verdict, the judge's figures are not a result: the banner says so (and the default gate, `--max-judge-error-rate`, fails the run). */
export const JUDGE_ERROR_WARN_RATE = 0.1;

/**
 * "The judge gave no verdict on 25 of 25 asks (100%): …" when more than JUDGE_ERROR_WARN_RATE of
 * its asks ended without one; else null (and null without a judge).
 */
export function judgeBanner(judge: { judge_asks: number; judge_failed_asks: number }): string | null {
  const { judge_asks: asks, judge_failed_asks: failed } = judge;
  if (asks === 0 || !(failed / asks > JUDGE_ERROR_WARN_RATE)) return null;
  return `The judge gave no verdict on ${failed} of ${asks} asks (${Math.round((failed / asks) * 100)}%, judge_error_rate): the judged figures rest on the rest, or on nothing.`;
}

/**
 * Questions that expect nothing pass whatever they are answered: their answers are not checked and
 * left out of pass_rate, which is "not checked" when no question expects anything. Said once per run.
 */
export function uncheckedBanner(unchecked: number, questions: number): string | null {
  if (unchecked === 0) return null;
  const which =
    unchecked === questions
      ? `None of the ${questions} questions expects`
      : `${unchecked} of ${questions} questions expect`;
  return `${which} anything (no expected_documents, phrase, pattern, expect_no_answer or tool): their answers are not checked and left out of the pass rate. chatbench draft-expectations RUN proposes expected documents from this run.`;
}

/**
 * The banners for a run with these outcomes and this loop delay, failures first; the
 * unknown-protocol alarm (metrics/protocol-alarm.ts), when given, opens them: it says why the
 * failures below may not be the service's.
 */
export function bannerLines(
  requests: number,
  outcomes: Readonly<Record<string, number>>,
  loop: LoopDelay | null | undefined,
  protocol: string | null = null,
): string[] {
  return [protocol, failureBanner(requests, outcomes), timingBanner(loop)].filter(
    (line): line is string => line !== null,
  );
}
