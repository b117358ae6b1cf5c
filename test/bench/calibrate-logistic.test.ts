import { describe, expect, it } from 'vitest';

import { auc, fitLogistic, predict, type Sample } from '../../bench/calibrate/logistic.js';

describe('fitLogistic', () => {
  it('recovers the weights of a known logistic model from its samples', () => {
    // y = 1 with probability σ(-2 + 4·x0 - 1·x1), sampled on a grid with exact expected counts.
    const samples: Sample[] = [];
    for (let a = 0; a <= 20; a += 1) {
      for (let b = 0; b <= 20; b += 1) {
        const x = [a / 20, b / 10 - 1];
        const p = 1 / (1 + Math.exp(-(-2 + 4 * x[0]! - x[1]!)));
        const ones = Math.round(p * 200);
        for (let k = 0; k < 200; k += 1) samples.push({ x, y: k < ones ? 1 : 0 });
      }
    }
    const fit = fitLogistic(samples, 0);
    expect(fit.weights[0]).toBeCloseTo(-2, 1);
    expect(fit.weights[1]).toBeCloseTo(4, 1);
    expect(fit.weights[2]).toBeCloseTo(-1, 1);
    expect(predict(fit.weights, [1, 0])).toBeCloseTo(1 / (1 + Math.exp(-2)), 2);
  });

  it('refuses an empty sample', () => {
    expect(() => fitLogistic([])).toThrow(/No samples/);
  });
});

describe('auc', () => {
  it('is 1 for a perfect ranking, 0.5 for ties and 0 for a reversed one', () => {
    expect(
      auc([
        { p: 0.9, y: 1 },
        { p: 0.1, y: 0 },
      ]),
    ).toBe(1);
    expect(
      auc([
        { p: 0.5, y: 1 },
        { p: 0.5, y: 0 },
      ]),
    ).toBe(0.5);
    expect(
      auc([
        { p: 0.1, y: 1 },
        { p: 0.9, y: 0 },
      ]),
    ).toBe(0);
  });
});
