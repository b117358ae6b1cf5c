/**
 * Test support for core/injection and the injecting hooks: a complete `Memory` with injectable defaults (origin `user`, project
 * `/p/alpha`, reviewed, untainted), built from a few overrides. Deterministic ids from a counter.
 */
import type { Memory } from '../../src/core/memory.js';

/** The project most test memories belong to. */
export const PROJECT = '/p/alpha';
/** Another project, whose memories must never reach a session in {@link PROJECT}. */
export const OTHER_PROJECT = '/p/beta';

let counter = 0;

/** A fresh valid ULID-shaped id. */
export function nextId(): string {
  counter += 1;
  return `01JFX${String(counter).padStart(21, '0')}`;
}

/** A memory that passes the injection gate unless the overrides say otherwise. */
export function testMemory(overrides: Partial<Memory> = {}): Memory {
  const id = overrides.id ?? nextId();
  const createdAt = overrides.createdAt ?? '2026-08-01T10:00:00.000Z';
  return {
    id,
    content: `memory ${id}`,
    projectKey: PROJECT,
    visibility: 'project',
    kind: 'decision',
    tags: [],
    origin: 'user',
    originTool: 'cli',
    sessionId: null,
    createdAt,
    updatedAt: createdAt,
    lastAccessedAt: null,
    accessCount: 0,
    heatBase: 0,
    pinned: false,
    supersedes: null,
    supersededBy: null,
    contentHash: `hash-${id}`,
    embeddingModel: null,
    trustBand: 'high',
    tainted: false,
    quarantine: 'none',
    redactions: 0,
    gateReason: 'novel',
    authorUser: null,
    authorHost: null,
    teamVisible: true,
    sourceUrl: null,
    context: '',
    ...overrides,
  };
}
