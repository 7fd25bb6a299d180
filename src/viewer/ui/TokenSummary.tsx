/**
 * @module viewer/ui/TokenSummary
 * The overview's "Tokens per set" block: a row per column with its output tokens and output tokens
 * per second (medians), TPOT per token (p50) and ITL (p50, p99), as the run's summary has them
 * (viewer/ui/token-summary). Absent when no column has a token figure.
 */
import type { ViewData } from '../view-data.js';
import { tokenSummaries, tokenSummaryCells } from './token-summary.js';

const HEADERS = ['output tokens, median', 'output tokens/s, median', 'TPOT per token, p50', 'ITL p50', 'ITL p99'];

export function TokenSummaryBlock(props: { data: Pick<ViewData, 'figures' | 'columns'> }) {
  const rows = tokenSummaries(props.data);
  if (rows.length === 0) return null;
  return (
    <section class="token-summary" data-block="token-summary">
      <h3>Tokens per set</h3>
      <div class="table-box">
        <table>
          <thead>
            <tr>
              <th scope="col">set</th>
              {HEADERS.map((h) => (
                <th scope="col" key={h}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const c = tokenSummaryCells(r);
              return (
                <tr key={r.column} data-column={r.label}>
                  <th scope="row">
                    {r.label}
                    <div class="sub">
                      {r.answers ?? 0} answers{r.gaps === null ? '' : ` · ${r.gaps} gaps`}
                    </div>
                  </th>
                  <td>{c.output_tokens}</td>
                  <td>{c.output_tokens_per_s}</td>
                  <td>{c.tpot_per_token_ms}</td>
                  <td>{c.itl_p50_ms}</td>
                  <td>{c.itl_p99_ms}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p class="note">
        The run summary's figures (summary.json): over ok answers whose text was counted whole; the ITL pools every gap
        between answer deltas. Definitions: docs/tokens.md.
      </p>
    </section>
  );
}
