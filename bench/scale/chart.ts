/**
 * The SVG chart of `bench:scale`: recall latency (p50 solid, p95 dashed) against store size on a log
 * scale, one colour per step and path. Plain SVG text, so the chart is reviewable in a diff.
 */
interface Point {
  size: number;
  path: string;
  steps: Record<string, { p50: number; p95: number }>;
}

const WIDTH = 760;
const HEIGHT = 420;
const MARGIN = { left: 64, right: 250, top: 40, bottom: 56 };
const COLOURS = ['#1b6ca8', '#d1495b', '#2a9d8f', '#8e5ea2', '#e9a03b'];

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function scaleChart(points: readonly Point[], machine: string): string {
  const series = new Map<string, { size: number; p50: number; p95: number }[]>();
  for (const point of points) {
    for (const [step, t] of Object.entries(point.steps)) {
      // The baseline is the same query on both stores: chart it once, from the lexical store.
      if (step.startsWith('baseline') && point.path !== 'lexical') continue;
      const name = step.startsWith('baseline') ? step : `${step} [${point.path}]`;
      const line = series.get(name) ?? [];
      line.push({ size: point.size, ...t });
      series.set(name, line);
    }
  }
  const sizes = points.map((p) => p.size);
  const minX = Math.log10(Math.min(...sizes));
  const maxX = Math.log10(Math.max(...sizes));
  const maxY = Math.max(1, ...[...series.values()].flat().map((v) => v.p95)) * 1.1;
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (size: number) =>
    MARGIN.left + (maxX === minX ? plotW / 2 : ((Math.log10(size) - minX) / (maxX - minX)) * plotW);
  const y = (msValue: number) =>
    Math.round((MARGIN.top + plotH - (msValue / maxY) * plotH) * 10) / 10;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${MARGIN.left}" y="22" font-size="14" font-weight="bold">mnemo recall latency against store size (SQLite, warm, limit 10)</text>`,
    `<line x1="${MARGIN.left}" y1="${MARGIN.top + plotH}" x2="${MARGIN.left + plotW}" y2="${MARGIN.top + plotH}" stroke="black"/>`,
    `<line x1="${MARGIN.left}" y1="${MARGIN.top}" x2="${MARGIN.left}" y2="${MARGIN.top + plotH}" stroke="black"/>`,
  ];
  for (const size of [...new Set(sizes)]) {
    out.push(
      `<text x="${x(size)}" y="${MARGIN.top + plotH + 18}" text-anchor="middle">${size.toLocaleString('en')}</text>`,
    );
  }
  for (let i = 0; i <= 5; i += 1) {
    const v = (maxY / 5) * i;
    out.push(
      `<line x1="${MARGIN.left}" y1="${y(v)}" x2="${MARGIN.left + plotW}" y2="${y(v)}" stroke="#ddd"/>`,
      `<text x="${MARGIN.left - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(maxY < 20 ? 1 : 0)}</text>`,
    );
  }
  out.push(
    `<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 16}" text-anchor="middle">memories in the store (log scale)</text>`,
    `<text x="16" y="${MARGIN.top + plotH / 2}" transform="rotate(-90 16 ${MARGIN.top + plotH / 2})" text-anchor="middle">ms</text>`,
  );
  [...series.entries()].forEach(([name, line], index) => {
    const colour = COLOURS[index % COLOURS.length];
    for (const [key, dash] of [
      ['p50', ''],
      ['p95', ' stroke-dasharray="5 4"'],
    ] as const) {
      const d = line.map(
        (v, i) => `${i === 0 ? 'M' : 'L'}${x(v.size).toFixed(1)},${y(v[key]).toFixed(1)}`,
      );
      out.push(`<path d="${d.join(' ')}" fill="none" stroke="${colour}" stroke-width="2"${dash}/>`);
    }
    const ly = MARGIN.top + 10 + index * 34;
    const [label, path] = name.split(' [');
    const store =
      path === undefined ? 'same query, lexical store' : `store: ${path.replace(']', '')}`;
    out.push(
      `<line x1="${WIDTH - MARGIN.right + 14}" y1="${ly}" x2="${WIDTH - MARGIN.right + 34}" y2="${ly}" stroke="${colour}" stroke-width="2"/>`,
      `<text x="${WIDTH - MARGIN.right + 40}" y="${ly + 4}">${escape(label ?? name)}</text>`,
      `<text x="${WIDTH - MARGIN.right + 40}" y="${ly + 18}" fill="#555">${escape(store)}</text>`,
    );
  });
  out.push(
    `<text x="${WIDTH - MARGIN.right + 14}" y="${HEIGHT - 60}" fill="#555">solid: p50, dashed: p95</text>`,
    `<text x="${MARGIN.left}" y="${HEIGHT - 2}" fill="#777" font-size="10">${escape(machine)}</text>`,
    '</svg>',
    '',
  );
  return out.join('\n');
}
