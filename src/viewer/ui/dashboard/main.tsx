/**
 * @module viewer/ui/dashboard/main
 * `--dashboard`'s page (Preact): reads /api/snapshot from its own server once a second while the
 * run lasts and draws it: rates, TTFT and TTFP quantiles and in flight over time, outcomes,
 * health, capacity steps, and the SLOs and gates as the verdict layer states them (nothing is
 * decided here). Once the snapshot says `done` it shows the final state and stops asking.
 * Bundled by scripts/build-viewer.mjs with the viewer.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { DashboardSnapshot } from '../../dashboard-snapshot.js';
import { Chart } from './Chart.js';
import './dashboard.css';

const POLL_MS = 1000;
const COLORS = {
  offered: '#6e7781',
  sent: '#0969da',
  ok: '#1a7f37',
  rate_limited: '#bf8700',
  errors: '#cf222e',
  p50: '#0969da',
  p95: '#8250df',
  p99: '#cf222e',
};

const fmt = (v: number | null | undefined, digits = 1) =>
  v === null || v === undefined ? '–' : v.toLocaleString('en-US', { maximumFractionDigits: digits });

function Conditions({ s }: { s: DashboardSnapshot }) {
  if (s.conditions.length === 0) return <p class="muted">No SLO or gate set.</p>;
  return (
    <table class="grid-table" data-conditions>
      <tbody>
        {s.conditions.map((c) => (
          <tr key={`${c.kind}:${c.text}`} data-condition-state={c.state}>
            <td>{c.kind === 'slo' ? 'SLO' : 'gate'}</td>
            <td>
              <code>{c.text}</code>
            </td>
            <td class={`state ${c.state}`}>
              {c.state === 'per-step' ? 'judged per step' : c.state === 'pending' ? 'decided at the end' : c.state}
            </td>
            <td class="muted">{c.detail ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Steps({ s }: { s: DashboardSnapshot }) {
  if (s.command !== 'capacity') return null;
  return (
    <section>
      <h2>Capacity steps</h2>
      {s.steps.length === 0 ? (
        <p class="muted">No step decided yet.</p>
      ) : (
        <table class="grid-table" data-steps>
          <thead>
            <tr>
              <th>step</th>
              <th>target</th>
              <th>ok/s</th>
              <th>offered/s</th>
              <th>TTFP p95 ms</th>
              <th />
              <th>why</th>
            </tr>
          </thead>
          <tbody>
            {s.steps.map((st) => (
              <tr key={st.index}>
                <td>
                  {st.index + 1} ({st.phase})
                </td>
                <td>{fmt(st.target)}</td>
                <td>{fmt(st.ok_rate_per_s)}</td>
                <td>{fmt(st.offered_rate)}</td>
                <td>{fmt(st.ttfp_p95_ms, 0)}</td>
                <td class={`state ${st.good ? 'met' : 'broken'}`}>{st.good ? 'good' : 'bad'}</td>
                <td class="muted">{st.reasons.join('; ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Dashboard({ s, lost }: { s: DashboardSnapshot; lost: boolean }) {
  const times = s.points.map((p) => p.t_s);
  const q = (key: 'ttft_ms' | 'ttfp_ms', at: 'p50' | 'p95' | 'p99') => s.points.map((p) => p[key]?.[at] ?? null);
  const last = s.points[s.points.length - 1];
  return (
    <div class="app" data-state={s.state} data-points={s.points.length}>
      <header class="top">
        <h1>chatbench {s.command}</h1>
        <span class={`status ${s.verdict?.status ?? 'running'}`} data-status>
          {s.verdict === null ? `running · ${fmt(s.elapsed_s, 0)} s` : s.verdict.headline}
        </span>
        {lost && <span class="error">the run's server has stopped; this is its last state</span>}
      </header>
      <section class="tiles">
        <div>
          <b data-tile="in-flight">{fmt(s.in_flight, 0)}</b>in flight
        </div>
        <div>
          <b>{fmt(last?.sent)}</b>sent/s
        </div>
        <div>
          <b data-tile="ok">{fmt(s.outcomes.ok ?? 0, 0)}</b>ok
        </div>
        <div>
          <b>{fmt(last?.ttft_ms?.p95, 0)}</b>TTFT p95 ms
        </div>
        {s.health && (
          <div class={s.health.up ? 'up' : 'down'}>
            <b data-tile="health">{s.health.up ? 'up' : 'down'}</b>health {fmt(s.health.ms, 0)} ms · {s.health.failures}
            /{s.health.probes} failed
          </div>
        )}
      </section>
      <section class="charts">
        <Chart
          title="Rates"
          unit="per second"
          times={times}
          lines={(['offered', 'sent', 'ok', 'rate_limited', 'errors'] as const).map((k) => ({
            label: k === 'rate_limited' ? '429' : k,
            color: COLORS[k],
            values: s.points.map((p) => p[k]),
          }))}
        />
        <Chart
          title="TTFT"
          unit="ms, last 5 s"
          times={times}
          lines={(['p50', 'p95', 'p99'] as const).map((k) => ({ label: k, color: COLORS[k], values: q('ttft_ms', k) }))}
        />
        <Chart
          title="TTFP"
          unit="ms, last 5 s"
          times={times}
          lines={(['p50', 'p95', 'p99'] as const).map((k) => ({ label: k, color: COLORS[k], values: q('ttfp_ms', k) }))}
        />
        <Chart
          title="In flight"
          unit="requests"
          times={times}
          lines={[{ label: 'in flight', color: COLORS.sent, values: s.points.map((p) => p.in_flight) }]}
        />
      </section>
      <section class="side">
        <div>
          <h2>Outcomes</h2>
          <table class="grid-table" data-outcomes>
            <tbody>
              {Object.entries(s.outcomes)
                .filter(([, n]) => n > 0)
                .map(([o, n]) => (
                  <tr key={o}>
                    <td>{o}</td>
                    <td class="num">{fmt(n, 0)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
        <div>
          <h2>SLOs and gates</h2>
          <Conditions s={s} />
        </div>
      </section>
      <Steps s={s} />
    </div>
  );
}

function App() {
  const [snapshot, setSnapshot] = useState<DashboardSnapshot | null>(null);
  const [lost, setLost] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = async () => {
      try {
        const response = await fetch('/api/snapshot', { headers: { accept: 'application/json' } });
        if (!response.ok) throw new Error(String(response.status));
        const next = (await response.json()) as DashboardSnapshot;
        setSnapshot(next);
        if (next.state === 'done') return; // the final state: nothing more will change
      } catch {
        setLost(true);
        return;
      }
      if (!stopped) timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
  if (snapshot === null)
    return <p class="loading">{lost ? "The run's server does not answer." : "Waiting for the run's first second…"}</p>;
  return <Dashboard s={snapshot} lost={lost} />;
}

render(<App />, document.getElementById('app')!);
