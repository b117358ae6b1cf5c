import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';

import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { type HookSpec, leadingSessionId, runHook, type RunHookOptions } from './run-hook.js';

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
      env: { MNEMO_HOME: home },
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
  schema: z.looseObject({ text: z.string() }),
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
      schema: z.unknown(),
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
      schema: z.unknown(),
      handle: () => new Promise<never>(() => undefined),
    };
    const h = harness('{}', { deadlineMs: 50 });
    expect(await runHook(stuck, h.options)).toBe(0);
    expect(h.exits).toEqual([0]);
    expect(h.stdout()).toBe('');
    expect(h.log()).toMatch(/hook deadline passed.*not stored.*later release.*"stage":"handle"/);
  });

  it('takes the deadline from MNEMO_HOOK_DEADLINE_MS and ignores values out of range', async () => {
    const stuck: HookSpec<unknown> = {
      name: 'stuck',
      schema: z.unknown(),
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
      schema: z.unknown(),
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
    const queue = [
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
        if (relative.startsWith('embed/')) bad.push(`${file} → ${spec}`);
        queue.push(relative);
      }
    }
    expect(seen.size).toBeGreaterThan(10);
    expect(bad).toEqual([]);
  });
});
