/**
 * The anchoring step of the write service: the stored (already redacted) text is anchored against the
 * writer's working tree (src/anchors/anchor-content.ts). Cheap and synchronous; a failure never fails the
 * write: it is logged and the memory is stored pending, for a later backfill.
 */
import { anchorContent } from '../anchors/anchor-content.js';
import type { Logger } from '../log/log.js';
import type { Clock } from '../ports/clock.js';
import type { RememberOptions } from '../store/store.js';

/** The store options carrying the anchors of `content`, or undefined when none could be resolved. */
export function anchorsFor(
  deps: { clock: Clock; log: Logger },
  content: string,
  workingDir: string | null | undefined,
): RememberOptions | undefined {
  try {
    const anchors = anchorContent(content, workingDir, deps.clock.now());
    return anchors === undefined ? undefined : { anchors };
  } catch (error) {
    deps.log.warn('write: anchors not resolved; stored pending', {
      error: String(error).slice(0, 300),
    });
    return undefined;
  }
}
