import type { ComplianceMonthRow } from '@cc/contracts';
import { useWhitelabel } from '../app/whitelabel';

/** Score bands with the white-label margins (spec 2 §9: green 85-100, amber 65-84, red 0-64 by default). */
export type Band = 'green' | 'amber' | 'red';
export function bandOf(score: number, green: number, amber: number): Band {
  if (score >= green) return 'green';
  if (score >= amber) return 'amber';
  return 'red';
}
const BAND_LABEL: Record<Band, string> = { green: 'good', amber: 'needs attention', red: 'poor' };

export function useBand() {
  const wl = useWhitelabel();
  return (score: number) => {
    const band = bandOf(score, wl.greenScoreBandLowerMargin, wl.amberScoreBandLowerMargin);
    const colour =
      band === 'green'
        ? wl.trafficLightOk
        : band === 'amber'
          ? wl.trafficLightWarning
          : wl.trafficLightDanger;
    return { band, colour, label: BAND_LABEL[band] };
  };
}

/** A score as a bar in its band's traffic-light colour, with the number beside it. */
export function ScoreBar({ score, label }: { score: number; label: string }) {
  const band = useBand()(score);
  return (
    <div className="flex min-w-28 items-center gap-2" data-band={band.band}>
      {/* biome-ignore lint/a11y/useSemanticElements: a native <meter> cannot take the white-label band colour everywhere */}
      <div
        className="h-2.5 flex-1 overflow-hidden rounded-full bg-slate-200"
        role="meter"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={score}
        aria-label={`${label}: ${score}%, ${band.label}`}
      >
        <div
          className="h-full rounded-full"
          style={{ width: `${Math.max(0, Math.min(100, score))}%`, background: band.colour }}
        />
      </div>
      <span className="w-10 text-right text-sm font-semibold tabular-nums text-slate-900">{score}%</span>
    </div>
  );
}

/**
 * The trend of the last months as a small SVG line chart (no chart library): the score of each month, the band
 * margins as dashed guides; a table alternative for screen readers.
 */
export function TrendChart({ months }: { months: ComplianceMonthRow[] }) {
  const wl = useWhitelabel();
  const band = useBand();
  if (months.length === 0)
    return (
      <p className="text-sm text-slate-600">
        No monthly figures yet: the trend starts after the first month end.
      </p>
    );
  const width = 640;
  const height = 200;
  const pad = { left: 36, right: 12, top: 12, bottom: 28 };
  const w = width - pad.left - pad.right;
  const h = height - pad.top - pad.bottom;
  const x = (i: number) => pad.left + (months.length === 1 ? w / 2 : (i * w) / (months.length - 1));
  const y = (score: number) => pad.top + h - (score / 100) * h;
  const points = months.map((m, i) => `${x(i)},${y(m.score)}`).join(' ');
  const label = (m: string) =>
    new Date(`${m}-01T00:00:00Z`).toLocaleDateString('en-GB', { month: 'short', timeZone: 'UTC' });
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto w-full"
        role="img"
        aria-labelledby="trend-title"
      >
        <title id="trend-title">
          Compliance score by month: {months.map((m) => `${m.month} ${m.score}%`).join(', ')}
        </title>
        {[0, 50, 100].map((v) => (
          <g key={v}>
            <line x1={pad.left} x2={width - pad.right} y1={y(v)} y2={y(v)} stroke="#e2e8f0" />
            <text x={pad.left - 6} y={y(v) + 4} textAnchor="end" fontSize="10" fill="#475569">
              {v}%
            </text>
          </g>
        ))}
        {[wl.greenScoreBandLowerMargin, wl.amberScoreBandLowerMargin].map((v) => (
          <line
            key={`m${v}`}
            x1={pad.left}
            x2={width - pad.right}
            y1={y(v)}
            y2={y(v)}
            stroke="#94a3b8"
            strokeDasharray="4 4"
          />
        ))}
        <polyline points={points} fill="none" stroke="var(--cc-primary-600, #0284c7)" strokeWidth="2.5" />
        {months.map((m, i) => (
          <g key={m.month}>
            <circle
              cx={x(i)}
              cy={y(m.score)}
              r="4"
              fill={band(m.score).colour}
              stroke="#fff"
              strokeWidth="1.5"
            />
            <text x={x(i)} y={height - 8} textAnchor="middle" fontSize="10" fill="#475569">
              {label(m.month)}
            </text>
          </g>
        ))}
      </svg>
      <figcaption className="sr-only">
        <table>
          <caption>Monthly compliance</caption>
          <tbody>
            {months.map((m) => (
              <tr key={m.month}>
                <th scope="row">{m.month}</th>
                <td>{m.score}%</td>
              </tr>
            ))}
          </tbody>
        </table>
      </figcaption>
    </figure>
  );
}
