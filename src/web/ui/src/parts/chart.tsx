// A uPlot chart that fits its container, with the same numbers as a table for keyboard and screen-reader
// users (a canvas says nothing to them).
import 'uplot/dist/uPlot.min.css';

import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import uPlot from 'uplot';

export interface ChartProps {
  /** What the chart shows, for the figure caption and the canvas's accessible name. */
  title: string;
  build: (width: number) => uPlot.Options;
  data: uPlot.AlignedData;
  /** The data table behind the chart. */
  table: ComponentChildren;
  note?: string;
}

export function Chart(props: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const target = box.current;
    if (target === null) return;
    const width = () => Math.max(280, target.clientWidth);
    const plot = new uPlot(props.build(width()), props.data, target);
    const observer = new ResizeObserver(() =>
      plot.setSize({ width: width(), height: plot.height }),
    );
    observer.observe(target);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [props.build, props.data]);
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      <div ref={box} role="img" aria-label={props.title} />
      {props.note === undefined ? null : <p class="note">{props.note}</p>}
      <details>
        <summary>Show the numbers</summary>
        {props.table}
      </details>
    </figure>
  );
}

/** Colours of the origin classes, from most to least trusted. */
export const ORIGIN_COLOURS: Record<string, string> = {
  user: '#2f6f4f',
  agent: '#3f7fbf',
  local_edit: '#6a5acd',
  local_read: '#b8860b',
  local_exec: '#cd853f',
  agent_tainted: '#c0392b',
  network: '#d35400',
  unknown: '#7f8c8d',
};

export function colourOf(key: string, index: number): string {
  const fallback = ['#1abc9c', '#8e44ad', '#34495e', '#16a085', '#e67e22'];
  return ORIGIN_COLOURS[key] ?? fallback[index % fallback.length] ?? '#555';
}

/** Day keys (YYYY-MM-DD) to uPlot's x values: seconds at noon UTC, so a day never rounds into the next. */
export function dayToX(day: string): number {
  return Date.parse(`${day}T12:00:00Z`) / 1000;
}

/** Every day from `since` for `days` days, as YYYY-MM-DD. */
export function dayRange(since: string, days: number): string[] {
  const start = Date.parse(`${since}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) =>
    new Date(start + i * 86_400_000).toISOString().slice(0, 10),
  );
}

export interface BarSeries {
  label: string;
  colour: string;
  values: number[];
}

/**
 * Stacked bars per day: series i is drawn as the sum of series 0..i, tallest first, so each shorter one
 * covers the bottom of the one before (the first series sits at the bottom); the legend and the tables
 * show each series' own numbers.
 */
export function stackedBars(
  days: string[],
  series: BarSeries[],
  yLabel: string,
): { data: uPlot.AlignedData; build: (width: number) => uPlot.Options } {
  // An empty day draws nothing (null) rather than a hairline at zero.
  const stacked = series.map((_, i) =>
    days.map((_day, d) => {
      const sum = series.slice(0, i + 1).reduce((total, s) => total + (s.values[d] ?? 0), 0);
      return sum === 0 ? null : sum;
    }),
  );
  const order = series.map((_, i) => i).reverse();
  return {
    data: [days.map(dayToX), ...order.map((i) => stacked[i] ?? [])],
    build: (width) => ({
      width,
      height: 240,
      series: [
        {
          label: 'Day',
          value: (_u: uPlot, v: number | null) =>
            v === null ? '–' : new Date(v * 1000).toISOString().slice(0, 10),
        },
        ...order.map((i) => {
          const s = series[i]!;
          return {
            label: s.label,
            stroke: s.colour,
            fill: s.colour,
            paths: uPlot.paths.bars!({ size: [0.7, 40] }),
            points: { show: false },
            value: (_u: uPlot, _v: number | null, _si: number, idx: number | null) =>
              idx === null ? '–' : String(s.values[idx] ?? 0),
          };
        }),
      ],
      axes: [{}, { label: yLabel, size: 60 }],
      scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    }),
  };
}

/** Stacked bars per day with the same numbers as a table (one column per series). */
export function StackedDayChart(props: {
  title: string;
  note?: string;
  days: string[];
  series: BarSeries[];
  yLabel: string;
}) {
  const { days, series } = props;
  const chart = useMemo(
    () => stackedBars(days, series, props.yLabel),
    [days, series, props.yLabel],
  );
  return (
    <Chart
      title={props.title}
      {...(props.note === undefined ? {} : { note: props.note })}
      build={chart.build}
      data={chart.data}
      table={
        <table>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {series.map((s) => (
                <th key={s.label} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day, i) => (
              <tr key={day}>
                <th scope="row">{day}</th>
                {series.map((s) => (
                  <td key={s.label}>{s.values[i] ?? 0}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}
