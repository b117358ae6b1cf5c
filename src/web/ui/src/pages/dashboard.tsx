import { useMemo } from 'preact/hooks';
import uPlot from 'uplot';

import { apiPath } from '../api.js';
import { Chart, colourOf, dayRange, StackedDayChart } from '../parts/chart.js';
import { heatLabel, labelStep } from '../parts/chart-labels.js';
import { count } from '../parts/format.js';
import { useApi } from '../parts/use-api.js';
import { href } from '../router.js';
import type { Dashboard as DashboardData } from '../types.js';
import { Await } from './problem.js';

const DAY_OPTIONS = [7, 30, 90];

export function Dashboard({ project, days }: { project: string | null; days: number }) {
  const loaded = useApi<DashboardData>(apiPath('dashboard', { project, days }));
  return (
    <section aria-labelledby="page-title">
      <div class="page-head">
        <h1 id="page-title" tabIndex={-1}>
          Dashboard
        </h1>
        <nav class="segmented" aria-label="Time window">
          {DAY_OPTIONS.map((n) => (
            <a key={n} href={href('/', { days: n })} aria-current={n === days ? 'true' : undefined}>
              {n} days
            </a>
          ))}
        </nav>
      </div>
      <Await loaded={loaded}>{(data) => <DashboardBody data={data} />}</Await>
    </section>
  );
}

function DashboardBody({ data }: { data: DashboardData }) {
  const origins = data.byOrigin.map((g) => g.key ?? 'none');
  return (
    <>
      <ul class="tiles">
        <li>
          <strong>{data.totals.memories.toLocaleString()}</strong> memories
          {data.project === null ? ' in all projects' : ' in this project (with global ones)'}
        </li>
        <li>
          <a href={href('/review')}>
            <strong>{data.totals.pending.toLocaleString()}</strong> awaiting review
          </a>
        </li>
        {data.byOrigin.slice(0, 4).map((g) => (
          <li key={g.key}>
            <strong>{g.count.toLocaleString()}</strong> {g.key ?? 'none'}
          </li>
        ))}
      </ul>
      <div class="charts">
        <OriginsChart data={data} origins={origins} />
        <CapturesChart data={data} />
        <HeatChart data={data} />
      </div>
    </>
  );
}

function OriginsChart({ data, origins }: { data: DashboardData; origins: string[] }) {
  const days = useMemo(() => dayRange(data.since, data.days), [data]);
  const series = useMemo(() => {
    const keys = [...new Set(data.originsOverTime.map((r) => r.key ?? 'none'))].sort(
      (a, b) => origins.indexOf(a) - origins.indexOf(b),
    );
    const table = new Map(
      data.originsOverTime.map((r) => [`${r.key ?? 'none'} ${r.day}`, r.count]),
    );
    return keys.map((key) => ({ key, values: days.map((day) => table.get(`${key} ${day}`) ?? 0) }));
  }, [data, days, origins]);
  const bars = useMemo(
    () => series.map((s, i) => ({ label: s.key, colour: colourOf(s.key, i), values: s.values })),
    [series],
  );
  return (
    <StackedDayChart
      title={`Memories by origin, per day of creation (last ${data.days} days)`}
      days={days}
      series={bars}
      yLabel="memories per day"
    />
  );
}

const CAPTURE_SERIES = [
  { key: 'stored', label: 'stored', colour: '#2f6f4f' },
  { key: 'merged', label: 'merged into an existing memory', colour: '#3f7fbf' },
  { key: 'skipped', label: 'skipped by the capture policy', colour: '#b0b7bf' },
  { key: 'rejected', label: 'refused by the write gate', colour: '#c0392b' },
] as const;

function CapturesChart({ data }: { data: DashboardData }) {
  const days = useMemo(() => dayRange(data.since, data.days), [data]);
  const byDay = useMemo(() => new Map(data.captures.days.map((d) => [d.day, d])), [data]);
  const bars = useMemo(
    () =>
      CAPTURE_SERIES.map((s) => ({
        label: s.label,
        colour: s.colour,
        values: days.map((day) => byDay.get(day)?.[s.key] ?? 0),
      })),
    [days, byDay],
  );
  return (
    <StackedDayChart
      title={`Captures stored against skipped, per day (last ${data.days} days)`}
      {...(data.captures.perProject
        ? {}
        : { note: 'Capture counters cover the whole store, not one project.' })}
      days={days}
      series={bars}
      yLabel="events per day"
    />
  );
}

function HeatChart({ data }: { data: DashboardData }) {
  const labels = useMemo(
    () => data.heat.buckets.map((b, i) => heatLabel(b, i, data.heat.buckets.length)),
    [data],
  );
  const plotData = useMemo<uPlot.AlignedData>(
    () => [
      data.heat.buckets.map((_, i) => i),
      data.heat.buckets.map((b) => (b.count === 0 ? null : b.count)),
    ],
    [data],
  );
  const build = useMemo(
    () =>
      (width: number): uPlot.Options => ({
        width,
        height: 240,
        scales: {
          x: { time: false, range: [-0.6, labels.length - 0.4] },
          y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
        },
        series: [
          { label: 'heat', value: (_u, v) => labels[v] ?? '' },
          {
            label: 'memories',
            stroke: '#c0392b',
            fill: '#e74c3c99',
            paths: uPlot.paths.bars!({ size: [0.7, 80] }),
            points: { show: false },
          },
        ],
        axes: [
          {
            label: 'heat now (0 cold, 10 hottest)',
            splits: () => labels.map((_, i) => i),
            // Short range labels, and only every n-th one when the chart is too narrow for all of them.
            values: (_u, splits) => {
              const every = labelStep(labels, width);
              return splits.map((i) => (i % every === 0 ? (labels[i] ?? '') : ''));
            },
            size: 48,
          },
          { label: 'memories', size: 60 },
        ],
        legend: { show: false },
      }),
    [labels],
  );
  return (
    <Chart
      title="Heat distribution: how much memories have been used lately"
      note={`${count(data.heat.warm, 'memory')} used at least once; the rest are cold.`}
      build={build}
      data={plotData}
      table={
        <table>
          <thead>
            <tr>
              <th scope="col">Heat</th>
              <th scope="col">Memories</th>
            </tr>
          </thead>
          <tbody>
            {data.heat.buckets.map((b, i) => (
              <tr key={b.from}>
                <th scope="row">{labels[i]}</th>
                <td>{b.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}
