/**
 * Logistic regression by Newton's method (iteratively reweighted least squares) with a small ridge
 * penalty, for the handful of features calibrated relevance reads. Pure; no dependency: the problem is
 * a 5x5 linear solve per step.
 */

export interface Sample {
  x: readonly number[];
  y: 0 | 1;
}

export interface Fit {
  /** Intercept first, then one weight per feature. */
  weights: number[];
  iterations: number;
  logLoss: number;
}

export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

export function predict(weights: readonly number[], x: readonly number[]): number {
  let z = weights[0]!;
  for (let j = 0; j < x.length; j += 1) z += weights[j + 1]! * x[j]!;
  return sigmoid(z);
}

/** Fits the weights; `ridge` penalises every weight but the intercept. Throws on no samples. */
export function fitLogistic(samples: readonly Sample[], ridge = 1e-3, maxIterations = 50): Fit {
  if (samples.length === 0) throw new Error('No samples to fit.');
  const d = samples[0]!.x.length + 1;
  let w = new Array<number>(d).fill(0);
  let iterations = 0;
  for (; iterations < maxIterations; iterations += 1) {
    const gradient = new Array<number>(d).fill(0);
    const hessian = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (const { x, y } of samples) {
      const row = [1, ...x];
      const p = predict(w, x);
      const s = Math.max(p * (1 - p), 1e-9);
      for (let i = 0; i < d; i += 1) {
        gradient[i]! += (p - y) * row[i]!;
        for (let j = 0; j < d; j += 1) hessian[i]![j]! += s * row[i]! * row[j]!;
      }
    }
    for (let i = 1; i < d; i += 1) {
      gradient[i]! += ridge * samples.length * w[i]!;
      hessian[i]![i]! += ridge * samples.length;
    }
    const step = solve(hessian, gradient);
    w = w.map((v, i) => v - step[i]!);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  return { weights: w, iterations, logLoss: logLoss(w, samples) };
}

export function logLoss(weights: readonly number[], samples: readonly Sample[]): number {
  let sum = 0;
  for (const { x, y } of samples) {
    const p = Math.min(1 - 1e-12, Math.max(1e-12, predict(weights, x)));
    sum -= y === 1 ? Math.log(p) : Math.log(1 - p);
  }
  return sum / samples.length;
}

/** Area under the ROC curve: the chance a random positive scores above a random negative. */
export function auc(scored: readonly { p: number; y: 0 | 1 }[]): number {
  const sorted = [...scored].sort((a, b) => a.p - b.p);
  let rankSum = 0;
  let positives = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j < sorted.length && sorted[j]!.p === sorted[i]!.p) j += 1;
    const meanRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k += 1) {
      if (sorted[k]!.y === 1) {
        rankSum += meanRank;
        positives += 1;
      }
    }
    i = j;
  }
  const negatives = sorted.length - positives;
  if (positives === 0 || negatives === 0) return Number.NaN;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/** Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col += 1) {
    let pivot = col;
    for (let r = col + 1; r < n; r += 1) {
      if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    }
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const lead = m[col]![col]!;
    if (Math.abs(lead) < 1e-12) continue;
    for (let r = 0; r < n; r += 1) {
      if (r === col) continue;
      const f = m[r]![col]! / lead;
      for (let c = col; c <= n; c += 1) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  return m.map((row, i) => (Math.abs(row[i]!) < 1e-12 ? 0 : row[n]! / row[i]!));
}
