/**
 * The injection benchmark, end to end: what the agent actually receives.
 *
 *   npm run bench:inject [-- --locomo <locomo10.json> --locomo-conversations 0 --locomo-questions 50
 *     --modes down,up --json out.json --deadline-ms 10000 --embedding-model <id> --no-locomo
 *     --no-locomo-long --keep]
 *
 * Scratch homes with one real git repository per project; memories written on the user channel (the
 * write service `mnemo remember` runs, in-process); every question sent to the BUILT hook
 * (`node dist/cli/mnemo.cjs hook user-prompt-submit`) as a UserPromptSubmit payload with a new session
 * id, cwd = the project's repository; stdout read as Claude Code reads it. Each prompt is classified
 * (needed memory in full / as an index line only / wrong only / silent), tokens are counted with the
 * project's estimator, and the same search the hook runs ranks the needed memory beside it. Negative
 * prompts (chit-chat, generic programming, another project's questions) must inject nothing; any
 * memory of another project reaching a session is a cross-project leak. SessionStart is sent once per
 * project to measure what the start-up pack covers. Everything runs twice: engine down (the hook reads
 * the store) and engine up (`mnemo serve` for that home, every memory embedded first). The LoCoMo
 * subset runs twice: as its dialog turns, and as long turns (the same conversations with consecutive
 * turns merged into 180–400-word memories, bench/retrieval/long-turns.ts; the same questions), since
 * what a hook injects from a paragraph-long memory is not what it injects from one line; the negative
 * prompts are asked in the long-turn store too. Tables go to
 * stdout, progress to stderr. See docs/benchmarks.md, "Injection (end to end)".
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { type BenchDataset, parseDataset, selectConversations } from '../retrieval/dataset.js';
import { convertLocomo } from '../retrieval/locomo.js';
import { LONG_TURN_WORDS, longTurnDataset } from '../retrieval/long-turns.js';
import {
  type BenchProject,
  NEGATIVE_KINDS,
  type NegativeSet,
  parseNegatives,
  projectsOf,
  roundRobin,
  stratifiedConversations,
} from './corpus.js';
import { type CoverageRow, packCoverage, sumCoverage } from './coverage.js';
import {
  ask,
  type EngineMode,
  type HomeContext,
  type LoadedProject,
  loadProjects,
  measureHome,
  neededOf,
  openContext,
  type RunSettings,
  sessionStart,
} from './measure.js';
import {
  type CodingResult,
  type LocomoResult,
  type ModeResult,
  renderResults,
} from './render-results.js';
import type { PackRow } from './report.js';
import { type PromptRecord, tallyByCategory, tallyRow } from './tally.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

const { values: args } = parseArgs({
  options: {
    coding: { type: 'string', default: join(REPO_ROOT, 'bench/datasets/coding-memories.json') },
    negatives: {
      type: 'string',
      default: join(REPO_ROOT, 'bench/datasets/negative-prompts.json'),
    },
    locomo: { type: 'string', default: resolve(REPO_ROOT, '../shared/bench/locomo/locomo10.json') },
    'locomo-conversations': { type: 'string', default: '0' },
    'locomo-questions': { type: 'string', default: '50' },
    'no-locomo': { type: 'boolean', default: false },
    'no-locomo-long': { type: 'boolean', default: false },
    // Which datasets' memories name their session (the store then derives each one's context from
    // its neighbours, as for captures of one session); the others are separate `mnemo remember`s.
    sessions: { type: 'string', default: 'locomo' },
    modes: { type: 'string', default: 'down,up' },
    'deadline-ms': { type: 'string', default: '10000' },
    'embedding-model': { type: 'string' },
    json: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});

const progress = (line: string): void => void process.stderr.write(`${line}\n`);
const modes = args.modes.split(',').map((m) => m.trim());
const badMode = modes.find((m) => m !== 'down' && m !== 'up');
if (badMode !== undefined) throw new Error(`--modes takes down and/or up, not "${badMode}".`);

const FIXTURES = join(REPO_ROOT, 'test/fixtures/hooks');
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as unknown;
const settings: RunSettings = {
  deadlineMs: Number(args['deadline-ms']),
  extraEnv:
    args['embedding-model'] === undefined ? {} : { MNEMO_EMBEDDING_MODEL: args['embedding-model'] },
  promptTemplate: readJson(join(FIXTURES, 'user-prompt-submit.json')) as Record<string, unknown>,
  startTemplate: readJson(join(FIXTURES, 'session-start.startup.json')) as Record<string, unknown>,
  progress,
};

const sessionsFor = new Set(args.sessions.split(',').map((s) => s.trim()));
const coding = parseDataset(readJson(args.coding));
const negatives: NegativeSet = existsSync(args.negatives)
  ? parseNegatives(readJson(args.negatives))
  : { foreign: { id: 'none', memories: [] }, prompts: [] };
const locomo = loadLocomo(false);
const locomoLong = args['no-locomo-long'] ? undefined : loadLocomo(true);

/**
 * The chosen LoCoMo conversations, each with its stratified question subset; with `long`, the same
 * conversations and questions with turns merged into long memories.
 */
function loadLocomo(long: boolean): { dataset: BenchDataset; note: string } | undefined {
  if (args['no-locomo']) return undefined;
  if (!existsSync(args.locomo)) {
    if (!long)
      progress(`LoCoMo not found at ${args.locomo}: pass --locomo <locomo10.json> (skipped).`);
    return undefined;
  }
  const converted = convertLocomo(readJson(args.locomo)).dataset;
  const dataset = long ? longTurnDataset(converted).dataset : converted;
  const conversations = stratifiedConversations(
    dataset,
    selectConversations(args['locomo-conversations'], dataset.conversations.length),
    Number(args['locomo-questions']),
    dataset.categories.map((c) => c.id),
  );
  const unit = long ? `memories of ${LONG_TURN_WORDS.min}–${LONG_TURN_WORDS.max} words` : 'turns';
  const note = conversations
    .map((c) => {
      const turns = c.sessions.reduce((s, session) => s + session.turns.length, 0);
      const ids = c.questions.map((q) => q.id.slice(q.id.lastIndexOf('/') + 1)).join(',');
      return `${c.id}, ${turns} ${unit}, questions ${ids}`;
    })
    .join('; ');
  return { dataset: { ...parseDataset(dataset), conversations }, note };
}

/** The project the `foreign` negative prompts are about, dated an hour apart up to yesterday. */
async function loadForeign(ctx: HomeContext, root: string, now: number): Promise<LoadedProject> {
  const project: BenchProject = {
    id: negatives.foreign.id,
    memories: negatives.foreign.memories.map((m, i, all) => ({
      turnId: m.id,
      text: m.text,
      kind: m.kind,
      at: now - 86_400_000 - (all.length - i) * 3_600_000,
    })),
    questions: [],
  };
  // Keyed by its path (no remote), where the coding projects are keyed by remote.
  const [loaded] = await loadProjects(ctx, root, [project], () => undefined);
  return loaded!;
}

function packOf(ctx: HomeContext, project: LoadedProject): PackRow {
  const { injected, tokens } = sessionStart(ctx, project);
  const withKind = (id: string) => ({ id, kind: ctx.memories.get(id)?.kind ?? 'note' });
  const coverage = packCoverage(
    injected,
    project.project.questions.map((q) => ({
      id: q.id,
      needed: [...neededOf(project, q.evidence)].map(withKind),
    })),
    [...new Set(project.memoryOf.values())].map(withKind),
  );
  return { project: project.project.id, items: injected.length, tokens, coverage };
}

async function askQuestions(ctx: HomeContext, projects: readonly LoadedProject[]) {
  const records: PromptRecord[] = [];
  for (const project of projects) {
    for (const q of project.project.questions) {
      const prompt = { id: q.id, category: q.category, text: q.question };
      records.push(await ask(ctx, project, prompt, neededOf(project, q.evidence), true));
    }
    progress(`  ${project.project.id}: ${project.project.questions.length} questions asked`);
  }
  return records;
}

/** Every negative prompt, asked round robin in the projects; none needs a memory of its project. */
async function askNegatives(ctx: HomeContext, projects: readonly LoadedProject[]) {
  const asked: PromptRecord[] = [];
  const targets = projects.map((p) => p.project.id);
  for (const [prompt, target] of roundRobin(negatives.prompts, targets)) {
    const project = projects.find((p) => p.project.id === target)!;
    const text = { id: prompt.id, category: prompt.kind, text: prompt.prompt };
    asked.push(await ask(ctx, project, text, new Set(), false));
  }
  progress(`  ${asked.length} negative prompts asked`);
  return asked;
}

async function runCoding(mode: EngineMode, root: string): Promise<CodingResult> {
  progress(`coding memories, engine ${mode}:`);
  const ctx = await openContext(mode, settings, root, `coding-${mode}`);
  try {
    const now = Date.now();
    // Keyed by remote, as clones of one repository are.
    const projects = await loadProjects(
      ctx,
      root,
      projectsOf(coding, 'coding', now),
      (id) => `https://example.com/bench/${id}.git`,
      sessionsFor.has('coding'),
    );
    const foreign = negatives.prompts.length > 0 ? await loadForeign(ctx, root, now) : undefined;
    const { result, hooks } = await measureHome(ctx, projects[0]!.dir, async () => {
      const packs = projects.map((project) => packOf(ctx, project));
      const questions = await askQuestions(ctx, projects);
      const asked = await askNegatives(ctx, projects);
      // Control: the foreign questions in their own project, where their memory is.
      const control: PromptRecord[] = [];
      for (const prompt of negatives.prompts.filter((p) => p.kind === 'foreign')) {
        const text = { id: prompt.id, category: 'foreign', text: prompt.prompt };
        control.push(await ask(ctx, foreign!, text, neededOf(foreign!, prompt.evidence), true));
      }
      progress(`  ${control.length} foreign prompts asked in their own project (control)`);
      return { packs, questions, negatives: asked, control };
    });
    const excluded = coding.categories.filter((c) => c.adversarial === true).map((c) => c.id);
    const label = (kind: string) =>
      kind === 'foreign' ? `another project's questions (${negatives.foreign.id})` : kind;
    return {
      rows: tallyByCategory(result.questions, coding.categories, excluded),
      negatives: [
        ...NEGATIVE_KINDS.map((kind) =>
          tallyRow(
            label(kind),
            result.negatives.filter((r) => r.category === kind),
          ),
        ),
        tallyRow('all negatives', result.negatives),
      ],
      control: tallyRow(
        `control: the foreign questions asked in ${negatives.foreign.id} itself`,
        result.control,
      ),
      packs: result.packs,
      packTotal: sumCoverage(result.packs.map((p) => p.coverage as CoverageRow[])),
      records: {
        questions: result.questions,
        negatives: result.negatives,
        control: result.control,
      },
      memories: {
        projects: projects.length,
        written: projects.reduce((s, p) => s + p.project.memories.length, 0),
        stored: new Set(projects.flatMap((p) => [...p.memoryOf.values()])).size,
      },
      hooks,
    };
  } finally {
    await ctx.app.close();
  }
}

async function runLocomo(
  mode: EngineMode,
  root: string,
  data: BenchDataset,
  subset: { label: string; slug: string; negatives: boolean },
): Promise<LocomoResult> {
  progress(`${subset.label}, engine ${mode}:`);
  const ctx = await openContext(mode, settings, root, `${subset.slug}-${mode}`);
  try {
    const projects = await loadProjects(
      ctx,
      root,
      projectsOf(data, 'dialog', Date.now()),
      () => undefined,
      sessionsFor.has('locomo'),
    );
    const { result, hooks } = await measureHome(ctx, projects[0]!.dir, async () => {
      const questions = await askQuestions(ctx, projects);
      // The negative prompts in a store of long memories: more of each memory's words to match.
      const asked = subset.negatives ? await askNegatives(ctx, projects) : [];
      return { questions, negatives: asked };
    });
    const excluded = data.categories.filter((c) => c.adversarial === true).map((c) => c.id);
    return {
      rows: tallyByCategory(result.questions, data.categories, excluded),
      records: result.questions,
      ...(result.negatives.length === 0
        ? {}
        : { negatives: tallyRow('all negatives', result.negatives) }),
      hooks,
    };
  } finally {
    await ctx.app.close();
  }
}

const root = mkdtempSync(join(tmpdir(), 'mnemo-bench-inject-'));
const began = Date.now();
const loadAtStart = loadavg()[0]!;
const results: ModeResult[] = [];
try {
  for (const mode of modes as EngineMode[]) {
    const codingResult = await runCoding(mode, join(root, `coding-${mode}`));
    const locomoResult =
      locomo === undefined
        ? undefined
        : await runLocomo(mode, join(root, `locomo-${mode}`), locomo.dataset, {
            label: 'LoCoMo subset',
            slug: 'locomo',
            negatives: false,
          });
    const longResult =
      locomoLong === undefined
        ? undefined
        : await runLocomo(mode, join(root, `locomo-long-${mode}`), locomoLong.dataset, {
            label: 'LoCoMo long turns',
            slug: 'locomo-long',
            negatives: true,
          });
    results.push({ mode, coding: codingResult, locomo: locomoResult, locomoLong: longResult });
  }
} finally {
  if (args.keep) progress(`kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
}

const cpu = cpus();
process.stdout.write(
  renderResults({
    date: new Date(began).toISOString().slice(0, 10),
    setting:
      `${cpu.length} cores (${cpu[0]?.model ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GB, node ${process.version}; ` +
      `load average ${loadAtStart.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end; ` +
      `${Math.round((Date.now() - began) / 1000)} s in all; hook deadline ${settings.deadlineMs} ms; ` +
      `embedder ${args['embedding-model'] ?? 'the configured default'}; ` +
      `memories written with their session id: ${args.sessions === '' ? 'none' : args.sessions}.`,
    locomoNote: locomo?.note,
    locomoLongNote: locomoLong?.note,
    results,
  }),
);

if (args.json !== undefined) {
  const json = {
    date: new Date(began).toISOString(),
    settings: { ...settings, progress: undefined },
    locomo: locomo?.note,
    locomoLong: locomoLong?.note,
    results,
  };
  writeFileSync(args.json, `${JSON.stringify(json, null, 2)}\n`);
  progress(`wrote ${args.json}`);
}
