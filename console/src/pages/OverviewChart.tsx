// The overview's chart: one line per metric over the days, plain SVG (no chart library: six series
// of at most 90 points need no more, and the page's table is the accessible reading of it).
import type { DayStats, Metric } from './OverviewTypes';

const WIDTH = 720;
const HEIGHT = 260;
const PAD = { left: 44, right: 12, top: 30, bottom: 28 };

const METRIC_COLORS: Record<Metric, string> = {
  sent: '#2457c5',
  delivered: '#15803d',
  bounced: '#b91c1c',
  complained: '#c2410c',
  opened: '#7c3aed',
  clicked: '#0e7490',
};

/** A round upper bound for the axis whose half is a whole number too: 2, 4 or 10 times a power of ten. */
function niceMax(value: number): number {
  if (value <= 2) return 2;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([2, 4, 10].find((m) => m * power >= value) ?? 20) * power;
}

export function OverviewChart({ days, metrics, labels }: { days: DayStats[]; metrics: Metric[]; labels: Record<Metric, string> }) {
  const top = niceMax(Math.max(0, ...days.flatMap((d) => metrics.map((m) => d[m]))));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (days.length === 1 ? plotW / 2 : (i / (days.length - 1)) * plotW);
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const labelEvery = Math.ceil(days.length / 8);
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="chart" role="img" aria-label={`Emails per day, ${days[0]?.date} to ${days[days.length - 1]?.date}; the table below has the numbers`}>
      {[0, 0.5, 1].map((f) => (
        <g key={f}>
          <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(top * f)} y2={y(top * f)} className="grid" />
          <text x={PAD.left - 6} y={y(top * f) + 4} textAnchor="end" className="axis">
            {top * f}
          </text>
        </g>
      ))}
      {days.map((d, i) =>
        i % labelEvery === 0 ? (
          <text key={d.date} x={x(i)} y={HEIGHT - 8} textAnchor="middle" className="axis">
            {d.date.slice(5)}
          </text>
        ) : null,
      )}
      {metrics.map((m, i) => (
        <g key={`legend-${m}`} transform={`translate(${PAD.left + i * 110}, 10)`}>
          <line x1={0} x2={16} y1={0} y2={0} stroke={METRIC_COLORS[m]} strokeWidth={3} />
          <text x={22} y={4} className="axis">
            {labels[m]}
          </text>
        </g>
      ))}
      {metrics.map((m) => (
        <polyline key={m} fill="none" stroke={METRIC_COLORS[m]} strokeWidth={2} points={days.map((d, i) => `${x(i)},${y(d[m])}`).join(' ')} />
      ))}
    </svg>
  );
}
