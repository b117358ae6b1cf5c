import { type App, openApp } from '../../src/app/open-app.js';
import type { OriginEnvelope } from '../../src/core/origin/classify-origin.js';
import type { OriginClass } from '../../src/core/origin/origin-class.js';
import type { WriteDeps, WritePolicy } from '../../src/write/write-memory.js';
import { writeDepsFrom } from '../../src/write/write-policy.js';

/** One envelope per origin class: the channel that produces it. */
export const ENVELOPE_OF: Readonly<Record<OriginClass, OriginEnvelope>> = {
  user: { channel: 'cli' },
  agent: { channel: 'mcp_remember', tainted: false },
  local_edit: { channel: 'tool', toolName: 'Edit' },
  local_read: { channel: 'tool', toolName: 'Read' },
  local_exec: { channel: 'tool', toolName: 'Bash' },
  agent_tainted: { channel: 'mcp_remember', tainted: true },
  network: { channel: 'tool', toolName: 'WebFetch' },
  unknown: { channel: 'tool', toolName: 'mcp__someserver__fetch_page' },
};

/** A clock tests can move. */
export interface TestClock {
  now(): Date;
  advanceMinutes(minutes: number): void;
}

export function testClock(start = '2025-03-01T10:00:00.000Z'): TestClock {
  let at = new Date(start).getTime();
  return {
    now: () => new Date(at),
    advanceMinutes: (minutes) => void (at += minutes * 60_000),
  };
}

/** The real app on a temp home, plus write deps whose policy a test may adjust. */
export async function openWriteApp(
  home: string,
  options: { clock?: TestClock; policy?: Partial<WritePolicy>; env?: NodeJS.ProcessEnv } = {},
): Promise<{ app: App; deps: WriteDeps }> {
  const app = await openApp({
    env: { MNEMO_HOME: home, ...options.env },
    clock: options.clock,
  });
  const base = writeDepsFrom(app);
  return { app, deps: { ...base, policy: { ...base.policy, ...options.policy } } };
}
