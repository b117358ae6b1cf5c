/**
 * `mnemo model pull`: downloads a transformers.js model directory from the model hub into the model
 * cache. Files land in a temporary sibling directory that is renamed into place only when complete, so
 * an interrupted pull never leaves a directory that looks loadable. Fails fast, naming the offline
 * alternative, when the hub cannot be reached.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { MemoryError } from '../core/errors.js';
import { inspectModelDir, modelDir } from './model-cache.js';

/** Files fetched for every model; weights follow, smallest first. */
const BASE_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];
const WEIGHT_CANDIDATES = ['onnx/model_quantized.onnx', 'onnx/model.onnx'];
/** How long the first request may take before the hub counts as unreachable. */
export const PULL_CONNECT_TIMEOUT_MS = 15_000;

export interface PullOptions {
  home: string;
  id: string;
  /** Hub base URL; defaults to `$MNEMO_MODEL_HOST`, else transformers.js' `env.remoteHost`. */
  host?: string;
  onProgress?: (file: string, loaded: number, total: number | null) => void;
  /** Replace an existing directory. */
  force?: boolean;
}

/** Downloads the model and returns its directory. Throws UNSUPPORTED when the hub is unreachable. */
export async function pullModel(options: PullOptions): Promise<string> {
  const target = modelDir(options.home, options.id);
  if (!options.force && inspectModelDir(options.id, target).missing.length === 0) {
    throw new MemoryError(
      'CONFLICT',
      `${options.id} is already in the model cache (${target}). Pass --force to download it again.`,
    );
  }
  const host = (options.host ?? (await defaultHost())).replace(/\/+$/, '');
  const base = `${host}/${options.id}/resolve/main/`;
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  try {
    for (const file of BASE_FILES) await download(base, file, partial, options, true);
    let weights = false;
    for (const file of WEIGHT_CANDIDATES) {
      if (await download(base, file, partial, options, false)) {
        weights = true;
        break;
      }
    }
    if (!weights) {
      throw new MemoryError(
        'NOT_FOUND',
        `${options.id} has no ONNX weights (onnx/model_quantized.onnx or onnx/model.onnx) on the hub. Pick a transformers.js-ready model (for example one under Xenova/).`,
      );
    }
    rmSync(target, { recursive: true, force: true });
    mkdirSync(dirname(target), { recursive: true });
    renameSync(partial, target);
    return target;
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

async function defaultHost(): Promise<string> {
  const fromEnv = process.env.MNEMO_MODEL_HOST;
  if (fromEnv !== undefined && fromEnv.trim() !== '') return fromEnv;
  const { loadTransformers } = await import('./transformers-runtime.js');
  return (await loadTransformers()).env.remoteHost;
}

/** Fetches one file; false when it does not exist on the hub and `required` is false. */
async function download(
  base: string,
  file: string,
  into: string,
  options: PullOptions,
  required: boolean,
): Promise<boolean> {
  let response: Response;
  try {
    response = await fetch(base + file, { signal: AbortSignal.timeout(PULL_CONNECT_TIMEOUT_MS) });
  } catch (error) {
    throw new MemoryError(
      'UNSUPPORTED',
      `Cannot reach the model hub at ${new URL(base).origin} (${networkCode(error)}); ` +
        `this machine may be offline. Copy a model directory to ${modelDir(options.home, options.id)} ` +
        '(config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx) and run ' +
        `\`mnemo model use ${options.id}\`, or keep the packaged embedder (use-lite-512).`,
      { cause: error },
    );
  }
  if (response.status === 404 && !required) return false;
  if (!response.ok || response.body === null) {
    throw new MemoryError(
      response.status === 404 ? 'NOT_FOUND' : 'UNSUPPORTED',
      `The model hub answered ${response.status} for ${options.id}/${file}. Check the model id (owner/name) and try again.`,
    );
  }
  const total = Number(response.headers.get('content-length')) || null;
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    chunks.push(chunk);
    loaded += chunk.length;
    options.onProgress?.(file, loaded, total);
  }
  const path = join(into, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, Buffer.concat(chunks));
  return true;
}

/** The system error code of a failed fetch (`ENOTFOUND`, `ECONNREFUSED`, ...), or its message. */
function networkCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const { code, errors, cause } = current as {
      code?: unknown;
      errors?: unknown[];
      cause?: unknown;
    };
    if (typeof code === 'string') return code;
    current = Array.isArray(errors) && errors.length > 0 ? errors[0] : cause;
  }
  return error instanceof Error ? error.message : String(error);
}
