/**
 * Doctor checks of the working parts: the store opens and passes its integrity check, the embedder loads
 * and embeds, and a remember → recall → render round trip works end to end in a scratch store.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { App } from '../app/open-app.js';
import { openerLine } from '../core/render/frame.js';
import { renderMemories } from '../core/render/render-memories.js';
import { toRenderItem } from '../mcp/render-for-model.js';
import { retrieve } from '../retrieval/retrieve.js';
import { writeMemory } from '../write/write-memory.js';
import { writeDepsFrom } from '../write/write-policy.js';
import { fail, pass } from './doctor-check.js';

/** Node 20 or later. */
export function checkNode(version: string) {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1] ?? 0);
  return major >= 20
    ? pass(`Node ${version}`)
    : fail(`Node ${version} is too old`, 'Install Node 20 or later.');
}

/** Backend, schema version and integrity findings of the store. */
export async function checkStore(app: App) {
  const problems = await app.store.checkIntegrity();
  const { backend, location, notes } = app.store.description;
  const version = app.store.schemaVersion;
  const data = { backend, location, path: location, schemaVersion: version, notes, problems };
  if (problems.length > 0) {
    return fail(
      `${backend} store ${location} (schema v${version}) has ${problems.length} problem(s): ${problems.slice(0, 5).join('; ')}`,
      app.config.databaseUrl === null
        ? 'Stop Claude Code sessions and the engine (`mnemo serve --stop`), then run `mnemo restore`: it ' +
            'keeps this file aside and restores the newest backup that passes its check. Without a ' +
            'backup, `mnemo export` what still reads and `mnemo import` it into a fresh store.'
        : 'Stop Claude Code sessions and back the schema up (pg_dump), then `mnemo export` what still ' +
            'reads and `mnemo import` it into a fresh store, or restore with the server’s own tools.',
      data,
    );
  }
  const told = notes.length === 0 ? '' : `; ${notes.join('; ')}`;
  return pass(`${backend} store ${location} opens, schema v${version}, integrity ok${told}`, data);
}

/** The configured embedder loads and returns a vector of its declared dimension. */
export async function checkEmbedder(app: App) {
  const { openEmbedder } = await import('../embed/open-embedder.js');
  const embedder = await openEmbedder(app.config);
  const [vector] = await embedder.embed(['mnemo doctor embedding check']);
  if (vector === undefined || vector.length !== embedder.dims) {
    return fail(
      `${embedder.model} returned ${vector?.length ?? 0} values, expected ${embedder.dims}`,
      'Reinstall the model (`mnemo model pull <id>`) or switch back with `mnemo model use use-lite-512`.',
    );
  }
  return pass(`${embedder.model} loads, ${embedder.dims} dimensions`);
}

const ROUND_TRIP_TEXT = 'mnemo doctor round trip: the staging database is called heliotrope';

/**
 * Remember → recall → render in a throwaway store, so the check never touches the user's memories.
 * `openScratch` opens an app whose home is the given directory.
 */
export async function checkRoundTrip(openScratch: (home: string) => Promise<App>) {
  const home = mkdtempSync(join(tmpdir(), 'mnemo-doctor-'));
  try {
    const app = await openScratch(home);
    try {
      const projectKey = join(home, 'scratch-project');
      const outcome = await writeMemory(writeDepsFrom(app), {
        content: ROUND_TRIP_TEXT,
        projectKey,
        visibility: 'project',
        kind: 'note',
        tags: [],
        envelope: { channel: 'cli' },
        originTool: 'cli',
      });
      if (outcome.decision !== 'store') {
        return fail(
          `the write was refused (${outcome.reason})`,
          'Run `mnemo --verbose doctor` and read the log.',
        );
      }
      const hits = await retrieve(
        { store: app.store, clock: app.clock },
        {
          query: 'staging database heliotrope',
          scope: { projectKey, includeGlobal: true },
          limit: 3,
        },
      );
      if (hits[0]?.memory.id !== outcome.memory.id) {
        return fail(
          'recall did not return the memory just stored',
          'Run `mnemo --verbose doctor` and read the log.',
        );
      }
      const nonce = randomBytes(16).toString('hex');
      const text = renderMemories(
        hits.map((hit) => toRenderItem(hit.memory)),
        { nonce },
      );
      const framed = text.startsWith(openerLine(nonce)) && text.includes(`> ${ROUND_TRIP_TEXT}`);
      return framed
        ? pass('remember → recall → render works in a scratch store')
        : fail(
            'the rendered recall is not framed as expected',
            'Reinstall mnemo; this build is damaged.',
          );
    } finally {
      await app.close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
