/**
 * A bar per day, drawn by hand as inline SVG. No chart library: the smallest ones add 30–60 KB
 * to a section that needs bars, three labels and a table, and the web UI keeps a byte budget.
 * The numbers are also a visually hidden table, so a screen reader reads every day.
 */
import { plural, shortDay } from "../lib/format";
import "./day-bars.css";

const HEIGHT = 140;
const WIDTH = 600;

/** `unit` is singular ("view"); the sentences say "1 view", "3 views". */
export function DayBars({ days, label, unit }: { days: ReadonlyArray<{ day: string; value: number }>; label: string; unit: string }) {
  const max = Math.max(1, ...days.map((d) => d.value));
  const slot = WIDTH / days.length;
  const gap = days.length > 40 ? 1 : 2;
  const total = days.reduce((sum, d) => sum + d.value, 0);
  const busiest = days.reduce((best, d) => (d.value > best.value ? d : best), days[0]!);
  const summary =
    `${label}: ${plural(total, unit)} in ${days.length} days` +
    `${total ? `, most on ${shortDay(busiest.day)} (${busiest.value.toLocaleString("en")})` : ""}.`;
  const ticks = [days[0]!, days[Math.floor((days.length - 1) / 2)]!, days[days.length - 1]!];
  return (
    <figure className="dash-chart">
      <div className="dash-chart-frame">
        <span className="dash-chart-max" aria-hidden="true">
          {max.toLocaleString("en")}
        </span>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={summary} className="dash-chart-svg">
          <line x1="0" x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} className="dash-chart-axis" />
          <line x1="0" x2={WIDTH} y1="0.5" y2="0.5" className="dash-chart-grid" />
          {days.map((d, i) => {
            const h = d.value ? Math.max(2, (d.value / max) * (HEIGHT - 4)) : 0;
            return (
              <rect key={d.day} x={i * slot + gap / 2} y={HEIGHT - h} width={Math.max(1, slot - gap)} height={h} className="dash-chart-bar">
                <title>{`${shortDay(d.day)}: ${plural(d.value, unit)}`}</title>
              </rect>
            );
          })}
        </svg>
      </div>
      <div className="dash-chart-ticks" aria-hidden="true">
        {ticks.map((t, i) => (
          <span key={i}>{shortDay(t.day)}</span>
        ))}
      </div>
      <table className="visually-hidden">
        <caption>{label}, per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">{`${unit[0]!.toUpperCase()}${unit.slice(1)}s`}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.day}>
              <th scope="row">{d.day}</th>
              <td>{d.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
