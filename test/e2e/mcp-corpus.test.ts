/**
 * The adversarial corpus's MCP cases (threat model §3: laundering W5, spoofed flags W4, secrets W6) through the BUILT `mnemo mcp` over stdio: setup steps run the built hook
 * binary while the server is up, and the case's `remember` goes over the wire with its `force` and claim
 * fields as extra arguments. Category A also reruns with every content detector off (gate 3).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  CORPUS_SESSION,
  type CorpusCase,
  loadCorpus,
  materialise,
  mismatches,
  type Observed,
  securityProjection,
} from '../adversarial/corpus-runner.js';
import { startStdioMcp, type StdioMcp } from '../helpers/mcp-harness.js';
import { type TestHome, useTestHomes } from '../helpers/mnemo-bin.js';
import { everything, openTestApp } from '../helpers/test-app.js';

const newHome = useTestHomes();

const EVENT_NAMES: Record<string, string> = {
  'post-tool-use': 'PostToolUse',
  'post-tool-use-failure': 'PostToolUseFailure',
  'pre-tool-use': 'PreToolUse',
  'user-prompt-submit': 'UserPromptSubmit',
};

type Step = CorpusCase['payload'];

async function runStep(
  home: TestHome,
  mcp: StdioMcp,
  raw: Step,
  problems: string[],
): Promise<void> {
  for (let i = 0; i < (raw.repeat ?? 1); i++) {
    const s = materialise(raw, { cwd: home.project, i }) as Step;
    if (s.via === 'hook') {
      const event = s.event ?? '';
      const input = JSON.stringify({
        session_id: CORPUS_SESSION,
        transcript_path: '/home/dev/.claude/projects/adv/adv-session-0001.jsonl',
        cwd: home.project,
        hook_event_name: EVENT_NAMES[event] ?? event,
        ...(s.payload as Record<string, unknown>),
      });
      const result = await home.run(['hook', event], { input });
      if (result.code !== 0 || result.stdout !== '')
        problems.push(`hook ${event}: exit ${result.code}`);
    } else if (s.via === 'cli') {
      const result = await home.run((s.args ?? []).map(String));
      if (result.code !== 0) problems.push(`cli: exit ${result.code}: ${result.stderr}`);
    } else {
      const args: Record<string, unknown> = { ...s.claims, content: String(s.content) };
      if (s.force !== undefined) args['force'] = s.force;
      const result = await mcp.call('remember', args);
      // A refusal is an outcome the case's expectations judge; a transport problem is not.
      if (mcp.errors.length > 0)
        problems.push(`mcp transport: ${mcp.errors.map(String).join('; ')}`);
      void result;
    }
  }
}

async function readRows(
  home: TestHome,
): Promise<Omit<Observed, 'processProblems' | 'newRows' | 'log' | 'dbBytes'>> {
  const app = await openTestApp(home.home);
  try {
    const { rows, counters } = await everything(app);
    return {
      allRows: rows,
      counters,
      sessionTainted: (await app.store.getSessionTaint(CORPUS_SESSION)).tainted,
      // MCP writes are never network captures, so no fragment cluster can form here.
      clusters: {},
    };
  } finally {
    await app.close();
  }
}

async function runOverStdio(
  home: TestHome,
  testCase: CorpusCase,
  detectors: 'on' | 'off',
): Promise<Observed> {
  mkdirSync(home.home, { recursive: true });
  const config = { ...testCase.setup.config, ...(detectors === 'off' ? { detectors: 'off' } : {}) };
  writeFileSync(join(home.home, 'config.json'), JSON.stringify(config));
  const problems: string[] = [];
  const mcp = await startStdioMcp(home);
  let before: Set<string>;
  try {
    for (const s of testCase.setup.steps ?? []) await runStep(home, mcp, s, problems);
    before = new Set((await readRows(home)).allRows.map((row) => row.id));
    await runStep(home, mcp, testCase.payload, problems);
  } finally {
    await mcp.close();
  }
  const dbBytes = Buffer.concat(
    [home.dbPath, `${home.dbPath}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)),
  );
  const observed = await readRows(home);
  const logFile = join(home.home, 'logs', 'mnemo.log');
  return {
    ...observed,
    processProblems: problems,
    newRows: observed.allRows.filter((row) => !before.has(row.id)),
    log: existsSync(logFile) ? readFileSync(logFile, 'utf8') : '',
    dbBytes,
  };
}

// Channel cases (laundering, spoofed flags) and secrets. The cue matrix (b-cues) and the benign twins take
// the same server path and run in-process in test/adversarial; here each case costs a server and hook
// processes, so only the MCP-specific categories pay for the real transport.
const FILES = ['a-channel.jsonl', 'c-secrets.jsonl'];

describe('adversarial corpus MCP cases over stdio (built binary)', () => {
  const cases = FILES.flatMap((file) => loadCorpus(file)).filter(
    (c) => c.payload.via === 'mcp_remember',
  );

  it('has the MCP cases the threat model names', () => {
    const ids = cases.map((c) => c.id);
    for (const id of [
      'W4-mcp-origin-claim',
      'W4-mcp-origin-claim-no-hooks',
      'W5-launder',
      'W5-launder-no-hooks',
    ]) {
      expect(ids).toContain(id);
    }
  });

  it.each(cases.map((c) => [c.id, c] as const))(
    '%s meets its expectations through mnemo mcp',
    async (_id, testCase) => {
      const on = await runOverStdio(newHome(), testCase, 'on');
      expect(mismatches(testCase, on)).toEqual([]);
      if (testCase.category !== 'A') return;
      const off = await runOverStdio(newHome(), testCase, 'off');
      expect(securityProjection(off)).toEqual(securityProjection(on));
    },
    600_000,
  );
});
