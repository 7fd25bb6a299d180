/**
 * @module client/join-signals
 * A signal that aborts when the first of its sources does (with that source's reason), for one
 * request, released when the request is done. Node 20's `AbortSignal.any` keeps a WeakRef to every
 * signal it makes in each source's set of dependants and drops them only when that source aborts:
 * a run-wide signal joined once per request held about 60 bytes a request until the process ended
 * (12 MB through a 200,000-request eval and its reports, 60 MB at a million). Here each source is
 * watched through its one shared listener (chat-client watchAbort), and `release` drops the watches.
 */
import { watchAbort } from './chat-client.js';

export interface JoinedSignal {
  readonly signal: AbortSignal;
  /** Stops watching the sources; call it once the request has ended (it does nothing the second time). */
  release(): void;
}

export function joinSignals(sources: readonly AbortSignal[]): JoinedSignal {
  const controller = new AbortController();
  const aborted = sources.find((source) => source.aborted);
  if (aborted !== undefined) {
    controller.abort(aborted.reason);
    return { signal: controller.signal, release: () => {} };
  }
  const stops: Array<() => void> = [];
  const release = () => {
    for (const stop of stops.splice(0)) stop();
  };
  for (const source of sources) {
    stops.push(
      watchAbort(source, () => {
        release();
        controller.abort(source.reason);
      }),
    );
  }
  return { signal: controller.signal, release };
}
