/**
 * @module viewer/ui/dashboard/Chart
 * A line chart of the dashboard as inline SVG (no chart library, nothing fetched): a few series
 * over the run's seconds, the y axis from 0 to the highest value shown.
 */
export interface Line {
  readonly label: string;
  readonly color: string;
  /** null: no value at that point (a gap). */
  readonly values: ReadonlyArray<number | null>;
  readonly dashed?: boolean;
}

const W = 520;
const H = 180;
const PAD = { left: 48, right: 8, top: 8, bottom: 22 };

/** 1, 2, 5 × 10^n at or above `v`: a round top for the axis. */
function niceTop(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 5, 10].find((m) => m * p >= v) ?? 10) * p;
}

const short = (v: number) => (v >= 1000 ? `${Number((v / 1000).toPrecision(3))}k` : String(Number(v.toPrecision(3))));

export function Chart(props: { title: string; unit: string; times: readonly number[]; lines: readonly Line[] }) {
  const { times, lines } = props;
  const max = niceTop(Math.max(0, ...lines.flatMap((l) => l.values.filter((v): v is number => v !== null))));
  const t0 = times[0] ?? 0;
  const t1 = Math.max(t0 + 1, times[times.length - 1] ?? 1);
  const x = (t: number) => PAD.left + ((t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right);
  const y = (v: number) => H - PAD.bottom - (v / max) * (H - PAD.top - PAD.bottom);
  const path = (values: ReadonlyArray<number | null>) => {
    let d = '';
    let pen = false;
    values.forEach((v, i) => {
      if (v === null) return void (pen = false);
      d += `${pen ? 'L' : 'M'}${x(times[i]!).toFixed(1)},${y(v).toFixed(1)}`;
      pen = true;
    });
    return d;
  };
  return (
    <figure class="chart" data-chart={props.title}>
      <figcaption>
        {props.title} <span class="muted">({props.unit})</span>
        {lines.map((l) => (
          <span class="key" key={l.label}>
            <i style={{ background: l.color }} />
            {l.label}
          </span>
        ))}
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={props.title}>
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(f * max)} y2={y(f * max)} class="grid" />
            <text x={PAD.left - 4} y={y(f * max) + 4} text-anchor="end">
              {short(f * max)}
            </text>
          </g>
        ))}
        <text x={PAD.left} y={H - 4}>{`${Math.round(t0)} s`}</text>
        <text x={W - PAD.right} y={H - 4} text-anchor="end">{`${Math.round(t1)} s`}</text>
        {lines.map((l) => (
          <path
            key={l.label}
            d={path(l.values)}
            fill="none"
            stroke={l.color}
            stroke-width="1.8"
            stroke-dasharray={l.dashed ? '4 3' : undefined}
          />
        ))}
      </svg>
    </figure>
  );
}
