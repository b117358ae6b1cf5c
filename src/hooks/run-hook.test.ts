import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';

import * as v from 'valibot';
import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import type { Config } from '../config/config.js';
import { MemoryError } from '../core/errors.js';
import { HOOK_NAMES } from './hook-names.js';
import {
  type HookSpec,
  leadingSessionId,
  runHook,
  type RunHookOptions,
  SPOOLING_HOOK_BUSY_TIMEOUT_MS,
} from './run-hook.js';

const tempDir = useTempDirs();

interface Harness {
  options: RunHookOptions;
  stdout: () => string;
  exits: number[];
  codes: number[];
  log: () => string;
}

function harness(input: string | Buffer, extra: Partial<RunHookOptions> = {}): Harness {
  const home = tempDir('mnemo-run-hook-');
  const out: string[] = [];
  const exits: number[] = [];
  const codes: number[] = [];
  return {
    options: {
      stdin: Readable.from([typeof input === 'string' ? Buffer.from(input) : input]),
      stdout: { write: (text: string) => out.push(text) },
      // No background engine from a unit test; the start itself is tested through `startEngine`.
      env: { MNEMO_HOME: home, MNEMO_ENGINE_AUTOSTART: '0' },
      setExitCode: (code) => codes.push(code),
      exit: (code) => exits.push(code),
      ...extra,
    },
    stdout: () => out.join(''),
    exits,
    codes,
    log: () => {
      const file = join(home, 'logs', 'mnemo.log');
      return existsSync(file) ? readFileSync(file, 'utf8') : '';
    },
  };
}

const echo: HookSpec<{ text: string }> = {
  name: 'echo',
  schema: v.looseObject({ text: v.string() }),
  handle: (input) => Promise.resolve({ stdout: input.text }),
};

describe('runHook', () => {
  it('prints exactly what the handler returns and exits 0', async () => {
    const h = harness('{"text":"context for the session","extra":{"ignored":true}}');
    expect(await runHook(echo, h.options)).toBe(0);
    expect(h.stdout()).toBe('context for the session');
    expect(h.codes).toEqual([0]);
    expect(h.exits).toEqual([]);
  });

  it('logs a failing handler and exits 0 with empty stdout', async () => {
    const failing: HookSpec<unknown> = {
      name: 'failing',
      schema: v.unknown(),
      handle: () => Promise.reject(new Error('boom in handler')),
    };
    const h = harness('{}');
    expect(await runHook(failing, h.options)).toBe(0);
    expect(h.stdout()).toBe('');
    expect(h.log()).toMatch(
      /"msg":"hook failed; exited 0 without output","hook":"failing","stage":"handle"/,
    );
    expect(h.log()).toContain('boom in handler');
  });

  it('gives up at the deadline, says the capture was not stored, and exits 0', async () => {
    const stuck: HookSpec<unknown> = {
      name: 'stuck',
      schema: v.unknown(),
      handle: () => new Promise<never>(() => undefined),
    };
    const h = harness('{}', { deadlineMs: 50 });
    expect(await runHook(stuck, h.options)).toBe(0);
    expect(h.exits).toEqual([0]);
    expect(h.stdout()).toBe('');
    expect(h.log()).toMatch(/hook deadline passed; gave up.*was not stored.*"stage":"handle"/);
  });

  it('takes the deadline from MNEMO_HOOK_DEADLINE_MS and ignores values out of range', async () => {
    const stuck: HookSpec<unknown> = {
      name: 'stuck',
      schema: v.unknown(),
      handle: () => new Promise<never>(() => undefined),
    };
    const h = harness('{}');
    const env = { ...h.options.env, MNEMO_HOOK_DEADLINE_MS: '100' };
    expect(await runHook(stuck, { ...h.options, env })).toBe(0);
    expect(h.log()).toContain('"deadlineMs":100');
    const bad = harness('{}', { deadlineMs: undefined });
    const badEnv = { ...bad.options.env, MNEMO_HOOK_DEADLINE_MS: '5' };
    const quick: HookSpec<unknown> = {
      name: 'quick',
      schema: v.unknown(),
      handle: () => Promise.resolve({}),
    };
    expect(await runHook(quick, { ...bad.options, env: badEnv })).toBe(0);
    expect(bad.exits).toEqual([]);
  });

  it('refuses input over the byte cap without running the handler', async () => {
    const h = harness(`{"text":"${'a'.repeat(500)}"}`, { maxInputBytes: 100 });
    expect(await runHook(echo, h.options)).toBe(0);
    expect(h.stdout()).toBe('');
    expect(h.log()).toMatch(
      /over the size cap; truncated and refused.*"bytesSeen":511,"capBytes":100/,
    );
  });

  it('refuses JSON nested deeper than the limit', async () => {
    const h = harness(`{"text":"x","deep":${'['.repeat(10)}${']'.repeat(10)}}`, { maxDepth: 5 });
    expect(await runHook(echo, h.options)).toBe(0);
    expect(h.stdout()).toBe('');
    expect(h.log()).toContain('"reason":"too_deep"');
  });

  it('logs schema failures by path and code, never by value', async () => {
    const h = harness('{"text":42,"secret":"sk-live-never-logged"}');
    expect(await runHook(echo, h.options)).toBe(0);
    expect(h.log()).toContain('"issues":[{"path":"text","code":"invalid_type"}]');
    expect(h.log()).not.toContain('sk-live-never-logged');
  });

  it('logs to the default location when the config cannot be loaded', async () => {
    const h = harness('{"text":"x"}');
    const home = h.options.env?.['MNEMO_HOME'] ?? '';
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'config.json'), '{ broken');
    expect(await runHook(echo, h.options)).toBe(0);
    expect(h.stdout()).toBe('');
    expect(h.log()).toContain('the config could not be loaded');
  });
});

describe('runHook spool fallback', () => {
  function spoolable(handle: HookSpec<{ text: string }>['handle']) {
    const spooled: unknown[] = [];
    let started = 0;
    const spec: HookSpec<{ text: string }> = {
      name: 'capture',
      schema: v.looseObject({ text: v.string() }),
      handle,
      spool: (input) => {
        spooled.push(input);
        return { spooled: true, file: 'f.jsonl', entries: 1 };
      },
    };
    const startEngine = () => {
      started += 1;
      return Promise.resolve();
    };
    return { spec, spooled, startEngine, started: () => started };
  }
  const busy = () => Promise.reject(new MemoryError('STORE_BUSY', 'database is locked'));
  const neverCalled = () => Promise.reject(new Error('the handler must not run'));

  it('spools the event when the store is busy on open, starts the engine, exits 0 and prints nothing', async () => {
    const s = spoolable(neverCalled);
    const h = harness('{"text":"x"}', { openApp: busy, startEngine: s.startEngine });
    expect(await runHook(s.spec, h.options)).toBe(0);
    expect(s.spooled).toEqual([{ text: 'x' }]);
    expect(h.stdout()).toBe('');
    expect(h.codes).toEqual([0]);
    expect(s.started()).toBe(1);
    expect(h.log()).toContain('"msg":"capture.spooled","hook":"capture","trigger":"store_busy"');
    expect(h.log()).not.toContain('hook failed');
  });

  it('spools when the handler meets a busy store', async () => {
    const s = spoolable(busy);
    const h = harness('{"text":"y"}', { startEngine: s.startEngine });
    expect(await runHook(s.spec, h.options)).toBe(0);
    expect(s.spooled).toEqual([{ text: 'y' }]);
    expect(h.log()).toContain('"trigger":"store_busy"');
  });

  it('spools instead of starting a write when less time is left than a busy wait', async () => {
    const s = spoolable(neverCalled);
    const times = [0];
    const h = harness('{"text":"z"}', {
      deadlineMs: 1500,
      now: () => times.shift() ?? 1500 - SPOOLING_HOOK_BUSY_TIMEOUT_MS,
      startEngine: s.startEngine,
    });
    expect(await runHook(s.spec, h.options)).toBe(0);
    expect(s.spooled).toEqual([{ text: 'z' }]);
    expect(h.log()).toContain('"trigger":"deadline_near"');
  });

  it('spools at the deadline when the store never answers', async () => {
    const s = spoolable(neverCalled);
    const h = harness('{"text":"late"}', {
      deadlineMs: 50,
      openApp: () => new Promise<never>(() => undefined),
      startEngine: s.startEngine,
    });
    expect(await runHook(s.spec, h.options)).toBe(0);
    expect(h.exits).toEqual([0]);
    expect(s.spooled).toEqual([{ text: 'late' }]);
    expect(h.log()).toMatch(/"trigger":"deadline".*the event was spooled for the engine/s);
  });

  it('does not spool for a store that is corrupt rather than busy', async () => {
    const s = spoolable(neverCalled);
    const h = harness('{"text":"x"}', {
      openApp: () => Promise.reject(new MemoryError('STORE_CORRUPT', 'not a database')),
      startEngine: s.startEngine,
    });
    expect(await runHook(s.spec, h.options)).toBe(0);
    expect(s.spooled).toEqual([]);
    expect(s.started()).toBe(0);
    expect(h.log()).toMatch(
      /hook failed; exited 0 without output.*"stage":"open","code":"STORE_CORRUPT"/,
    );
  });

  it('gives a hook that can spool a short busy timeout, and other hooks the usual one', async () => {
    const seen: number[] = [];
    const record = (config: Config) => {
      seen.push(config.busyTimeoutMs);
      return Promise.reject(new MemoryError('STORE_UNAVAILABLE', 'cannot open'));
    };
    const s = spoolable(neverCalled);
    await runHook(
      s.spec,
      harness('{"text":"x"}', { openApp: record, startEngine: s.startEngine }).options,
    );
    await runHook(echo, harness('{"text":"x"}', { openApp: record }).options);
    expect(seen).toEqual([SPOOLING_HOOK_BUSY_TIMEOUT_MS, 1000]);
    expect(s.spooled).toHaveLength(1);
  });
});

describe('leadingSessionId', () => {
  it('reads the session id only when it opens the object', () => {
    expect(leadingSessionId(Buffer.from(' {"session_id":"abc-1","x":[[['))).toBe('abc-1');
    expect(
      leadingSessionId(Buffer.from('{"tool_response":"{\\"session_id\\":\\"evil\\"}"')),
    ).toBeUndefined();
    expect(leadingSessionId(Buffer.from('[[[[[['))).toBeUndefined();
  });
});

describe('the hook import graph', () => {
  it('never reaches an embedding model', () => {
    const root = new URL('../', import.meta.url);
    const seen = new Set<string>();
    // Every hook's entry (bundled or not), what the executable's fast path loads (bin.ts and main.ts
    // import the CLI only past it), and the CLI route.
    const queue = [
      ...HOOK_NAMES.map((name) => `hooks/entry/${name}.ts`),
      'cli/hook-bundle-loader.ts',
      'cli/hook-load-failure.ts',
      'hooks/hook-specs.ts',
      'hooks/run-hook.ts',
      'cli/commands/hook.ts',
      'app/open-app.ts',
    ];
    const bad: string[] = [];
    while (queue.length > 0) {
      const file = queue.pop() ?? '';
      if (seen.has(file)) continue;
      seen.add(file);
      const text = readFileSync(new URL(file, root), 'utf8');
      for (const match of text.matchAll(/(?:from|import\()\s*'([^']+)'/g)) {
        const spec = match[1] ?? '';
        if (spec.includes('@energetic-ai') || spec.includes('onnx')) bad.push(`${file} → ${spec}`);
        if (!spec.startsWith('.')) continue;
        const target = new URL(spec.replace(/\.js$/, '.ts'), new URL(file, root)).pathname;
        const relative = target.slice(new URL(root).pathname.length);
        // The hash embedder is model-free arithmetic (retrieve's MMR uses it); every other embed/ file
        // may load a model.
        if (relative.startsWith('embed/') && relative !== 'embed/hash-embedder.ts') {
          bad.push(`${file} → ${spec}`);
        }
        queue.push(relative);
      }
    }
    expect(seen.size).toBeGreaterThan(10);
    expect(bad).toEqual([]);
  });
});
