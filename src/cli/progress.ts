/** A one-line progress bar for stderr (stdout stays clean for data). */
import type { OutputStream } from './cli-io.js';

const WIDTH = 24;

/** Renders `label [#####.....] done/total` in place; `finish` ends the line. */
export function createProgressBar(
  stream: OutputStream,
  label: string,
): { update(done: number, total: number | null, unit?: string): void; finish(): void } {
  let drawn = false;
  return {
    update(done, total, unit = '') {
      const suffix = unit === '' ? '' : ` ${unit}`;
      let line: string;
      if (total === null || total <= 0) line = `${label} ${done}${suffix}`;
      else {
        const filled = Math.round((Math.min(done, total) / total) * WIDTH);
        line = `${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${done}/${total}${suffix}`;
      }
      stream.write(`\r${line}`);
      drawn = true;
    },
    finish() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
