/**
 * @module cli/output/request-line
 * `--verbose`: one line per request as its record is written, on stderr. Printed from the record
 * callback, after the request finished: never on the request's path.
 */
import type { RequestRecord } from '../../records/record.js';
import { formatMs } from '../../reports/format.js';

/** `+12.35s q7|fast|stream|0 ok 200 · TTFP 231 ms · TTFT 402 ms · total 1203 ms · 3 citations`. */
export function requestLine(r: RequestRecord): string {
  const status = r.http_status === null ? '' : ` ${r.http_status}`;
  const figures =
    r.outcome === 'ok'
      ? [
          `TTFP ${formatMs(r.ttfp_ms)}`,
          `TTFT ${formatMs(r.ttft_ms)}`,
          `total ${formatMs(r.total_ms)}`,
          ...(r.response_ms !== null && r.scheduled_offset_ms !== null ? [`response ${formatMs(r.response_ms)}`] : []),
          `${r.cited_document_ids.length} cited`,
        ]
      : [
          r.error_code ?? '',
          r.error_message === null ? '' : JSON.stringify(r.error_message.slice(0, 120)),
          `after ${formatMs(r.total_ms)}`,
        ].filter((f) => f !== '');
  const retries = r.attempts.length > 1 ? ` · ${r.attempts.length} attempts` : '';
  return `+${(r.sent_offset_ms / 1000).toFixed(2)}s ${r.key} ${r.outcome}${status} · ${figures.join(' · ')}${retries}`;
}
