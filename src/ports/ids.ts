import type { MemoryId } from '../core/memory.js';

/** Source of new memory ids. Ids must be ULIDs and monotonic within one process. */
export interface IdSource {
  next(): MemoryId;
}
