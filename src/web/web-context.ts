/**
 * What every route of the viewer receives, and the parsing of its query strings: each parameter is
 * checked here and a bad one is an INVALID_INPUT (400) that names it, never a silent default.
 */
import { z } from 'zod';

import type { App } from '../app/open-app.js';
import { MemoryError } from '../core/errors.js';
import { type Memory, QUARANTINE_STATES, type QuarantineState } from '../core/memory.js';
import type { Embedder } from '../ports/embedder.js';
import type { Reranker } from '../ports/reranker.js';
import { getExistingMemory, notFound } from '../review/explain-memory.js';
import { isReadableBy } from '../store/reader-scope.js';
import type { MemoryFilter, MemoryStore, Scope } from '../store/store.js';

/** The models recall uses; either may be absent (recall then runs without that leg or step). */
export interface WebModels {
  embedder: Embedder | undefined;
  reranker: Reranker | undefined;
}

export interface WebContext {
  app: App;
  /**
   * Who the viewer reads as: the author this process writes as. In a team store every read — by
   * project, across projects, or by id — shows only what this author may see (R4, store reader scope).
   */
  reader: string;
  /** Recorded as the actor of every review decision made through the viewer (`web-ui:<user>`). */
  actor: string;
  /** Opened at the first search, not at start: a model costs seconds and most visits only browse. */
  models(): Promise<WebModels>;
  /** Fill in missing vectors before a search (no resident engine does it for this process). */
  catchUpEmbeddings: boolean;
  /** The project the viewer opens on: where `mnemo ui` ran, or null. */
  defaultProject: string | null;
  /** Which process serves the viewer. */
  servedBy: 'ui' | 'engine';
}

/** Parses `query` with `schema`; INVALID_INPUT naming the first bad parameter otherwise. */
export function parseQuery<T extends z.ZodType>(schema: T, query: unknown): z.infer<T> {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const name = issue?.path.join('.') ?? 'request';
  throw new MemoryError(
    'INVALID_INPUT',
    `Bad parameter "${name}": ${issue?.message ?? 'invalid'}.`,
  );
}

export const projectParam = z.string().min(1).max(4096).optional();

export const pageParams = {
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(50),
};

/** The review states a view can ask for; `held` is every state a review decides about. */
export const STATE_VIEWS = ['pending', 'approved', 'rejected', 'held', 'active', 'all'] as const;
export type StateView = (typeof STATE_VIEWS)[number];

/** The store filter of a state view. `active` is the store's default (every state but rejected). */
export function quarantineOf(view: StateView): readonly QuarantineState[] | undefined {
  switch (view) {
    case 'held':
      return ['pending', 'approved', 'rejected'];
    case 'active':
      return undefined;
    case 'all':
      return QUARANTINE_STATES;
    default:
      return [view];
  }
}

/**
 * What a project parameter means, read as `reader`: that project as its sessions see it (its memories
 * and global ones), or every project; either way only what the reader may see.
 */
export function readerFilter(project: string | undefined, reader: string): MemoryFilter {
  if (project === undefined) return { reader };
  const scope: Scope = { projectKey: project, includeGlobal: true, author: reader };
  return { scope };
}

/** A filter from the common parameters. */
export function baseFilter(
  project: string | undefined,
  state: StateView,
  reader: string,
): MemoryFilter {
  const quarantine = quarantineOf(state);
  return {
    ...readerFilter(project, reader),
    ...(quarantine === undefined ? {} : { quarantine }),
  };
}

/** A memory by id as `reader` may see it: NOT_FOUND (as for an unknown id) when it is someone's private one. */
export async function readableMemory(
  store: MemoryStore,
  rawId: string,
  reader: string,
): Promise<Memory> {
  const memory = await getExistingMemory(store, rawId);
  if (!isReadableBy(memory, reader)) throw notFound(memory.id);
  return memory;
}
