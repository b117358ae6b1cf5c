/**
 * The id source a store uses when its opener is given none: monotonic ULIDs whose time part comes
 * from the store's clock. Shared by every backend so ids sort the same way whichever wrote them.
 */
import { newUlidFactory } from '../platform/ulid-factory.js';
import type { Clock } from '../ports/clock.js';
import type { IdSource } from '../ports/ids.js';

export function ulidSource(clock: Clock): IdSource {
  const factory = newUlidFactory();
  return { next: () => factory(clock.now().getTime()) };
}
