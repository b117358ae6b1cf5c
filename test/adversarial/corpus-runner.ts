/**
 * Runs adversarial corpus cases (threat model §3) through the real entry points: the BUILT `mnemo hook …`
 * binary for hook events, the built CLI for user cases, and — until the MCP server exists — the MCP
 * `remember` path as the server will run it: `resolveAgentTaint` + `writeMemory` with an `mcp_remember`
 * envelope. Then it reads back what happened: rows, counters, session taint, the log, and the raw bytes of
 * the database file and its WAL.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { injectionEligibility } from '../../src/core/gate/injection-eligibility.js';
import type { Memory } from '../../src/core/memory.js';
import { resolveProjectKey } from '../../src/project/project-key.js';
import { foldTallies, hasTallies } from '../../src/spool/spool-tally.js';
import { readCluster } from '../../src/write/fragment-cluster.js';
import { resolveAgentTaint } from '../../src/write/resolve-agent-taint.js';
import { writeMemory } from '../../src/write/write-memory.js';
import { writeDepsFrom } from '../../src/write/write-policy.js';
import { HOOK_TEST_ENV } from '../helpers/hook-fixtures.js';
import type { TestHome } from '../helpers/mnemo-bin.js';
import { everything, openTestApp } from '../helpers/test-app.js';

/** The session every hook payload belongs to unless it names another. */
export const CORPUS_SESSION = 'adv-session-0001';

const step = z.looseObject({
  via: z.enum(['hook', 'cli', 'mcp_remember']),
  event: z.string().optional(),
  payload: z.unknown().optional(),
  raw: z.unknown().optional(),
  repeat: z.int().min(1).max(500).optional(),
  args: z.array(z.unknown()).optional(),
  content: z.unknown().optional(),
  force: z.boolean().optional(),
  claims: z.record(z.string(), z.unknown()).optional(),
});
type Step = z.infer<typeof step>;

const expected = z.strictObject({
  stored: z.boolean().optional(),
  origin: z.string().optional(),
  kind: z.string().optional(),
  trust_band: z.string().optional(),
  quarantine: z.string().optional(),
  bypass: z.boolean().optional(),
  gate_reason: z.string().optional(),
  tainted: z.boolean().optional(),
  injectable: z.enum(['never', 'session_start']).optional(),
  row_count: z.int().optional(),
  session_tainted: z.boolean().optional(),
  counters: z.record(z.string(), z.int()).optional(),
  content_contains: z.array(z.unknown()).optional(),
  content_not_contains: z.array(z.unknown()).optional(),
  db_bytes_not_contains: z.array(z.unknown()).optional(),
  log_contains: z.array(z.string()).optional(),
  /** Members of the largest fragment cluster among the stored rows (0: none is in a cluster). */
  cluster_size: z.int().min(0).optional(),
});
/** What a case expects; every field is optional and checked only when present. */
export type Expected = z.infer<typeof expected>;

const corpusCase = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]+$/),
  category: z.enum(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J']),
  channel: z.string(),
  setup: z.strictObject({
    config: z.record(z.string(), z.unknown()).optional(),
    steps: z.array(step).optional(),
  }),
  payload: step,
  expected,
  twin_of: z.string().nullable(),
  provenance: z.enum(['synthetic', 'sanitized']),
});
/** One corpus line. */
export type CorpusCase = z.infer<typeof corpusCase>;

/** Loads and validates one JSONL file of test/fixtures/adversarial. */
export function loadCorpus(file: string): CorpusCase[] {
  const text = readFileSync(new URL(`../fixtures/adversarial/${file}`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line, index) => {
      const parsed = corpusCase.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${file}:${index + 1}: ${parsed.error.message}`);
      return parsed.data;
    });
}

/**
 * Expands the generator directives a corpus line may use: `{"$concat": [...]}` (secrets are stored in
 * pieces so no scanner flags the fixture), `{"$repeat": s, "count": n}`, `{"$base64": v}`; `$CWD` in
 * strings becomes the project directory and `$i` the repetition index.
 */
export function materialise(value: unknown, vars: { cwd: string; i: number }): unknown {
  if (typeof value === 'string') {
    return value.split('$CWD').join(vars.cwd).split('$i').join(String(vars.i));
  }
  if (Array.isArray(value)) return value.map((item) => materialise(item, vars));
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if ('$concat' in record) {
      return (record['$concat'] as unknown[])
        .map((part) => String(materialise(part, vars)))
        .join('');
    }
    if ('$repeat' in record) return String(record['$repeat']).repeat(Number(record['count']));
    if ('$base64' in record) {
      return Buffer.from(String(materialise(record['$base64'], vars))).toString('base64');
    }
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, materialise(v, vars)]));
  }
  return value;
}

const EVENT_NAMES: Record<string, string> = {
  'post-tool-use': 'PostToolUse',
  'post-tool-use-failure': 'PostToolUseFailure',
  'pre-tool-use': 'PreToolUse',
  'user-prompt-submit': 'UserPromptSubmit',
};

/** What one case run left behind. */
export interface Observed {
  /** Hook and CLI runs that did not exit 0, or hook runs that printed anything. */
  processProblems: string[];
  /** Rows created by the case's own payload step (not by the setup). */
  newRows: Memory[];
  allRows: Memory[];
  counters: Record<string, number>;
  sessionTainted: boolean;
  /** Stored rows per fragment cluster id, read back from the audit trail. */
  clusters: Record<string, number>;
  log: string;
  dbBytes: Buffer;
}

async function runStep(home: TestHome, raw: Step, problems: string[]): Promise<void> {
  const times = raw.repeat ?? 1;
  for (let i = 0; i < times; i++) {
    const s = materialise(raw, { cwd: home.project, i }) as Step;
    if (s.via === 'hook') {
      const event = s.event ?? '';
      let input: string;
      if (raw.raw !== undefined) {
        const depth = Number((raw.raw as { $deep?: number }).$deep ?? 0);
        input = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      } else {
        input = JSON.stringify({
          session_id: CORPUS_SESSION,
          transcript_path: '/home/dev/.claude/projects/adv/adv-session-0001.jsonl',
          cwd: home.project,
          hook_event_name: EVENT_NAMES[event] ?? event,
          ...(s.payload as Record<string, unknown>),
        });
      }
      const result = await home.run(['hook', event], { input, env: HOOK_TEST_ENV });
      if (result.code !== 0 || result.stdout !== '') {
        problems.push(
          `hook ${event}: exit ${result.code}, stdout ${JSON.stringify(result.stdout.slice(0, 80))}`,
        );
      }
    } else if (s.via === 'cli') {
      const result = await home.run((s.args ?? []).map(String));
      if (result.code !== 0)
        problems.push(`cli ${String(s.args?.[0])}: exit ${result.code}: ${result.stderr}`);
    } else {
      const app = await openTestApp(home.home);
      try {
        const content = String(s.content);
        const taint = await resolveAgentTaint(app.store, content, { log: app.log });
        await writeMemory(writeDepsFrom(app), {
          envelope: { channel: 'mcp_remember', tainted: taint.tainted },
          content,
          projectKey: resolveProjectKey(home.project),
          sessionId: taint.sessionId,
          originTool: 'mcp__mnemo__remember',
          force: s.force,
          claims: s.claims,
        });
      } finally {
        await app.close();
      }
    }
  }
}

async function readStore(home: TestHome): Promise<{
  rows: Memory[];
  counters: Record<string, number>;
  sessionTainted: boolean;
  clusters: Record<string, number>;
}> {
  const tallies = hasTallies(join(home.home, 'spool'));
  if (!existsSync(home.dbPath) && !tallies)
    return { rows: [], counters: {}, sessionTainted: false, clusters: {} };
  const app = await openTestApp(home.home);
  try {
    // Skips a hook counted without opening the store, added as `mnemo stats` adds them.
    await foldTallies(app);
    const { rows, counters } = await everything(app);
    const sessionTainted = (await app.store.getSessionTaint(CORPUS_SESSION)).tainted;
    const clusters: Record<string, number> = {};
    for (const row of rows) {
      const cluster = await readCluster(app.store, row.id);
      if (cluster !== undefined)
        clusters[cluster.clusterId] = (clusters[cluster.clusterId] ?? 0) + 1;
    }
    return { rows, counters, sessionTainted, clusters };
  } finally {
    await app.close();
  }
}

/** Runs one case in the given fresh home. `detectors: 'off'` switches every content detector off. */
export async function runCase(
  home: TestHome,
  testCase: CorpusCase,
  options: { detectors: 'on' | 'off' },
): Promise<Observed> {
  const config = {
    ...testCase.setup.config,
    ...(options.detectors === 'off' ? { detectors: 'off' } : {}),
  };
  mkdirSync(home.home, { recursive: true });
  writeFileSync(join(home.home, 'config.json'), JSON.stringify(config));
  const problems: string[] = [];
  for (const s of testCase.setup.steps ?? []) await runStep(home, s, problems);
  const before = new Set((await readStore(home)).rows.map((row) => row.id));
  await runStep(home, testCase.payload, problems);
  // Raw bytes first, before this process opens the file: main database plus write-ahead log.
  const dbBytes = Buffer.concat(
    [home.dbPath, `${home.dbPath}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)),
  );
  const { rows, counters, sessionTainted, clusters } = await readStore(home);
  const logFile = join(home.home, 'logs', 'mnemo.log');
  return {
    processProblems: problems,
    newRows: rows.filter((row) => !before.has(row.id)),
    allRows: rows,
    counters,
    sessionTainted,
    clusters,
    log: existsSync(logFile) ? readFileSync(logFile, 'utf8') : '',
    dbBytes,
  };
}

/** The injectability of a stored memory: proactive (session start) or never. */
export function injectable(memory: Memory): 'session_start' | 'never' {
  return injectionEligibility(memory).eligible ? 'session_start' : 'never';
}

/** The outcome fields that must not depend on content detectors (threat model §3 gate 3). */
export function securityProjection(observed: Observed): unknown {
  return {
    stored: observed.newRows.length > 0,
    rows: observed.newRows.map((row) => ({
      origin: row.origin,
      quarantine: row.quarantine,
      tainted: row.tainted,
      trustBand: row.trustBand,
      injectable: injectable(row),
    })),
    rowCount: observed.allRows.length,
    sessionTainted: observed.sessionTainted,
  };
}

/** Every way `observed` misses `expected` (empty when it meets it). `ignore` skips fields. */
export function mismatches(
  testCase: CorpusCase,
  observed: Observed,
  ignore: readonly (keyof Expected)[] = [],
): string[] {
  const e = testCase.expected;
  const out = [...observed.processProblems];
  const row = observed.newRows[0];
  const check = (name: keyof Expected, actual: unknown, wanted: unknown): void => {
    if (wanted === undefined || ignore.includes(name)) return;
    if (actual !== wanted)
      out.push(`${name}: expected ${JSON.stringify(wanted)}, got ${JSON.stringify(actual)}`);
  };
  check('stored', observed.newRows.length > 0, e.stored);
  check('row_count', observed.allRows.length, e.row_count);
  check('session_tainted', observed.sessionTainted, e.session_tainted);
  check('cluster_size', Math.max(0, ...Object.values(observed.clusters)), e.cluster_size);
  check('origin', row?.origin, e.origin);
  check('kind', row?.kind, e.kind);
  check('trust_band', row?.trustBand, e.trust_band);
  check('quarantine', row?.quarantine, e.quarantine);
  check('tainted', row?.tainted, e.tainted);
  check('gate_reason', row?.gateReason, e.gate_reason);
  check('bypass', row === undefined ? undefined : row.gateReason === 'bypass_cue', e.bypass);
  check('injectable', row === undefined ? undefined : injectable(row), e.injectable);
  for (const [name, value] of Object.entries(e.counters ?? {})) {
    check('counters', `${name}=${observed.counters[name] ?? 0}`, `${name}=${value}`);
  }
  const vars = { cwd: '', i: 0 };
  const contents = observed.newRows.map((r) => r.content).join('\n');
  for (const needle of e.content_contains ?? []) {
    const text = String(materialise(needle, vars));
    if (!contents.includes(text)) out.push(`content lacks ${JSON.stringify(text.slice(0, 60))}`);
  }
  for (const needle of e.content_not_contains ?? []) {
    const text = String(materialise(needle, vars));
    if (contents.includes(text)) out.push(`content contains ${JSON.stringify(text.slice(0, 60))}`);
  }
  if (!ignore.includes('db_bytes_not_contains')) {
    for (const needle of e.db_bytes_not_contains ?? []) {
      const text = String(materialise(needle, vars));
      // Never print the planted secret itself, only where it failed.
      if (observed.dbBytes.includes(Buffer.from(text, 'utf8')))
        out.push(
          `db bytes contain planted secret #${(e.db_bytes_not_contains ?? []).indexOf(needle)}`,
        );
    }
  }
  for (const needle of e.log_contains ?? []) {
    if (!observed.log.includes(needle)) out.push(`log lacks ${JSON.stringify(needle)}`);
  }
  return out;
}

/**
 * Registers one test per attack case of `file`: every expectation must hold (gate 1). With
 * `detectorIndependence`, each case runs a second time with `detectors: "off"` and its origin,
 * quarantine, taint, injectability and stored/not must be identical (gate 3).
 */
export function describeAttackCases(
  file: string,
  newHome: () => TestHome,
  options: { detectorIndependence: boolean },
): void {
  const cases = loadCorpus(file);
  describe(`adversarial corpus ${file}`, () => {
    it.each(cases.map((c) => [c.id, c] as const))(
      '%s meets its expectations',
      async (_id, testCase) => {
        const on = await runCase(newHome(), testCase, { detectors: 'on' });
        expect(mismatches(testCase, on)).toEqual([]);
        if (!options.detectorIndependence) return;
        const off = await runCase(newHome(), testCase, { detectors: 'off' });
        expect(securityProjection(off)).toEqual(securityProjection(on));
        expect(mismatches(testCase, off, ['bypass', 'gate_reason'])).toEqual([]);
      },
      600_000,
    );
  });
}
