import type { Memory } from '../core/memory.js';
import { anchorsFor } from './write-anchors.js';
import {
  admitWrite,
  type WriteDeps,
  type WriteOutcome,
  type WriteRequest,
} from './write-memory.js';

/**
 * Writes `request` as the replacement of `previous` through the same admission steps as `writeMemory`
 * (origin from the envelope, claims, redaction, review state, flood budget). The novelty gate does not
 * apply: replacing is the point. Neither pinning nor global visibility carries over: both are privileges
 * of the new origin. Refusals are `reject` outcomes; only store errors are thrown.
 */
export async function supersedeMemory(
  deps: WriteDeps,
  previous: Memory,
  request: WriteRequest,
): Promise<WriteOutcome> {
  const admitted = await admitWrite(deps, {
    ...request,
    kind: request.kind ?? previous.kind,
    visibility: 'project',
    pinned: false,
  });
  if (admitted.kind === 'reject') return admitted.outcome;
  const anchors = anchorsFor(deps, admitted.input.content, request.workingDir);
  const { current } = await deps.store.supersede(previous.id, admitted.input, anchors);
  admitted.report.notes.push(`replaces ${previous.id}, kept in history`);
  return admitted.report.store(current, 'novel');
}
