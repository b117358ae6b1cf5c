/**
 * What a backend hands the store contract suite: how to open a fresh store, how to look inside it, and
 * how child processes open a shared one. Everything backend-specific lives behind these options so the
 * same tests run unchanged against SQLite today and PostgreSQL later.
 */
import { afterEach, it } from 'vitest';

import type { Clock } from '../../ports/clock.js';
import type { MemoryStore } from '../store.js';

export interface ContractOpenOptions {
  clock?: Clock;
  /** Called inside every write transaction just before commit; throwing must roll it back. */
  onBeforeCommit?: (action: string) => void;
  /** The identity the store is opened as (stamped on new memories, the default reader). */
  author?: { user: string; host: string };
  /**
   * Opens the database `sharing` was opened on (another process, or a teammate, on one store) instead
   * of a fresh one.
   */
  sharing?: MemoryStore;
}

/** Raw counts and self-checks read straight from the backend, bypassing the port. */
export interface StoreInspection {
  /** Rows in the base table, superseded included. */
  memories: number;
  /** Documents in the lexical index. */
  lexicalRows: number;
  /** Stored vectors over all models. */
  vectorRows: number;
  auditRows: number;
  /** Findings of the backend's integrity checks (index vs table, page checks, audit chain); [] when healthy. */
  problems: string[];
}

/** How a child process opens the shared store: `(await import(module))[exportName](options)`. */
export interface ChildOpener {
  module: string;
  exportName: string;
  options: Record<string, unknown>;
}

export interface SharedStoreTarget {
  child: ChildOpener;
  /** Opens the same store in the test process, for assertions after the children exit. */
  open(): Promise<MemoryStore>;
}

export interface StoreContractOptions {
  name: string;
  /** Opens a fresh, empty store each call. */
  open(options?: ContractOpenOptions): Promise<MemoryStore>;
  inspect(store: MemoryStore): Promise<StoreInspection>;
  /** A store several OS processes can open at once; omit when `concurrentWriters` is false. */
  multiProcess?: () => Promise<SharedStoreTarget>;
  /** Tests this backend cannot pass, by exact name, each with a reason. */
  skip?: readonly { reason: string; tests: readonly string[] }[];
}

export interface Harness {
  options: StoreContractOptions;
  /** Opens a fresh store that is closed after the test. */
  open(options?: ContractOpenOptions): Promise<MemoryStore>;
  /** `it`, unless the backend listed the test in `skip`. */
  test(name: string, body: () => Promise<void>, timeoutMs?: number): void;
}

/** Call inside a `describe`: registers the cleanup hook for that block. */
export function createHarness(options: StoreContractOptions): Harness {
  const opened: MemoryStore[] = [];
  const skipped = new Set(options.skip?.flatMap((entry) => entry.tests));
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });
  return {
    options,
    async open(openOptions) {
      const store = await options.open(openOptions);
      opened.push(store);
      return store;
    },
    test(name, body, timeoutMs) {
      (skipped.has(name) ? it.skip : it)(name, body, timeoutMs);
    },
  };
}
