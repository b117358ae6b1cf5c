/**
 * Embedding providers the benchmark can compare, built from the production classes in src/embed/.
 * Heavy ones (USE, ONNX) are imported only when asked for.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';

import type { WordTable } from '../../src/embed/word-table.js';
import type { Embedder } from '../../src/ports/embedder.js';

export interface Provider {
  /** Short label used in arm names (`hash`, `use`, `onnx`). */
  label: string;
  embedder: Embedder;
}

/**
 * The word-vector table for the words leg, converted once into `cacheDir` (the conversion parses the
 * package's 307 MB JSON: ~10 s, once per machine). Throws when the optional package is missing.
 */
export async function openWordTable(cacheDir: string): Promise<WordTable> {
  const { convertWordVectors, findWordVectorSource, loadWordTable, WORD_TABLE_FILE } = await import(
    '../../src/embed/word-table.js'
  );
  const path = join(cacheDir, WORD_TABLE_FILE);
  if (existsSync(path)) return loadWordTable(path);
  process.stderr.write(`converting the word vectors once into ${path}\n`);
  return convertWordVectors(path, findWordVectorSource());
}

/** Builds the named providers; `onnx` needs `modelDir`. Throws naming an unknown provider. */
export async function openProviders(
  names: readonly string[],
  onnx: { modelDir?: string; modelId?: string },
): Promise<Provider[]> {
  const out: Provider[] = [];
  for (const name of names) {
    if (name === 'hash') {
      const { HashEmbedder } = await import('../../src/embed/hash-embedder.js');
      out.push({ label: 'hash', embedder: new HashEmbedder() });
    } else if (name === 'use') {
      const { UseEmbedder } = await import('../../src/embed/use-embedder.js');
      out.push({ label: 'use', embedder: new UseEmbedder() });
    } else if (name === 'onnx') {
      if (onnx.modelDir === undefined) throw new Error('--providers onnx needs --model-dir <dir>.');
      const { openOnnxEmbedder } = await import('../../src/embed/onnx-embedder.js');
      const id = onnx.modelId ?? basename(onnx.modelDir);
      out.push({ label: 'onnx', embedder: openOnnxEmbedder({ id, dir: onnx.modelDir }) });
    } else {
      throw new Error(`Unknown provider "${name}". Use hash, use or onnx (with --model-dir).`);
    }
  }
  return out;
}
