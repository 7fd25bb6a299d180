/**
 * @module cli/interrupt
 * What Ctrl-C (or SIGTERM) does to a run, said on stderr: the first stops scheduling and gives the
 * requests in flight the grace period; the next cancels them at once. Either way the records are
 * written and the reports follow (they take well under a second for a typical run).
 */
import type { Io } from './io.js';

export interface InterruptWatch {
  /** Aborted by the second interrupt: cancel what is in flight now. */
  readonly cancelNow: AbortSignal;
  /** Stops announcing (the run is over). */
  dispose(): void;
}

/** Watches `io`'s interrupts for one run; `grace` is the flag's text, echoed in the message. */
export function watchInterrupts(io: Io, grace: string): InterruptWatch {
  const cancel = new AbortController();
  let active = true;
  const onFirst = () => {
    if (active)
      io.stderr.write(
        `\nchatbench eval: interrupted — no new requests; those in flight have ${grace} to finish (interrupt again to cancel them now)\n`,
      );
  };
  io.signal.addEventListener('abort', onFirst, { once: true });
  io.onSecondInterrupt(() => {
    if (!active || cancel.signal.aborted) return;
    io.stderr.write('chatbench eval: cancelling the requests in flight; writing what was recorded\n');
    cancel.abort();
  });
  return {
    cancelNow: cancel.signal,
    dispose() {
      active = false;
      io.signal.removeEventListener('abort', onFirst);
    },
  };
}
