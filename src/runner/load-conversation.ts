/**
 * @module runner/load-conversation
 * One conversation under load (`load --conversations`), played by a virtual user (closed model) or
 * started by an arrival (open model): its turns in order, in one session, all with the token of the
 * first (a session belongs to the user who opened it).
 *
 * Timing, free of coordinated omission: turn 1 is scheduled where the arrival is (open model) or
 * sent at once (closed); every later turn is scheduled at its predecessor's end plus the think time
 * (`--think-time`, drawn per arrival and turn), and sent then. Its `scheduled_offset_ms` is that
 * moment, so `queue_ms` is how late the generator sent it and `response_ms` (done − scheduled) is
 * what the user waited after deciding to ask: a slow turn delays the schedule of the next, as it
 * would a person's.
 *
 * A turn that did not end ok ends its conversation: the later turns are recorded `skipped` with the
 * reason; so are the turns whose time comes after the schedule's end (`endMs`) or once the run is
 * stopping. Every turn of a started conversation has a record.
 */
import { followUpBody } from '../plan/conversation.js';
import type { LoadRequest } from '../plan/load-plan.js';
import { thinkTimeMs, type ThinkTime } from '../plan/think-time.js';
import { nextTurn, skippedRecord } from './conversation-turns.js';
import type { LoadRun } from './load-run.js';
import type { TurnSession } from './to-record.js';
import type { UnscoredRecord } from './unscored-record.js';

export interface ConversationPlay {
  /** The wait between a turn's end and the next; null: none. */
  readonly thinkTime: ThinkTime | null;
  /** Seeds the think times (with the arrival's index and the turn). */
  readonly seed: number;
  /** No turn is sent when its time comes at or after this offset from the schedule's zero; null: none. */
  readonly endMs: number | null;
  /** Wall clock for the started_at of skipped turns (default Date.now). */
  readonly wallClock?: () => number;
}

/** Plays `turns` (one arrival's conversation); turn 1 is scheduled at `scheduledOffsetMs` (null: now). Never rejects. */
export async function playConversation(
  run: LoadRun,
  turns: readonly LoadRequest[],
  scheduledOffsetMs: number | null,
  play: ConversationPlay,
): Promise<void> {
  const wallClock = play.wallClock ?? Date.now;
  const skipRest = (rest: readonly LoadRequest[], reason: string) => {
    for (const request of rest)
      run.skip(
        skippedRecord(request.planned, reason, { offsetMs: run.now() - run.zero, wallClockMs: wallClock() }),
        request.planned,
      );
  };
  let previous: UnscoredRecord | undefined;
  for (const [i, request] of turns.entries()) {
    const step = request.planned.conversation ?? null;
    let scheduled = scheduledOffsetMs;
    let session: TurnSession | undefined = step === null ? undefined : { origin: 'new', chat_session_id: null };
    let sent = request;
    if (previous !== undefined && step !== null) {
      const next = nextTurn(previous, step);
      if (typeof next === 'string') return skipRest(turns.slice(i), next);
      const think =
        play.thinkTime === null ? 0 : thinkTimeMs(play.thinkTime, play.seed, request.planned.index, step.turn);
      scheduled = doneOffset(previous) + think;
      if (play.endMs !== null && scheduled >= play.endMs) {
        return skipRest(
          turns.slice(i),
          `not sent: its time came after the end of the run's schedule (turn ${step.turn} of conversation ${step.id})`,
        );
      }
      await run.sleepUntil(run.zero + scheduled);
      const body = followUpBody(request.planned.body, next);
      sent = { ...request, planned: { ...request.planned, body }, payload: JSON.stringify(body) };
      session = { origin: 'continued', chat_session_id: next.chat_session_id };
    }
    if (run.stopping.aborted) {
      return skipRest(
        turns.slice(i),
        `not sent: the run was stopping${step === null ? '' : ` (turn ${step.turn} of conversation ${step.id})`}`,
      );
    }
    const record = await run.send(sent, scheduled, session, previous?.token_index ?? undefined);
    if (record === undefined) return; // a bug: the run surfaces it
    previous = record;
  }
}

/** When a turn ended, ms after the schedule's zero: scheduled + response (every attempt), else sent + total. */
function doneOffset(record: UnscoredRecord): number {
  if (record.scheduled_offset_ms !== null && record.response_ms !== null)
    return record.scheduled_offset_ms + record.response_ms;
  return record.sent_offset_ms + (record.total_ms ?? 0);
}
