/**
 * Monotonic ULIDs drawing their randomness from the OS without loading `node:crypto`: left to itself the
 * `ulid` package finds its random source through `globalThis.crypto` (the Web Crypto API), and
 * `node:crypto` alone costs a hook that writes one id a few milliseconds of start-up. Where the OS
 * offers `/dev/urandom` its bytes are read with the `node:fs` every process already has loaded;
 * elsewhere (Windows) `node:crypto` supplies them.
 */
import type * as NodeCrypto from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';

import { monotonicFactory } from 'ulid';

const POOL_BYTES = 64;

function osRandomBytes(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  try {
    const fd = openSync('/dev/urandom', 'r');
    try {
      if (readSync(fd, bytes, 0, size, null) === size) return bytes;
    } finally {
      closeSync(fd);
    }
  } catch {
    // No /dev/urandom here: node:crypto below.
  }
  const { randomBytes } = createRequire(import.meta.url)('node:crypto') as typeof NodeCrypto;
  return randomBytes(size);
}

/** A random number in [0, 1) from a pool of OS random bytes, refilled as it runs out. */
function pooledRandom(): () => number {
  let pool = osRandomBytes(POOL_BYTES);
  let next = 0;
  return () => {
    if (next >= POOL_BYTES) {
      pool = osRandomBytes(POOL_BYTES);
      next = 0;
    }
    return (pool[next++] ?? 0) / 256;
  };
}

/** A monotonic ULID factory (`ulid`'s) with OS randomness. */
export function newUlidFactory(): ReturnType<typeof monotonicFactory> {
  return monotonicFactory(pooledRandom());
}
