/**
 * Reads a benchmark dataset from disk: LoCoMo through its converter, or a file already in the generic
 * format. Either way the result is checked by `parseDataset`, so the converter's output is held to the
 * documented format too.
 */
import { readFileSync } from 'node:fs';

import { type BenchDataset, parseDataset } from './dataset.js';
import { convertLocomo, type LocomoConversion } from './locomo.js';

export interface LoadedDataset {
  dataset: BenchDataset;
  /** Present for LoCoMo: what the converter repaired and excluded. */
  conversion?: Omit<LocomoConversion, 'dataset'>;
}

export function loadDataset(kind: string, path: string): LoadedDataset {
  const raw: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (kind === 'locomo') {
    const { dataset, ...conversion } = convertLocomo(raw);
    return { dataset: parseDataset(dataset), conversion };
  }
  if (kind === 'generic') return { dataset: parseDataset(raw) };
  throw new Error(`Unknown --dataset "${kind}". Use locomo or generic.`);
}
