import { join } from 'node:path';

import { hookFixture } from './hook-fixtures.js';

const WORDS = [
  'parser',
  'ledger',
  'socket',
  'retry',
  'budget',
  'cursor',
  'schema',
  'window',
  'thread',
  'bucket',
  'filter',
  'signal',
  'packet',
  'vector',
  'anchor',
  'buffer',
];

/**
 * The marker a torture capture carries: unique per (writer, capture), found back in the stored text by
 * `markerCounts` (store-state.ts). Digits differ between any two markers, so the write gate never merges
 * two of them as near-duplicates.
 */
export function captureMarker(writer: number, capture: number): string {
  return `mkw${writer.toString().padStart(3, '0')}c${capture.toString().padStart(4, '0')}`;
}

/**
 * A recorded Edit payload rewritten to edit its own file with a line that carries `marker`, in its own
 * session (one per writer, so the per-session flood budget is never what limits a torture run).
 */
export function markedEdit(
  projectDir: string,
  writer: number,
  capture: number,
): Record<string, unknown> {
  const marker = captureMarker(writer, capture);
  const a = WORDS[(writer * 7 + capture) % WORDS.length] ?? 'parser';
  const b = WORDS[(writer + capture * 3) % WORDS.length] ?? 'ledger';
  return hookFixture('post-tool-use-edit', {
    cwd: projectDir,
    sessionId: `torture-session-${writer}`,
    patch: {
      tool_use_id: `toolu_${marker}`,
      tool_input: {
        file_path: join(projectDir, `src/w${writer}/f${capture}.ts`),
        old_string: `const ${a} = load${capture}();`,
        new_string: `const ${a} = load${capture}(${b}); // ${marker} ${writer * 1000 + capture}`,
        replace_all: false,
      },
    },
  });
}
