/**
 * Axis labels of the dashboard's charts, kept short and spaced so they never overlap. Pure, so the
 * layout rule is tested without a browser (chart-labels.test.ts).
 */

/** A heat bucket's short label: "cold", "0.25–0.5", "7+". */
export function heatLabel(
  bucket: { from: number; to: number },
  index: number,
  count: number,
): string {
  if (index === 0) return 'cold';
  if (index === count - 1) return `${bucket.from}+`;
  return `${bucket.from}–${bucket.to}`;
}

/** Show every n-th label so no two overlap: about 7 px a character plus a gap, across the plot area. */
export function labelStep(labels: readonly string[], width: number): number {
  const widest = Math.max(1, ...labels.map((l) => l.length)) * 7 + 16;
  const room = Math.max(1, (width - 90) / Math.max(1, labels.length));
  return Math.max(1, Math.ceil(widest / room));
}
