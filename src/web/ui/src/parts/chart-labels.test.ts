import { describe, expect, it } from 'vitest';

import { heatLabel, labelStep } from './chart-labels.js';

describe('heatLabel', () => {
  it('names the first bucket cold, the last open-ended, the rest as short ranges', () => {
    const buckets = [
      { from: 0, to: 0.25 },
      { from: 0.25, to: 0.5 },
      { from: 7, to: 10 },
    ];
    expect(buckets.map((b, i) => heatLabel(b, i, buckets.length))).toEqual([
      'cold',
      '0.25–0.5',
      '7+',
    ]);
  });
});

describe('labelStep', () => {
  const labels = ['cold', '0.25–0.5', '0.5–1', '1–2', '2–3', '3–5', '5–7', '7+'];

  it('shows every label when the chart is wide enough', () => {
    expect(labelStep(labels, 1200)).toBe(1);
  });

  it('shows every n-th label on a narrow chart so that the shown ones never overlap', () => {
    for (const width of [200, 320, 480, 640]) {
      const every = labelStep(labels, width);
      // Shown labels are `every` slots apart; each slot is the plot width over the label count.
      const slot = (width - 90) / labels.length;
      const widest = Math.max(...labels.map((l) => l.length)) * 7 + 16;
      expect(every * slot).toBeGreaterThanOrEqual(widest);
      expect((every - 1) * slot).toBeLessThan(widest);
    }
  });
});
