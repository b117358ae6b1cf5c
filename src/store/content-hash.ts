/**
 * The content hash every backend stores and dedupes on. Shared so that a memory exported from one
 * backend imports into another with the same hash.
 */
import { createHash } from 'node:crypto';

import { hashableContent } from '../core/memory.js';

/** sha256 hex of the whitespace-collapsed content (`hashableContent`). */
export function contentHash(content: string): string {
  return createHash('sha256').update(hashableContent(content), 'utf8').digest('hex');
}
