/**
 * One home of the injection benchmark as it is measured: its projects loaded, prompts and session
 * starts sent to the built hook and classified, the hook's own search run beside each prompt, and the
 * engine (in mode `up`) started around the work. Every hook run is counted here, so the report can say
 * how many the engine answered and whether any memory crossed a project.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import type { App } from '../../src/app/open-app.js';
import { estimateTokens } from '../../src/core/budget.js';
import type { Memory } from '../../src/core/memory.js';
import { engineRecall } from '../../src/engine/engine-call.js';
import { retrieve } from '../../src/retrieval/retrieve.js';
import { percentile } from '../retrieval/metrics.js';
import {
  classifyPrompt,
  crossProjectIds,
  hookContext,
  injectedMemories,
  type InjectedMemory,
  rankOfNeeded,
} from './classify.js';
import type { BenchProject } from './corpus.js';
import {
  type BenchHome,
  benchHome,
  gitRepo,
  loadMemories,
  openHomeApp,
  runHook,
  startEngine,
} from './harness.js';
import { payloadFrom } from './payloads.js';
import type { PromptRecord } from './tally.js';

export type EngineMode = 'down' | 'up';

/** What every home of one run shares. */
export interface RunSettings {
  deadlineMs: number;
  extraEnv: NodeJS.ProcessEnv;
  /** Recorded payloads (test/fixtures/hooks) the prompts and session starts are made from. */
  promptTemplate: Record<string, unknown>;
  startTemplate: Record<string, unknown>;
  progress: (line: string) => void;
}

/** Everything measured in one home and mode. */
export interface HomeContext {
  mode: EngineMode;
  settings: RunSettings;
  home: BenchHome;
  app: App;
  /** Every memory of the home, by id. */
  memories: Map<string, Memory>;
  hookMs: number[];
  hookFailures: number;
  /** Hooks run that could inject (the engine-answered share is of these). */
  injectingHooks: number;
  /** Baseline searches the engine did not answer (they fell back to the store). */
  searchFallbacks: number;
  leaks: { prompt: string; ids: string[] }[];
}

export interface LoadedProject {
  project: BenchProject;
  dir: string;
  key: string;
  memoryOf: Map<string, string>;
}

export async function openContext(
  mode: EngineMode,
  settings: RunSettings,
  root: string,
  name: string,
): Promise<HomeContext> {
  const home = benchHome(root, name, settings.deadlineMs, settings.extraEnv);
  return {
    mode,
    settings,
    home,
    app: await openHomeApp(home),
    memories: new Map(),
    hookMs: [],
    hookFailures: 0,
    injectingHooks: 0,
    searchFallbacks: 0,
    leaks: [],
  };
}

/** Creates one repository per project in the home's directory and writes its memories. */
export async function loadProjects(
  ctx: HomeContext,
  root: string,
  projects: readonly BenchProject[],
  remote: (id: string) => string | undefined,
  sessions = false,
): Promise<LoadedProject[]> {
  const loaded: LoadedProject[] = [];
  for (const project of projects) {
    const repo = gitRepo(join(root, 'repos', project.id), remote(project.id));
    const report = await loadMemories(ctx.app, repo.dir, project.memories, sessions);
    for (const [id, memory] of report.memories) ctx.memories.set(id, memory);
    ctx.settings.progress(
      `  ${project.id}: ${project.memories.length} memories (stored ${report.stored}, merged ${report.merged}, refused ${report.rejected}), key ${repo.key.startsWith('git:') ? repo.key : 'its path'}`,
    );
    loaded.push({ project, dir: repo.dir, key: repo.key, memoryOf: report.memoryOf });
  }
  return loaded;
}

/** The memory ids standing for a question's evidence turns. */
export function neededOf(project: LoadedProject, evidence: readonly string[]): Set<string> {
  return new Set(evidence.flatMap((turn) => project.memoryOf.get(turn) ?? []));
}

/** The context of a hook's stdout, the memories it holds and its estimated tokens. */
function injectedOf(ctx: HomeContext, stdout: string) {
  const context = hookContext(stdout);
  return {
    injected:
      context === undefined ? [] : injectedMemories(context, (id) => ctx.memories.get(id)?.content),
    tokens: context === undefined ? 0 : estimateTokens(context),
  };
}

/**
 * The search the hook runs for a prompt (the session's project plus global memories, the hook's 20
 * candidates), as ranked ids: the engine's hybrid recall in mode `up`, the store's lexical legs in `down`.
 */
async function search(ctx: HomeContext, query: string, projectKey: string): Promise<string[]> {
  const request = { query, scope: { projectKey, includeGlobal: true }, limit: 20 };
  let hits = ctx.mode === 'up' ? await engineRecall(ctx.app.config, request, 10_000) : undefined;
  if (hits === undefined) {
    if (ctx.mode === 'up') ctx.searchFallbacks += 1;
    hits = await retrieve({ store: ctx.app.store, clock: ctx.app.clock }, request);
  }
  return hits.map((hit) => hit.memory.id);
}

/** Runs one injecting hook and counts it. */
function hook(
  ctx: HomeContext,
  cwd: string,
  event: 'user-prompt-submit' | 'session-start',
  payload: Record<string, unknown>,
) {
  const run = runHook(ctx.home, cwd, event, payload);
  ctx.hookMs.push(run.ms);
  ctx.injectingHooks += 1;
  if (run.code !== 0) ctx.hookFailures += 1;
  return injectedOf(ctx, run.stdout);
}

/** Sends one prompt to the hook in a new session and measures it; `ranked` adds the search's rank. */
export async function ask(
  ctx: HomeContext,
  where: { dir: string; key: string },
  prompt: { id: string; category: string; text: string },
  needed: ReadonlySet<string>,
  ranked: boolean,
): Promise<PromptRecord> {
  const payload = payloadFrom(ctx.settings.promptTemplate, {
    cwd: where.dir,
    sessionId: randomUUID(),
    patch: { prompt: prompt.text, prompt_id: randomUUID() },
  });
  const { injected, tokens } = hook(ctx, where.dir, 'user-prompt-submit', payload);
  const leaked = crossProjectIds(injected, where.key, (id) => {
    const memory = ctx.memories.get(id);
    return memory === undefined
      ? undefined
      : { projectKey: memory.projectKey, global: memory.visibility === 'global' };
  });
  if (leaked.length > 0) ctx.leaks.push({ prompt: prompt.id, ids: leaked });
  return {
    id: prompt.id,
    category: prompt.category,
    outcome: classifyPrompt(injected, needed),
    tokens,
    injected: injected.length,
    leaks: leaked.length,
    ...(ranked ? { rank: rankOfNeeded(await search(ctx, prompt.text, where.key), needed) } : {}),
  };
}

/** Sends SessionStart (startup, a new session) in the project; what the pack holds and costs. */
export function sessionStart(
  ctx: HomeContext,
  project: LoadedProject,
): { injected: InjectedMemory[]; tokens: number } {
  const payload = payloadFrom(ctx.settings.startTemplate, {
    cwd: project.dir,
    sessionId: randomUUID(),
  });
  const { injected, tokens } = hook(ctx, project.dir, 'session-start', payload);
  const leaked = crossProjectIds(injected, project.key, (id) => {
    const memory = ctx.memories.get(id);
    return memory === undefined
      ? undefined
      : { projectKey: memory.projectKey, global: memory.visibility === 'global' };
  });
  if (leaked.length > 0)
    ctx.leaks.push({ prompt: `session-start ${project.project.id}`, ids: leaked });
  return { injected, tokens };
}

export interface HookStats {
  runs: number;
  failures: number;
  p50: number;
  p95: number;
  /** Injecting hooks the engine answered, of all (engine up only). */
  engineAnswered?: { answered: number | undefined; of: number };
  searchFallbacks: number;
  leaks: { prompt: string; ids: string[] }[];
}

/**
 * Runs `work` with the home's app reopened; in mode `up` with an engine started first (every memory
 * embedded) and stopped after, counting the hooks it answered itself.
 */
export async function measureHome<T>(
  ctx: HomeContext,
  cwd: string,
  work: () => Promise<T>,
): Promise<{ result: T; hooks: HookStats }> {
  // Closed while the engine starts and takes the store over; reopened to read beside the hooks.
  await ctx.app.close();
  let answered: number | undefined;
  let result: T;
  if (ctx.mode === 'down') {
    ctx.app = await openHomeApp(ctx.home);
    result = await work();
  } else {
    const began = performance.now();
    const engine = await startEngine(ctx.home, cwd, ctx.settings.progress);
    ctx.settings.progress(
      `  engine ${engine.pid} up, every memory embedded (${Math.round(performance.now() - began)} ms)`,
    );
    try {
      ctx.app = await openHomeApp(ctx.home);
      const before = (await engine.injections()) ?? 0;
      result = await work();
      const after = await engine.injections();
      answered = after === undefined ? undefined : after - before;
    } finally {
      await engine.stop();
    }
  }
  return {
    result,
    hooks: {
      runs: ctx.hookMs.length,
      failures: ctx.hookFailures,
      p50: percentile(ctx.hookMs, 50),
      p95: percentile(ctx.hookMs, 95),
      ...(ctx.mode === 'up' ? { engineAnswered: { answered, of: ctx.injectingHooks } } : {}),
      searchFallbacks: ctx.searchFallbacks,
      leaks: ctx.leaks,
    },
  };
}
