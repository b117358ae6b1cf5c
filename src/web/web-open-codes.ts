/**
 * One-time codes for `mnemo ui --open`. A browser is started with the address as an argument, and a
 * command line is readable by every local user (`ps`), so that address carries no token: it carries a
 * code the page trades once, within a minute, for the token (`POST /api/claim`). The printed address,
 * which only the terminal sees, carries the token itself.
 */
import { randomBytes } from 'node:crypto';

import { sameSecret } from './web-guard.js';

/** How long a code can be traded. */
export const OPEN_CODE_TTL_MS = 60_000;

export class OpenCodes {
  readonly #codes = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** A fresh code, valid once for {@link OPEN_CODE_TTL_MS}. */
  mint(): string {
    const code = randomBytes(24).toString('base64url');
    this.#codes.set(code, this.#now() + OPEN_CODE_TTL_MS);
    return code;
  }

  /** True once for a live code; the code is gone afterwards, whatever the answer. */
  take(code: unknown): boolean {
    if (typeof code !== 'string') return false;
    const now = this.#now();
    let found = false;
    for (const [known, expires] of this.#codes) {
      if (expires <= now) this.#codes.delete(known);
      else if (!found && sameSecret(code, known)) {
        this.#codes.delete(known);
        found = true;
      }
    }
    return found;
  }
}
