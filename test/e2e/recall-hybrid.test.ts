import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { openRawSqlite } from '../fixtures/sqlite/raw-sqlite.js';
import { useTestHomes } from '../helpers/mnemo-bin.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { writeTinyEncoder } from '../helpers/tiny-onnx-model.js';

const newHome = useTestHomes();
const tempDir = useTempDirs();
const HASH = { MNEMO_EMBEDDING_MODEL: 'hash' };

interface JsonHit {
  memory: { id: string; content: string; origin: string; embeddingModel: string | null };
  score: number;
  ranks: Record<string, number>;
  trustBand: string;
  factors: { recency: number; heat: number; trust: number };
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) =>
    server === undefined ? resolve() : server.close(() => resolve()),
  );
  server = undefined;
});

describe('mnemo recall (hybrid)', () => {
  it('prints per-signal ranks, factors and legs with --explain --json', async () => {
    const t = newHome();
    await t.run(['remember', 'Set NODE_ENV=production before the build'], { env: HASH });
    await t.run(['remember', 'the build runs on CI'], { env: HASH });
    const result = await t.run(['recall', 'NODE_ENV', 'build', '--explain', '--json'], {
      env: HASH,
    });
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout) as {
      hits: JsonHit[];
      explain: {
        legs: { name: string; ran: boolean; skipped?: string }[];
        rerank: { ran: boolean };
      };
    };
    expect(body.hits[0]?.memory.content).toContain('NODE_ENV');
    expect(Object.keys(body.hits[0]!.ranks).sort()).toEqual(['identifier', 'lexical', 'vector']);
    expect(body.hits[0]).toMatchObject({ trustBand: 'high', factors: { trust: 1 } });
    expect(body.hits[0]?.memory.embeddingModel).toBe('hash-v1-256');
    expect(body.explain.legs.map((l) => [l.name, l.ran])).toEqual([
      ['lexical', true],
      ['vector', true],
      ['words', false],
      ['identifier', true],
      ['concept', false],
    ]);
    expect(body.explain.legs.find((l) => l.name === 'words')?.skipped).toMatch(/mnemo model words/);
    expect(body.explain.rerank.ran).toBe(false);
  });

  it('explains each hit in the terminal and applies --kind and --tag', async () => {
    const t = newHome();
    await t.run(['remember', 'deploy with make deploy', '--kind', 'decision', '--tag', 'ops'], {
      env: HASH,
    });
    await t.run(['remember', 'deploy notes from the retro'], { env: HASH });
    const human = await t.run(['recall', 'deploy', '--explain'], { env: HASH });
    expect(human.stdout).toMatch(
      /^legs: lexical 2; vector 2 \(hash-v1-256\); words off \(no word-vector table[^)]*\)\); identifier 2/,
    );
    expect(human.stdout).toMatch(
      /score [01]\.\d+ = fused rank [01]\.\d+ × recency 1\.000 × heat \d\.\d+ × trust 1\.00/,
    );
    expect(human.stdout).toMatch(
      /ranks: lexical #\d, vector #\d, words -, identifier #\d, concept -, rerank -; origin user \(high\)/,
    );
    const kind = await t.run(['recall', 'deploy', '--kind', 'decision', '--json'], { env: HASH });
    expect(
      (JSON.parse(kind.stdout) as { hits: JsonHit[] }).hits.map((h) => h.memory.content),
    ).toEqual(['deploy with make deploy']);
    const tag = await t.run(['recall', 'deploy', '--tag', 'nope', '--json'], { env: HASH });
    expect((JSON.parse(tag.stdout) as { hits: JsonHit[] }).hits).toEqual([]);
    const badKind = await t.run(['recall', 'deploy', '--kind', 'bogus'], { env: HASH });
    expect(badKind.code).toBe(1);
    expect(badKind.stderr).toMatch(/Allowed choices are note, decision/);
  });

  it('degrades to lexical legs with a warning when the configured model is missing', async () => {
    const t = newHome();
    await t.run(['remember', 'postgres on 5433']);
    const result = await t.run(['recall', 'postgres', '--json'], {
      env: { MNEMO_EMBEDDING_MODEL: 'nobody/absent-model' },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /vector search is off for this recall: The model directory .* is incomplete/,
    );
    expect((JSON.parse(result.stdout) as { hits: JsonHit[] }).hits).toHaveLength(1);
  });
});

describe('mnemo reembed', () => {
  it('resumes after a bounded run and embeds every memory exactly once', async () => {
    const t = newHome();
    for (const n of [1, 2, 3, 4, 5]) await t.run(['remember', `memory number ${n}`]);
    const first = await t.run(['reembed', '--model', 'hash', '--limit', '2']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /Embedded 2 memories with hash-v1-256\. 3 left: run `mnemo reembed` again/,
    );
    expect(first.stderr).toMatch(/reembed hash-v1-256 \[#+\.*\] 2\/2/);
    const second = await t.run(['reembed', '--model', 'hash']);
    expect(second.stdout).toMatch(/^Embedded 3 memories with hash-v1-256\.\n$/);
    const third = await t.run(['reembed', '--model', 'hash']);
    expect(third.stdout).toMatch(/Every memory already has a hash-v1-256 vector/);
    const db = openRawSqlite(t.dbPath);
    try {
      const writes = db
        .prepare("SELECT count(*) FROM audit_log WHERE action = 'set-vector'")
        .pluck()
        .get();
      expect(writes).toBe(5);
    } finally {
      db.close();
    }
  });
});

describe('mnemo model', () => {
  it('fails fast with the offline alternative when the hub cannot be reached', async () => {
    // A port that was just free: connecting is refused at once, as an unreachable hub would be.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const t = newHome();
    const result = await t.run(['model', 'pull', 'Xenova/all-MiniLM-L6-v2'], {
      env: { MNEMO_MODEL_HOST: `http://127.0.0.1:${port}` },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /Cannot reach the model hub at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\); this machine may be offline\. Copy a model directory to .*models\/Xenova\/all-MiniLM-L6-v2/,
    );
    const listed = await t.run(['model', 'list', '--json']);
    expect((JSON.parse(listed.stdout) as { cached: unknown[] }).cached).toEqual([]);
  });

  it('pulls a model with a progress bar, switches to it and recalls with its vectors', async () => {
    const source = writeTinyEncoder(join(tempDir(), 'src'), {
      words: ['deploy', 'staging', 'production', 'postgres', 'port'],
      dims: 8,
    });
    server = createServer((req, res) => {
      const file = /^\/tests\/tiny\/resolve\/main\/(.+)$/.exec(req.url ?? '')?.[1];
      try {
        const body = readFileSync(join(source, file ?? 'none'));
        res.writeHead(200, { 'content-length': body.length }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const t = newHome();
    const pulled = await t.run(['model', 'pull', 'tests/tiny'], {
      env: { MNEMO_MODEL_HOST: host },
    });
    expect(pulled.code).toBe(0);
    expect(pulled.stderr).toMatch(/pull tests\/tiny \[#{24}\] \d+\/\d+ KiB onnx\/model\.onnx/);
    expect((await t.run(['model', 'use', 'absent/model'])).stderr).toMatch(
      /No complete model absent\/model/,
    );
    const used = await t.run(['model', 'use', 'tests/tiny']);
    expect(used.stdout).toMatch(/Embedder set to tests\/tiny\./);
    expect((await t.run(['model', 'list'])).stdout).toMatch(
      /\* tests\/tiny {2}encoder, 8-d, onnx\/model\.onnx/,
    );
    await t.run(['remember', 'deploy to staging first']);
    const recalled = await t.run(['recall', 'deploy', 'staging', '--json']);
    const hit = (JSON.parse(recalled.stdout) as { hits: JsonHit[] }).hits[0];
    expect(hit?.memory.embeddingModel).toBe('tests/tiny');
    expect(hit?.ranks.vector).toBe(1);
  });
});
