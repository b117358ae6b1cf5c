/**
 * mnemo's public programmatic surface. Any new export added here becomes public API: the exports test
 * locks it. Heavy backends live behind subpaths (`mnemo/store/sqlite`).
 */
export type { MemoryErrorCode } from './core/errors.js';
export { isMemoryError, MemoryError } from './core/errors.js';
export type {
  Memory,
  MemoryId,
  MemoryKind,
  MemoryVector,
  NewMemory,
  Visibility,
} from './core/memory.js';
export { MEMORY_KINDS, VISIBILITIES } from './core/memory.js';
export type { Clock } from './ports/clock.js';
export type { Embedder } from './ports/embedder.js';
export type { IdSource } from './ports/ids.js';
export type {
  ExportedMemory,
  LexicalHit,
  MemoryFilter,
  MemoryStore,
  Scope,
  StoreCapabilities,
  VectorHit,
} from './store/store.js';
