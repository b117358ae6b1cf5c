/**
 * Reads a benchmark dataset from disk: LoCoMo through its converter, or a file already in the generic
 * format. Either way the result is checked by `parseDataset`, so the converter's output is held to the
 * documented format too.
 */
import { readFileSync } from 'node:fs';

import { type BenchDataset, parseDataset } from './dataset.js';
import { convertLocomo, type LocomoConversion } from './locomo.js';
import { longTurnDataset, type LongTurnReport } from './long-turns.js';

export interface LoadedDataset {
  dataset: BenchDataset;
  /** Present for LoCoMo: what the converter repaired and excluded. */
  conversion?: Omit<LocomoConversion, 'dataset'>;
  /** Present for `locomo-long`: the merged memories' sizes. */
  longTurns?: LongTurnReport;
}

export function loadDataset(kind: string, path: string): LoadedDataset {
  const raw: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (kind === 'locomo') {
    const { dataset, ...conversion } = convertLocomo(raw);
    return { dataset: parseDataset(dataset), conversion };
  }
  if (kind === 'locomo-long') {
    // LoCoMo's turns merged into 180-400-word memories, each keeping the evidence ids it holds.
    const { dataset, ...conversion } = convertLocomo(raw);
    const long = longTurnDataset(parseDataset(dataset));
    return { dataset: parseDataset(long.dataset), conversion, longTurns: long.report };
  }
  if (kind === 'generic') return { dataset: parseDataset(raw) };
  throw new Error(`Unknown --dataset "${kind}". Use locomo, locomo-long or generic.`);
}
