/**
 * Rules of the browsing reads both adapters share (`countMemoryGroups`): which column a group field
 * names (the same column name on SQLite and PostgreSQL), checked before any SQL is built.
 */
import { MemoryError } from '../core/errors.js';
import { MEMORY_GROUP_FIELDS, type MemoryGroupField } from './store.js';

const GROUP_COLUMN: Record<MemoryGroupField, string> = {
  origin: 'm.origin',
  originTool: 'm.origin_tool',
  sessionId: 'm.session_id',
  sourceUrl: 'm.source_url',
  sourceHost: 'm.source_host',
  projectKey: 'm.project_key',
  kind: 'm.kind',
};

/** The column (over alias `m`) of a group field; INVALID_INPUT for anything else. */
export function groupColumn(by: unknown): string {
  if (!(MEMORY_GROUP_FIELDS as readonly unknown[]).includes(by)) {
    throw new MemoryError(
      'INVALID_INPUT',
      `Cannot group memories by "${String(by)}". Use one of: ${MEMORY_GROUP_FIELDS.join(', ')}.`,
    );
  }
  return GROUP_COLUMN[by as MemoryGroupField];
}
