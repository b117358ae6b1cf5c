/**
 * Fuzz: generated hostile hook payloads (threat model W9) against the built hooks. Every case must end
 * with exit code 0, stdout empty or exactly one well-formed JSON object, inside the hook's deadline, and
 * the store must pass its integrity check afterwards.
 *
 * Sizing: 10,000 cases run in one process through the built bundles (`dist/hook-bundles/<event>.cjs`,
 * the code a hook process runs) and the built `runHook` with its stdin/stdout/exit seams, because 10,000
 * process starts would cost CI many minutes; a seeded sample of the same cases also runs as real
 * `mnemo hook <event>` processes, as `mnemo install` registered them, to prove the process edge. The seed
 * is printed with every failure; replay one with MNEMO_TEST_SEED=<seed>.
 */
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';

import { fuzzCases } from '../helpers/fuzz-payloads.js';
import { REPO_ROOT, type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { installHooks, runRegisteredHook } from '../helpers/registered-hooks.js';
import { testSeed } from '../helpers/seeded.js';
import { storeState } from '../helpers/store-state.js';

const newHome = useTestHomes();

// MNEMO_FUZZ_CASES raises (or lowers, while iterating) the in-process count; CI runs the default.
const IN_PROCESS_CASES = Number(process.env['MNEMO_FUZZ_CASES'] ?? 10_000);
const PROCESS_CASES = 200;
/** The deadline the in-process runs use; a hook that would outlive it calls `exit(0)` at it. */
const DEADLINE_MS = 1500;

interface BuiltHook {
  spec: unknown;
}
type RunHook = (
  spec: unknown,
  options: {
    stdin: AsyncIterable<Uint8Array>;
    stdout: { write(text: string): unknown };
    env: NodeJS.ProcessEnv;
    setExitCode: (code: number) => void;
    exit: (code: number) => void;
    deadlineMs: number;
    startEngine: () => Promise<void>;
  },
) => Promise<number>;

async function loadBuilt(): Promise<{ runHook: RunHook; specs: Map<string, unknown> }> {
  const url = (path: string) => pathToFileURL(`${REPO_ROOT}/${path}`).href;
  const { runHook } = (await import(url('dist/hooks/run-hook.js'))) as { runHook: RunHook };
  const specs = new Map<string, unknown>();
  for (const event of [
    'post-tool-use',
    'post-tool-use-failure',
    'pre-tool-use',
    'user-prompt-submit',
    'session-start',
    'pre-compact',
    'session-end',
  ]) {
    // The bundles are CommonJS: their exports are the namespace's default.
    const bundle = (await import(url(`dist/hook-bundles/${event}.cjs`))) as { default: BuiltHook };
    specs.set(event, bundle.default.spec);
  }
  return { runHook, specs };
}

/** Stdout of a hook: nothing, or one JSON object followed by a newline. */
function wellFormed(stdout: string): boolean {
  if (stdout === '') return true;
  if (!stdout.endsWith('\n')) return false;
  try {
    const parsed: unknown = JSON.parse(stdout);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

function fuzzHome(): TestHome {
  const t = newHome();
  t.env['MNEMO_EMBEDDING_MODEL'] = 'hash';
  return t;
}

describe('fuzzed hook payloads', () => {
  it(`${IN_PROCESS_CASES} generated payloads through the built hook bundles: exit 0, quiet or well-formed, inside the deadline`, async () => {
    const seed = testSeed();
    const t = fuzzHome();
    expect((await t.run(['stats'])).code).toBe(0);
    const { runHook, specs } = await loadBuilt();
    const cases = fuzzCases(t.project, IN_PROCESS_CASES, seed);
    const failures: string[] = [];
    const kinds = new Map<string, number>();
    let deadlines = 0;
    let slowest = 0;
    for (const [index, fuzz] of cases.entries()) {
      kinds.set(fuzz.kind, (kinds.get(fuzz.kind) ?? 0) + 1);
      let stdout = '';
      const codes: number[] = [];
      let exitedAtDeadline = false;
      const started = Date.now();
      const code = await runHook(specs.get(fuzz.event), {
        stdin: Readable.from([fuzz.bytes]),
        stdout: { write: (text) => (stdout += text) },
        env: { ...t.env },
        setExitCode: (c) => codes.push(c),
        exit: (c) => {
          codes.push(c);
          exitedAtDeadline = true;
        },
        deadlineMs: DEADLINE_MS,
        startEngine: () => Promise.resolve(),
      });
      const elapsed = Date.now() - started;
      if (exitedAtDeadline) deadlines += 1;
      slowest = Math.max(slowest, elapsed);
      // The deadline timer fires on time only when the event loop is free; a synchronous step (a
      // SQLite busy wait, a regex over a large field) can hold it, so allow one busy timeout of slack.
      const late = elapsed > DEADLINE_MS + 1000;
      if (code !== 0 || codes.some((c) => c !== 0) || !wellFormed(stdout) || late) {
        failures.push(
          `seed ${seed} case ${index} (${fuzz.event}, ${fuzz.kind}, ${fuzz.bytes.length} bytes): ` +
            `code ${code}, exit codes [${codes.join(',')}], ${elapsed} ms, stdout ${JSON.stringify(stdout.slice(0, 200))}`,
        );
      }
    }
    console.log(
      `hook fuzz seed ${seed}: ${cases.length} cases (${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}); ` +
        `${deadlines} reached the deadline, slowest ${slowest} ms`,
    );
    const state = await storeState(t.home);
    console.log(
      `hook fuzz seed ${seed}: ${state.memories.length} memories stored by the valid-shaped cases`,
    );
    expect(failures.slice(0, 20), `seed ${seed}`).toEqual([]);
    expect(state.problems, `seed ${seed}`).toEqual([]);
  }, 900_000);

  it(`${PROCESS_CASES} of them through the registered mnemo hook processes`, async () => {
    const seed = testSeed();
    const t = fuzzHome();
    const hooks = await installHooks(t);
    const cases = fuzzCases(t.project, PROCESS_CASES, seed);
    const failures: string[] = [];
    for (const [index, fuzz] of cases.entries()) {
      const result = await runRegisteredHook(t, hooks, fuzz.event, fuzz.bytes, {
        MNEMO_HOOK_DEADLINE_MS: String(DEADLINE_MS),
      });
      if (result.code !== 0 || result.signal !== null || !wellFormed(result.stdout)) {
        failures.push(
          `seed ${seed} case ${index} (${fuzz.event}, ${fuzz.kind}, ${fuzz.bytes.length} bytes): ` +
            `code ${result.code}, signal ${result.signal}, stdout ${JSON.stringify(result.stdout.slice(0, 200))}, ` +
            `stderr ${JSON.stringify(result.stderr.slice(0, 200))}`,
        );
      }
    }
    expect(failures, `seed ${seed}`).toEqual([]);
    expect((await storeState(t.home)).problems, `seed ${seed}`).toEqual([]);
  }, 600_000);
});
