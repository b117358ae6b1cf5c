/**
 * The local model cache: `$MNEMO_HOME/models/<model-id>/`, one transformers.js model directory per id
 * (`config.json`, `tokenizer.json`, `tokenizer_config.json`, `onnx/model.onnx` and/or
 * `onnx/model_quantized.onnx`). Ids are hub-style (`owner/name`) so a pulled model and a hand-copied
 * one live at the same path. Nothing here loads a model.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { MemoryError } from '../core/errors.js';

/** Files every model directory needs besides its ONNX weights. */
export const REQUIRED_MODEL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];
/** Weight files, preferred first: the 8-bit model is ~4× smaller and faster on CPU. */
export const WEIGHT_FILES = ['onnx/model_quantized.onnx', 'onnx/model.onnx'] as const;

const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}(?:\/[A-Za-z0-9][A-Za-z0-9._-]{0,95})?$/;

/** The models directory of a mnemo home. */
export function modelsDir(home: string): string {
  return join(home, 'models');
}

/**
 * Checks a model id (`name` or `owner/name`; letters, digits, `.`, `_`, `-`). It becomes a path, so
 * anything else (`..`, absolute paths, backslashes) is refused. Throws INVALID_INPUT.
 */
export function assertModelId(id: string): string {
  if (
    !MODEL_ID.test(id) ||
    id.split('/').some((part) => /^\.+$/.test(part) || part.includes('..'))
  ) {
    throw new MemoryError(
      'INVALID_INPUT',
      `"${id.slice(0, 80)}" is not a model id. Use the hub form owner/name, e.g. Xenova/all-MiniLM-L6-v2.`,
    );
  }
  return id;
}

export function modelDir(home: string, id: string): string {
  return join(modelsDir(home), ...assertModelId(id).split('/'));
}

export interface ModelDirInfo {
  id: string;
  dir: string;
  /** Files the directory lacks to be loadable; [] when complete. */
  missing: string[];
  /** The weight file that will be loaded, relative to `dir`, or null. */
  weights: (typeof WEIGHT_FILES)[number] | null;
  /** `hidden_size` from config.json (the embedding width of an encoder), or null when unknown. */
  hiddenSize: number | null;
  /** What the config's architectures say the model is. */
  role: 'encoder' | 'reranker' | 'unknown';
}

/** Inspects a model directory without loading it. */
export function inspectModelDir(id: string, dir: string): ModelDirInfo {
  const missing = REQUIRED_MODEL_FILES.filter((file) => !isFile(join(dir, file)));
  const weights = WEIGHT_FILES.find((file) => isFile(join(dir, file))) ?? null;
  if (weights === null) missing.push('onnx/model.onnx');
  let hiddenSize: number | null = null;
  let role: ModelDirInfo['role'] = 'unknown';
  if (isFile(join(dir, 'config.json'))) {
    try {
      const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as {
        hidden_size?: unknown;
        architectures?: unknown;
      };
      if (typeof config.hidden_size === 'number') hiddenSize = config.hidden_size;
      const arch = Array.isArray(config.architectures) ? config.architectures.join(' ') : '';
      role = /SequenceClassification/.test(arch) ? 'reranker' : 'encoder';
    } catch {
      missing.push('config.json (unreadable JSON)');
    }
  }
  return { id, dir, missing, weights, hiddenSize, role };
}

/** Every model directory in the cache (`name` and `owner/name` levels), sorted by id. */
export function listModels(home: string): ModelDirInfo[] {
  const root = modelsDir(home);
  if (!existsSync(root)) return [];
  const found: ModelDirInfo[] = [];
  for (const first of subdirs(root)) {
    if (first.startsWith('.')) continue;
    const dir = join(root, first);
    if (isFile(join(dir, 'config.json'))) found.push(inspectModelDir(first, dir));
    else {
      for (const second of subdirs(dir)) {
        if (second.startsWith('.')) continue;
        found.push(inspectModelDir(`${first}/${second}`, join(dir, second)));
      }
    }
  }
  return found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function subdirs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
