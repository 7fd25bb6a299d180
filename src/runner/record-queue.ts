/**
 * @module runner/record-queue
 * Keeps what is not timing a request off the path between a socket's data and its timestamp. A
 * request's record is ready in the callback (or the microtasks right after it) that delivered its
 * last bytes; scoring, checking, serialising and writing it there would delay every other socket's
 * data waiting in the same turn of the event loop, and with it their timestamps. The queue takes
 * the record and does that work in the loop's check phase (setImmediate), once every I/O callback
 * of the turn has run, a batch at a time.
 *
 * A load run hands its records on in batches a little later (`afterMs(RECORD_BATCH_MS)`): at full
 * 1,000/s a turn ends one or two requests, and scoring and writing them a turn at a time cost the
 * generator 7–13% more CPU per request than the same work done for a batch of 10–50 ms of records
 * at once (each round paired, 12 s runs: docs/benchmarks-log.md, "Session 52"). A record then
 * reaches results.jsonl at the next of its 100 ms flushes: within ~120 ms of its end.
 */

/**
 * How long a load run's finished records wait to be handled together, ms: one turn's pause per
 * batch stays ~1–1.5 ms at 1,000 requests a second (~60 µs a record); at a realistic pace a batch
 * holds a record or none.
 */
export const RECORD_BATCH_MS = 20;

/** A deferral for createRecordQueue: the drain runs `ms` after the first item of a batch came. */
export const afterMs =
  (ms: number) =>
  (drain: () => void): void =>
    void setTimeout(drain, ms);

export interface RecordQueue<T> {
  /** Queues `item`; throws the first error the handler threw (the run then stops at its next record). */
  push(item: T): void;
  /** Handles every queued item now; throws the first error the handler threw. */
  flush(): void;
  /** Items queued and not handled yet. */
  readonly pending: number;
}

/**
 * A queue whose items go to `handle` in the order they came, outside the I/O callbacks. An item
 * whose handling throws does not keep the others from being handled; the first error is kept and
 * thrown by the next push() or flush(). `defer` replaces setImmediate (`afterMs`; tests run it by hand).
 */
export function createRecordQueue<T>(
  handle: (item: T) => void,
  defer: (drain: () => void) => void = setImmediate,
): RecordQueue<T> {
  // Two arrays swapped at each drain: no allocation per batch, and items pushed while a batch is
  // handled (a handler cannot, but a flush() from the run's end can meet a scheduled drain) wait for the next.
  let queued: T[] = [];
  let spare: T[] = [];
  let scheduled = false;
  let failure: { error: unknown } | undefined;

  const drain = () => {
    scheduled = false;
    while (queued.length > 0) {
      const batch = queued;
      queued = spare;
      for (let i = 0; i < batch.length; i++) {
        try {
          handle(batch[i]!);
        } catch (error) {
          failure ??= { error };
        }
      }
      batch.length = 0;
      spare = batch;
    }
  };
  const rethrow = () => {
    if (failure) throw failure.error;
  };

  return {
    push(item) {
      rethrow();
      queued.push(item);
      if (!scheduled) {
        scheduled = true;
        defer(drain);
      }
    },
    flush() {
      drain();
      rethrow();
    },
    get pending() {
      return queued.length;
    },
  };
}
