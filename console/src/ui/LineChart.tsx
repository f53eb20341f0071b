// A line chart in plain SVG (no chart library: a few series of at most a few hundred points need no
// more). It is a picture: each page that draws one has a table beside it as the accessible reading.

const WIDTH = 720;
const HEIGHT = 260;
const PAD = { left: 44, right: 12, bottom: 28 };
const LEGEND_ROW = 16;
const LEGEND_PER_ROW = 6;
/** A legend entry's width: 110 px in a full row, up to 220 when there are fewer lines (longer names fit). */
const legendWidth = (lines: number) => Math.min(220, Math.max(110, Math.floor((WIDTH - PAD.left - PAD.right) / Math.max(lines, 1))));
/** A name cut to what its legend entry holds (about 6 px a character at 11 px, after the swatch). */
const short = (name: string, width: number) => {
  const fits = Math.floor((width - 30) / 6);
  return name.length > fits ? `${name.slice(0, fits - 1)}…` : name;
};

/** One colour per outcome, the same on every chart. */
export const METRIC_COLORS = {
  sent: '#2457c5',
  delivered: '#15803d',
  bounced: '#b91c1c',
  complained: '#c2410c',
  opened: '#7c3aed',
  clicked: '#0e7490',
  unsubscribed: '#a16207',
} as const;

/** Colours for lines that are not outcomes (campaigns side by side), told apart in order. */
export const PALETTE = ['#2457c5', '#c2410c', '#15803d', '#7c3aed', '#0e7490', '#b91c1c', '#a16207', '#be185d', '#4d7c0f', '#334155'];

export interface ChartLine {
  name: string;
  color: string;
  /** One value per x label from the first; a shorter line ends early. */
  values: number[];
}

/** A round upper bound for the axis whose half is a whole number too: 2, 4 or 10 times a power of ten. */
function niceMax(value: number): number {
  if (value <= 2) return 2;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([2, 4, 10].find((m) => m * power >= value) ?? 20) * power;
}

export function LineChart({ xLabels, lines, label }: { xLabels: string[]; lines: ChartLine[]; label: string }) {
  const top = niceMax(Math.max(0, ...lines.flatMap((l) => l.values)));
  const padTop = 14 + Math.ceil(lines.length / LEGEND_PER_ROW) * LEGEND_ROW;
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - padTop - PAD.bottom;
  const x = (i: number) => PAD.left + (xLabels.length <= 1 ? plotW / 2 : (i / (xLabels.length - 1)) * plotW);
  const y = (v: number) => padTop + plotH - (v / top) * plotH;
  const labelEvery = Math.ceil(xLabels.length / 8);
  const legend = legendWidth(lines.length);
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="chart" role="img" aria-label={label}>
      {[0, 0.5, 1].map((f) => (
        <g key={f}>
          <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(top * f)} y2={y(top * f)} className="grid" />
          <text x={PAD.left - 6} y={y(top * f) + 4} textAnchor="end" className="axis">
            {top * f}
          </text>
        </g>
      ))}
      {xLabels.map((text, i) =>
        i % labelEvery === 0 ? (
          <text key={i} x={x(i)} y={HEIGHT - 8} textAnchor="middle" className="axis">
            {text}
          </text>
        ) : null,
      )}
      {lines.map((l, i) => (
        <g key={`legend-${i}`} transform={`translate(${PAD.left + (i % LEGEND_PER_ROW) * legend}, ${10 + Math.floor(i / LEGEND_PER_ROW) * LEGEND_ROW})`}>
          <line x1={0} x2={16} y1={0} y2={0} stroke={l.color} strokeWidth={3} />
          <text x={22} y={4} className="axis">
            {short(l.name, legend)}
          </text>
        </g>
      ))}
      {lines.map((l, i) =>
        // one point (the first hour of a send) is no line: it is drawn as a dot
        l.values.length === 1 ? (
          <circle key={i} cx={x(0)} cy={y(l.values[0]!)} r={4} fill={l.color} />
        ) : (
          <polyline key={i} fill="none" stroke={l.color} strokeWidth={2} points={l.values.map((v, j) => `${x(j)},${y(v)}`).join(' ')} />
        ),
      )}
    </svg>
  );
}
