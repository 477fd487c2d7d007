// A stacked bar chart per day, drawn as SVG built element by element (no
// HTML strings, no inline styles: geometry in attributes, colours from classes
// whose CSS takes VS Code's chart colours). Hidden from screen readers: the
// table drawn with it holds the same numbers.

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 800;
const HEIGHT = 260;
const LEFT = 64;
const RIGHT = 8;
const TOP = 10;
const BOTTOM = 28;

export interface ChartSeries {
  days: string[];
  keys: string[];
  /** values[day][key] */
  values: number[][];
  /** The axis's and the tooltips' number format. */
  axis(n: number): string;
  value(n: number): string;
  dayLabel(day: string): string;
  longDay(day: string): string;
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** A round step (1, 2 or 5 × 10^n) giving at most `ticks` gridlines up to `max`. */
export function niceStep(max: number, ticks = 4): number {
  if (!(max > 0)) return 1;
  const raw = max / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
}

export function stackedChart(series: ChartSeries, label: string): SVGSVGElement {
  const root = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "chart", "aria-hidden": "true", focusable: "false" });
  const totals = series.values.map((v) => v.reduce((s, x) => s + x, 0));
  const max = Math.max(0, ...totals);
  const step = niceStep(max);
  const top = max > 0 ? Math.ceil(max / step) * step : 1;
  const plotW = WIDTH - LEFT - RIGHT;
  const plotH = HEIGHT - TOP - BOTTOM;
  const y = (v: number) => TOP + plotH - (v / top) * plotH;
  const grid = svg("g", { class: "grid" });
  for (let v = 0; v <= top + step / 2; v += step) {
    grid.append(svg("line", { x1: LEFT, x2: WIDTH - RIGHT, y1: y(v), y2: y(v) }));
    const t = svg("text", { x: LEFT - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" });
    t.textContent = series.axis(v);
    grid.append(t);
  }
  root.append(grid);
  const n = series.days.length;
  const slot = n > 0 ? plotW / n : plotW;
  const bar = Math.max(1, slot * (n > 60 ? 0.9 : 0.7));
  const bars = svg("g", { class: "bars" });
  for (let i = 0; i < n; i++) {
    const x = LEFT + i * slot + (slot - bar) / 2;
    let base = 0;
    const values = series.values[i]!;
    for (let k = 0; k < values.length; k++) {
      const v = values[k]!;
      if (v <= 0) continue;
      const y0 = y(base);
      const y1 = y(base + v);
      bars.append(svg("rect", { x, y: y1, width: bar, height: Math.max(0.5, y0 - y1), class: `series series-${k}` }));
      base += v;
    }
    // One hover target per day: its date and each part.
    const hover = svg("rect", { x: LEFT + i * slot, y: TOP, width: slot, height: plotH, class: "hover" });
    const title = svg("title", {});
    const parts = values.map((v, k) => (v > 0 ? `\n${series.keys[k]}: ${series.value(v)}` : "")).join("");
    title.textContent = `${series.longDay(series.days[i]!)}: ${series.value(totals[i]!)}${parts}`;
    hover.append(title);
    bars.append(hover);
  }
  root.append(bars);
  // About six dates along the bottom.
  const every = Math.max(1, Math.ceil(n / 6));
  const labels = svg("g", { class: "axis" });
  for (let i = 0; i < n; i += every) {
    const t = svg("text", { x: LEFT + i * slot + slot / 2, y: HEIGHT - 8, "text-anchor": "middle" });
    t.textContent = series.dayLabel(series.days[i]!);
    labels.append(t);
  }
  root.append(labels);
  root.append(svg("line", { x1: LEFT, x2: WIDTH - RIGHT, y1: y(0), y2: y(0), class: "baseline" }));
  const desc = svg("desc", {});
  desc.textContent = label;
  root.prepend(desc);
  return root;
}
