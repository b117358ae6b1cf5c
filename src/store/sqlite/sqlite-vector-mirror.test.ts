import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { inspectSqliteFile } from '../../../test/fixtures/sqlite/raw-sqlite.js';
import { createHarness } from '../contract/contract-harness.js';
import { deterministicVectors, seededRandom, vectorOf } from '../contract/fixtures.js';
import { describeCrudContract } from '../contract/store.crud.contract.js';
import { describeSearchContract } from '../contract/store.search.contract.js';
import type { MemoryStore, SearchOptions } from '../store.js';
import { openSqliteStore, type OpenSqliteStoreOptions } from './open-sqlite-store.js';
import type { SqliteMemoryStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'mnemo-vector-mirror-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const opened: MemoryStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

let counter = 0;
const freshPath = () => join(dir, `store-${++counter}`, 'mnemo.db');

async function open(
  path: string,
  options: Omit<OpenSqliteStoreOptions, 'path'> = {},
): Promise<SqliteMemoryStore> {
  const store = (await openSqliteStore({ ...options, path })) as SqliteMemoryStore;
  opened.push(store);
  return store;
}

/** A store with the mirror on, loaded. */
async function openMirrored(path: string, options: Omit<OpenSqliteStoreOptions, 'path'> = {}) {
  const store = await open(path, { ...options, residentVectors: true });
  await store.vectorMirror!.settled();
  expect(store.vectorMirror!.status().state).toBe('ready');
  return store;
}

const PROJECTS = ['proj-big', 'proj-mid', 'proj-tiny', null] as const;
const SPACES = [
  { model: 'sentence-a', dims: 16 },
  { model: 'sentence-b', dims: 7 },
] as const;
const WORDS = { model: 'words-w', dims: 5 };

/** 600 memories over four scopes and two sentence spaces; every third also holds a words vector. */
async function populate(store: MemoryStore, seed: number): Promise<void> {
  const next = seededRandom(seed);
  const vectors = SPACES.map((s, i) => deterministicVectors(600, s.dims, seed + i));
  const words = deterministicVectors(600, WORDS.dims, seed + 9);
  for (let i = 0; i < 600; i++) {
    const r = next();
    // proj-tiny holds ~1 % of the rows: its queries miss the global top k and take the exact fallback.
    const where = PROJECTS[r < 0.6 ? 0 : r < 0.85 ? 1 : r < 0.86 ? 2 : 3]!;
    const scope =
      where === null
        ? { projectKey: 'proj-other', visibility: 'global' as const }
        : { projectKey: where };
    const space = i % 2;
    const { memory } = await store.remember(
      { content: `memory ${seed} ${i}`, ...scope, kind: i % 5 === 0 ? 'decision' : 'note' },
      { vector: vectorOf(SPACES[space]!.model, vectors[space]![i]!) },
    );
    if (i % 3 === 0) await store.setExtraVector(memory.id, vectorOf(WORDS.model, words[i]!));
  }
}

const SCOPES: SearchOptions[] = [
  { limit: 10 },
  { limit: 1 },
  { limit: 40 },
  { limit: 10, scope: { projectKey: 'proj-big', includeGlobal: true } },
  { limit: 10, scope: { projectKey: 'proj-mid', includeGlobal: false } },
  { limit: 5, scope: { projectKey: 'proj-tiny', includeGlobal: false } },
  { limit: 30, scope: { projectKey: 'proj-tiny', includeGlobal: true } },
  { limit: 8, kinds: ['decision'] },
];

/** Every query of every space and scope, answered by both stores, must be the same hits. */
async function expectSameAnswers(mirrored: SqliteMemoryStore, plain: MemoryStore, seed: number) {
  const answered = mirrored.vectorMirror!.status().answered;
  let compared = 0;
  for (const space of [...SPACES, WORDS]) {
    for (const query of deterministicVectors(6, space.dims, seed)) {
      for (const options of SCOPES) {
        const vector = vectorOf(space.model, query);
        const expected = await plain.searchVector(vector, options);
        expect(await mirrored.searchVector(vector, options)).toEqual(expected);
        compared += expected.length;
      }
    }
  }
  expect(compared).toBeGreaterThan(0);
  // The two sentence spaces always exist: the mirror, not vec0, picked their candidates.
  expect(mirrored.vectorMirror!.status().answered - answered).toBeGreaterThanOrEqual(
    2 * 6 * SCOPES.length,
  );
}

describe('resident vector mirror', () => {
  it('returns exactly the hits and distances of the vec0 path for every space and scope', async () => {
    const path = freshPath();
    const plain = await open(path);
    await populate(plain, 1);
    const mirrored = await openMirrored(path);
    const before = mirrored.vectorMirror!.status();
    expect(before.spaces.map((s) => [s.dims, s.rows])).toEqual([
      [16, 300],
      [5, 200],
      [7, 300],
    ]);
    await expectSameAnswers(mirrored, plain, 41);
    const after = mirrored.vectorMirror!.status();
    expect(after.answered).toBeGreaterThanOrEqual(3 * 6 * SCOPES.length);
    expect(after.builds).toBe(1);
  });

  it('never mixes models or dimensions', async () => {
    const path = freshPath();
    const mirrored = await openMirrored(path);
    const one = await mirrored.remember(
      { content: 'one', projectKey: 'p' },
      { vector: vectorOf('one', [1, 0]) },
    );
    const two = await mirrored.remember(
      { content: 'two', projectKey: 'p' },
      { vector: vectorOf('two', [1, 0]) },
    );
    const hits = await mirrored.searchVector(vectorOf('two', [1, 0]), { limit: 10 });
    expect(hits.map((h) => h.id)).toEqual([two.memory.id]);
    expect(await mirrored.searchVector(vectorOf('one', [1, 0, 0]), { limit: 10 })).toEqual([]);
    expect((await mirrored.searchVector(vectorOf('one', [0, 1]), { limit: 10 }))[0]!.id).toBe(
      one.memory.id,
    );
    expect(mirrored.vectorMirror!.status().answered).toBe(2);
  });

  it('applies every write path of its own connection without a rebuild', async () => {
    const path = freshPath();
    const mirrored = await openMirrored(path);
    const plain = await open(path); // reads only: never makes the mirror stale
    await populate(mirrored, 2); // remember with a vector, setExtraVector; creates the spaces
    await expectSameAnswers(mirrored, plain, 51);

    const ids = (await mirrored.listMemories({ limit: 600 })).map((m) => m.id);
    const fresh = deterministicVectors(40, 16, 77);
    for (let i = 0; i < 40; i++) {
      // setVector: a new vector of the same model, then one of the other model (moves spaces).
      await mirrored.setVector(ids[i]!, vectorOf('sentence-a', fresh[i]!));
      if (i % 4 === 0)
        await mirrored.setVector(ids[i]!, vectorOf('sentence-b', fresh[i]!.slice(0, 7)));
    }
    for (let i = 40; i < 60; i++) await mirrored.updateMemory(ids[i]!, { content: `edited ${i}` });
    for (let i = 60; i < 80; i++) expect(await mirrored.forget(ids[i]!)).toBe(true);
    await expectSameAnswers(mirrored, plain, 52);

    // import: memories exported from another store, with their vectors.
    const source = await open(freshPath());
    await populate(source, 3);
    for await (const record of source.exportMemories()) await mirrored.importMemory(record);
    await expectSameAnswers(mirrored, plain, 53);

    expect(await mirrored.deleteVectorModel(WORDS.model)).toBeGreaterThan(0);
    expect(
      await mirrored.searchVector(vectorOf(WORDS.model, [1, 0, 0, 0, 0]), { limit: 5 }),
    ).toEqual([]);
    await expectSameAnswers(mirrored, plain, 54);

    const status = mirrored.vectorMirror!.status();
    expect(status.state).toBe('ready');
    expect(status.builds).toBe(1); // every change above was applied, none rebuilt
    expect(status.spaces.map((s) => s.rows).reduce((a, b) => a + b, 0)).toBe(
      (await plainCounts(path)).reduce((a, b) => a + b, 0),
    );
  });

  it('never holds a write whose transaction rolled back', async () => {
    const path = freshPath();
    let fail = false;
    const mirrored = await openMirrored(path, {
      onBeforeCommit: () => {
        if (fail) throw new Error('injected failure before commit');
      },
    });
    const plain = await open(path);
    await populate(mirrored, 4);
    const ids = (await mirrored.listMemories({ limit: 10 })).map((m) => m.id);
    const query = vectorOf('sentence-a', deterministicVectors(1, 16, 5)[0]!);
    fail = true;
    // The exact query vector, written and rolled back: it would be the nearest hit if it leaked.
    await expect(mirrored.setVector(ids[0]!, query)).rejects.toThrow(/injected/);
    await expect(
      mirrored.remember({ content: 'rolled back', projectKey: 'p' }, { vector: query }),
    ).rejects.toThrow(/injected/);
    await expect(mirrored.forget(ids[1]!)).rejects.toThrow(/injected/);
    await expect(mirrored.deleteVectorModel('sentence-a')).rejects.toThrow(/injected/);
    fail = false;
    const hits = await mirrored.searchVector(query, { limit: 5 });
    expect(hits).toEqual(await plain.searchVector(query, { limit: 5 }));
    expect(hits[0]!.distance).toBeGreaterThan(1e-3);
    await expectSameAnswers(mirrored, plain, 61);
    expect(mirrored.vectorMirror!.status()).toMatchObject({ state: 'ready', builds: 1 });
  });

  it('answers through vec0 after another connection writes, then rebuilds and answers again', async () => {
    const path = freshPath();
    const other = await open(path);
    await populate(other, 5);
    const mirrored = await openMirrored(path);
    const query = deterministicVectors(1, 16, 8)[0]!;
    // Another process (a CLI `remember`, a hook) stores the query's own vector.
    const { memory } = await other.remember(
      { content: 'written elsewhere', projectKey: 'p' },
      { vector: vectorOf('sentence-a', query) },
    );
    const answered = mirrored.vectorMirror!.status().answered;
    const hits = await mirrored.searchVector(vectorOf('sentence-a', query), { limit: 3 });
    expect(hits[0]!.id).toBe(memory.id);
    expect(mirrored.vectorMirror!.status().answered).toBe(answered); // vec0 answered: stale
    expect(mirrored.vectorMirror!.status().state).toBe('loading');
    await mirrored.vectorMirror!.settled();
    expect(mirrored.vectorMirror!.status()).toMatchObject({ state: 'ready', builds: 2 });
    expect(await mirrored.searchVector(vectorOf('sentence-a', query), { limit: 3 })).toEqual(hits);
    expect(mirrored.vectorMirror!.status().answered).toBe(answered + 1);
    // A forget elsewhere: the same again.
    await other.forget(memory.id);
    const after = await mirrored.searchVector(vectorOf('sentence-a', query), { limit: 3 });
    expect(after.map((h) => h.id)).not.toContain(memory.id);
    expect(mirrored.vectorMirror!.status().answered).toBe(answered + 1);
    await mirrored.vectorMirror!.settled();
    await expectSameAnswers(mirrored, other, 71);
    expect(mirrored.vectorMirror!.status().builds).toBe(3);
  });

  it('gives up a build that a commit of another connection overtakes, and never serves it', async () => {
    const path = freshPath();
    const other = await open(path);
    await populate(other, 6);
    const mirrored = await open(path, { residentVectors: true });
    // The build reads in chunks between turns of the event loop; a write lands meanwhile.
    const query = deterministicVectors(1, 7, 9)[0]!;
    const { memory } = await other.remember(
      { content: 'during the build', projectKey: 'p' },
      { vector: vectorOf('sentence-b', query) },
    );
    await mirrored.vectorMirror!.settled();
    expect(mirrored.vectorMirror!.status()).toMatchObject({ state: 'stale', builds: 0 });
    const hits = await mirrored.searchVector(vectorOf('sentence-b', query), { limit: 1 });
    expect(hits.map((h) => h.id)).toEqual([memory.id]);
    await mirrored.vectorMirror!.settled();
    expect(mirrored.vectorMirror!.status()).toMatchObject({ state: 'ready', builds: 1 });
    expect(await mirrored.searchVector(vectorOf('sentence-b', query), { limit: 1 })).toEqual(hits);
  });

  it('takes the writes of its own connection made while it loads, and needs no second build', async () => {
    const path = freshPath();
    const plain = await open(path);
    await populate(plain, 8);
    const mirrored = await open(path, { residentVectors: true });
    expect(mirrored.vectorMirror!.status().state).toBe('loading');
    const ids = (await mirrored.listMemories({ limit: 600 })).map((m) => m.id);
    const fresh = deterministicVectors(30, 16, 81);
    for (let i = 0; i < 10; i++)
      await mirrored.setVector(ids[i]!, vectorOf('sentence-a', fresh[i]!));
    for (let i = 10; i < 20; i++) await mirrored.forget(ids[i]!);
    for (let i = 20; i < 30; i++) {
      await mirrored.remember(
        { content: `while loading ${i}`, projectKey: 'proj-big' },
        { vector: vectorOf('sentence-a', fresh[i]!) },
      );
    }
    await mirrored.remember(
      { content: 'a new space', projectKey: 'p' },
      { vector: vectorOf('late-model', [1, 2, 3]) },
    );
    expect(mirrored.vectorMirror!.status().state).toBe('loading');
    await mirrored.vectorMirror!.settled();
    expect(mirrored.vectorMirror!.status()).toMatchObject({ state: 'ready', builds: 1 });
    await expectSameAnswers(mirrored, plain, 82);
    const late = await mirrored.searchVector(vectorOf('late-model', [1, 2, 3]), { limit: 3 });
    expect(late).toHaveLength(1);
    expect(late).toEqual(await plain.searchVector(vectorOf('late-model', [1, 2, 3]), { limit: 3 }));
  });

  it('is off unless asked for, and gone once the store closes', async () => {
    const path = freshPath();
    const plain = await open(path);
    expect(plain.vectorMirror).toBeUndefined();
    const mirrored = await openMirrored(path);
    await mirrored.close();
    expect(mirrored.vectorMirror!.status()).toMatchObject({ state: 'closed', spaces: [] });
  });

  it('leaves a space that does not fit its memory budget on vec0, still exact', async () => {
    const path = freshPath();
    const plain = await open(path);
    await populate(plain, 7);
    // Room for nothing: every space is skipped, every query answered by vec0.
    const { SqliteVectorMirror } = await import('./sqlite-vector-mirror.js');
    const { connectSqlite } = await import('./open-sqlite-store.js');
    const db = connectSqlite(path);
    try {
      const mirror = new SqliteVectorMirror(db, { maxBytes: 1024 });
      mirror.start();
      await mirror.settled();
      expect(mirror.status().spaces).toEqual([]);
      expect(mirror.status().skipped).toHaveLength(3);
      expect(mirror.nearest('vec_1', new Float32Array(16).fill(1), 10)).toBeUndefined();
      mirror.close();
    } finally {
      db.close();
    }
  });
});

it('reports a build that fails to its owner and keeps answering through vec0', async () => {
  const { SqliteVectorMirror } = await import('./sqlite-vector-mirror.js');
  const { connectSqlite } = await import('./open-sqlite-store.js');
  // A file that is no store: the build's first read fails.
  const db = connectSqlite(join(dir, `not-a-store-${++counter}.db`));
  try {
    const reported: [string, string][] = [];
    const mirror = new SqliteVectorMirror(db, {
      onError: (what, error) => reported.push([what, String(error)]),
    });
    mirror.start();
    await mirror.settled();
    expect(reported).toEqual([
      ['build failed; vec0 answers', expect.stringMatching(/no such table: vector_spaces/)],
    ]);
    expect(mirror.status().state).toBe('stale');
    expect(mirror.nearest('vec_1', new Float32Array(16).fill(1), 10)).toBeUndefined();
    mirror.close();
  } finally {
    db.close();
  }
});

async function plainCounts(path: string): Promise<number[]> {
  const { connectSqlite } = await import('./open-sqlite-store.js');
  const { vectorCounts } = await import('./sqlite-vectors.js');
  const db = connectSqlite(path);
  try {
    return vectorCounts(db).map((c) => c.rows);
  } finally {
    db.close();
  }
}

const paths = new WeakMap<MemoryStore, string>();

describe('sqlite store contract (search and writes) with resident vectors', () => {
  const h = createHarness({
    name: 'sqlite, resident vectors',
    open: async (options = {}) => {
      const path = freshPath();
      const store = (await openSqliteStore({
        ...options,
        path,
        residentVectors: true,
      })) as SqliteMemoryStore;
      paths.set(store, path);
      await store.vectorMirror!.settled();
      return store;
    },
    inspect: (store) => Promise.resolve(inspectSqliteFile(paths.get(store) ?? '')),
  });
  describeSearchContract(h);
  describeCrudContract(h);
});
