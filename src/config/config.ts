/**
 * Configuration: the one place where every setting, its default and its source are defined. Sources, in
 * increasing priority: defaults, `$MNEMO_HOME/config.json`, environment variables, explicit overrides
 * (CLI flags). Every field here has a consumer today; add a field only together with its consumer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import * as v from 'valibot';

import { type CapturePolicyConfig, TOOL_CAPTURE_SETTINGS } from '../core/capture/capture-policy.js';
import { MemoryError } from '../core/errors.js';
import { DECLARABLE_MCP_CLASSES, type DeclarableMcpClass } from '../core/origin/classify-origin.js';
import { type OriginClass, TRUST_ORDER } from '../core/origin/origin-class.js';
import { resolveMnemoHome } from './home.js';
import { MAX_LIMIT } from './limits.js';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Content cue detectors: `off` proves that no security outcome depends on them. */
export const DETECTOR_MODES = ['on', 'off'] as const;
export type DetectorMode = (typeof DETECTOR_MODES)[number];

/** Per session, per origin write budget. An origin absent from `maxPerOrigin` is unlimited. */
export interface FloodConfig {
  windowMinutes: number;
  maxPerOrigin: Partial<Record<OriginClass, number>>;
}

/** Defaults, documented once. `home` defaults to `~/.mnemo` (computed, so not in this table). */
export const CONFIG_DEFAULTS = {
  /** No PostgreSQL URL: the embedded SQLite store. */
  databaseUrl: null,
  /** The operating-system login name. */
  author: null,
  /** Database file name inside the home directory. */
  databaseFile: 'mnemo.db',
  /** How long a writer waits for another process's lock before STORE_BUSY. */
  busyTimeoutMs: 5000,
  logLevel: 'info',
  /** Hits returned by `recall` when no limit is given. */
  recallLimit: 10,
  /** The embedder of the vector leg: `use-lite-512`, `hash`, or a model id under `home/models`
   * (`mnemo model use`). Why USE lite is the default: docs/retrieval.md. */
  embeddingModel: 'use-lite-512',
  /** Cross-encoder that reranks recall when `home/models/<id>` exists; no directory, no rerank. */
  rerankerModel: 'Xenova/ms-marco-MiniLM-L-6-v2',
  /**
   * MCP tools by origin class, keyed `mcp__<server>__<tool>` or `mcp__<server>__*`. Undeclared MCP tools
   * are `unknown`: no privileges, quarantined.
   */
  mcpTools: {},
  /** `strict`: local reads and command output also taint a session, not only network and unknown content. */
  taint: { strict: false },
  /** Content cue detectors (defence in depth only). */
  detectors: 'on',
  /**
   * Writes per session and origin in a sliding window. `user` is unlimited: a person is never throttled.
   * Over budget, a write is refused as `flood_budget` and counted (`mnemo stats`).
   */
  flood: {
    windowMinutes: 10,
    maxPerOrigin: {
      agent: 60,
      local_edit: 120,
      local_read: 60,
      local_exec: 60,
      agent_tainted: 10,
      network: 20,
      unknown: 10,
    },
  },
  /**
   * Hook capture policy (core/capture/capture-policy.ts): per-tool `capture`/`skip` overrides keyed like
   * `mcpTools` or by built-in name (`Read`), and the minimum length of a capture's substance.
   */
  capture: { tools: {}, minChars: 12 },
  /**
   * Proactive injection budgets, in estimated tokens (core/budget.ts), frame included: the SessionStart
   * pack and prompt-time recall (threat model R9). 0 turns that injection off. `proactiveLocal` also
   * injects captures of local edits, reads and commands (core/privileges: an opt-in that never reaches
   * network, unknown or tainted origins).
   */
  injection: { sessionStartTokens: 1500, promptTokens: 600, proactiveLocal: false },
  /**
   * The resident engine (`mnemo serve`): minutes without requests or pending work before it exits (0:
   * never), and whether a hook that had to spool a capture starts it in the background.
   */
  engine: { idleExitMinutes: 15, autoStart: true },
  /**
   * The web viewer: the port `mnemo ui` listens on (on 127.0.0.1 only; a busy default falls back to a
   * free port, 0 always takes one), and whether the resident engine serves it too.
   */
  ui: { port: 7477, withEngine: true },
  /** The capture spool (`home/spool`): total bytes kept; past it a capture is refused and counted. */
  spool: { maxBytes: 16 * 1024 * 1024 },
} as const satisfies Omit<Config, 'home' | 'databasePath' | 'logFile'>;

/**
 * Highest injection budget. Claude Code keeps at most 10,000 characters of hook context inline and spills
 * the rest to a file (integration reference §1.3); `estimateTokens` charges at least one token per four
 * characters, so 2,400 tokens always fit.
 */
export const MAX_INJECTION_TOKENS = 2400;

const int = (min: number, max: number) =>
  v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const text = (min: number, max: number) => v.pipe(v.string(), v.minLength(min), v.maxLength(max));

function buildFileSchema() {
  const injectionTokens = v.optional(int(0, MAX_INJECTION_TOKENS));
  return v.strictObject({
    databaseUrl: v.optional(
      v.pipe(
        v.string(),
        v.regex(
          /^postgres(ql)?:\/\/\S+$/,
          'must be a postgres:// URL, e.g. "postgres://user:pw@db:5432/mnemo"',
        ),
      ),
    ),
    author: v.optional(
      v.pipe(text(1, 256), v.regex(/^[^\s\0]+$/, 'must be one word, e.g. your login name')),
    ),
    databaseFile: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[^/\\\0]+$/, 'must be a file name without a directory part, e.g. "mnemo.db"'),
      ),
    ),
    busyTimeoutMs: v.optional(int(0, 600_000)),
    logLevel: v.optional(v.picklist(LOG_LEVELS)),
    recallLimit: v.optional(int(1, MAX_LIMIT)),
    embeddingModel: v.optional(text(1, 200)),
    rerankerModel: v.optional(text(1, 200)),
    mcpTools: v.optional(
      v.record(
        v.pipe(
          v.string(),
          v.regex(/^mcp__\S+?__\S+$/, 'keys are "mcp__<server>__<tool>" or "mcp__<server>__*"'),
        ),
        v.picklist(DECLARABLE_MCP_CLASSES),
      ),
    ),
    taint: v.optional(v.strictObject({ strict: v.optional(v.boolean()) })),
    detectors: v.optional(v.picklist(DETECTOR_MODES)),
    flood: v.optional(
      v.strictObject({
        windowMinutes: v.optional(int(1, 1440)),
        // 0 refuses every write of that origin; `null` makes it unlimited.
        maxPerOrigin: v.optional(
          v.record(v.picklist(TRUST_ORDER), v.optional(v.nullable(int(0, 1_000_000)))),
        ),
      }),
    ),
    capture: v.optional(
      v.strictObject({
        tools: v.optional(v.record(text(1, 256), v.picklist(TOOL_CAPTURE_SETTINGS))),
        minChars: v.optional(int(0, 10_000)),
      }),
    ),
    injection: v.optional(
      v.strictObject({
        sessionStartTokens: injectionTokens,
        promptTokens: injectionTokens,
        proactiveLocal: v.optional(v.boolean()),
      }),
    ),
    engine: v.optional(
      v.strictObject({
        idleExitMinutes: v.optional(int(0, 10_080)),
        autoStart: v.optional(v.boolean()),
      }),
    ),
    ui: v.optional(
      v.strictObject({ port: v.optional(int(0, 65_535)), withEngine: v.optional(v.boolean()) }),
    ),
    spool: v.optional(v.strictObject({ maxBytes: v.optional(int(65_536, 1024 * 1024 * 1024)) })),
  });
}

type FileSchema = ReturnType<typeof buildFileSchema>;
let fileSchemaMemo: FileSchema | undefined;

/**
 * The config file's schema, built on first use: a hook whose home has no `config.json` (the usual case)
 * and no `MNEMO_*` setting never constructs it. valibot rather than zod for the same reason: every hook
 * process loads this module (docs/benchmarks.md, "Hook latency").
 */
function fileSchema(): FileSchema {
  fileSchemaMemo ??= buildFileSchema();
  return fileSchemaMemo;
}

/** What a config file may contain. */
export type ConfigFile = v.InferOutput<FileSchema>;

/** The resolved configuration. Paths are absolute. */
export interface Config {
  /** The directory holding the database, config file and logs (`$MNEMO_HOME`). */
  home: string;
  /**
   * A PostgreSQL URL (`postgres://user:password@host:5432/db?schema=mnemo`): the team store. Unset: the
   * SQLite file at `databasePath`. From `MNEMO_DATABASE_URL` or `databaseUrl` in config.json.
   */
  databaseUrl: string | null;
  /**
   * The user name this process writes and reads as in a team store (`MNEMO_AUTHOR`, `author`); null:
   * the operating-system login name. Private memories are seen by their author only.
   */
  author: string | null;
  databaseFile: string;
  /** `home` + `databaseFile`. */
  databasePath: string;
  /** `home/logs/mnemo.log`. */
  logFile: string;
  busyTimeoutMs: number;
  logLevel: LogLevel;
  recallLimit: number;
  embeddingModel: string;
  rerankerModel: string;
  mcpTools: Readonly<Record<string, DeclarableMcpClass>>;
  taint: { strict: boolean };
  detectors: DetectorMode;
  flood: FloodConfig;
  capture: CapturePolicyConfig;
  injection: InjectionConfig;
  engine: EngineConfig;
  ui: { port: number; withEngine: boolean };
  spool: { maxBytes: number };
}

/** The resident engine's lifecycle settings. */
export interface EngineConfig {
  /** Minutes without requests or pending work before `mnemo serve` exits; 0 keeps it running. */
  idleExitMinutes: number;
  /** A hook that spooled a capture starts `mnemo serve` in the background to drain it. */
  autoStart: boolean;
}

/** Token budgets of proactive injection; 0 turns one off. */
export interface InjectionConfig {
  sessionStartTokens: number;
  promptTokens: number;
  /** Also inject `local_edit`, `local_read` and `local_exec` memories proactively. */
  proactiveLocal: boolean;
}

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv;
  /** The user's home directory, for the default `~/.mnemo`. */
  userHome?: string;
  /** Highest-priority values, e.g. from CLI flags. */
  overrides?: Partial<ConfigFile> & { home?: string };
}

/** Environment variable → config field. Values are parsed with the same schema as the file. */
const ENV_FIELDS = {
  MNEMO_DATABASE_URL: 'databaseUrl',
  MNEMO_AUTHOR: 'author',
  MNEMO_BUSY_TIMEOUT_MS: 'busyTimeoutMs',
  MNEMO_LOG_LEVEL: 'logLevel',
  MNEMO_EMBEDDING_MODEL: 'embeddingModel',
  MNEMO_DETECTORS: 'detectors',
} as const satisfies Record<string, keyof ConfigFile>;

/**
 * Resolves the configuration. Reads no file other than `config.json` and creates nothing.
 * Throws CONFIG_INVALID naming the offending field, its source and the fix.
 */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? process.env;
  const home = resolveMnemoHome(env, {
    home: options.overrides?.home,
    userHome: options.userHome,
  });
  const configPath = join(home, 'config.json');
  const fromFile = readConfigFile(configPath);
  const fromEnv = readEnv(env);
  const { home: _home, ...overrides } = options.overrides ?? {};
  const merged = { ...CONFIG_DEFAULTS, ...fromFile, ...fromEnv, ...definedOnly(overrides) };
  return {
    home,
    databaseUrl: merged.databaseUrl ?? null,
    author: merged.author ?? null,
    databaseFile: merged.databaseFile,
    databasePath: join(home, merged.databaseFile),
    logFile: join(home, 'logs', 'mnemo.log'),
    busyTimeoutMs: merged.busyTimeoutMs,
    logLevel: merged.logLevel,
    recallLimit: merged.recallLimit,
    embeddingModel: merged.embeddingModel,
    rerankerModel: merged.rerankerModel,
    mcpTools: merged.mcpTools,
    taint: { strict: merged.taint.strict ?? CONFIG_DEFAULTS.taint.strict },
    detectors: merged.detectors,
    flood: mergeFlood(fromFile.flood, overrides.flood),
    capture: {
      tools: { ...merged.capture.tools },
      minChars: merged.capture.minChars ?? CONFIG_DEFAULTS.capture.minChars,
    },
    injection: {
      sessionStartTokens:
        merged.injection.sessionStartTokens ?? CONFIG_DEFAULTS.injection.sessionStartTokens,
      promptTokens: merged.injection.promptTokens ?? CONFIG_DEFAULTS.injection.promptTokens,
      proactiveLocal: merged.injection.proactiveLocal ?? CONFIG_DEFAULTS.injection.proactiveLocal,
    },
    engine: {
      idleExitMinutes: merged.engine.idleExitMinutes ?? CONFIG_DEFAULTS.engine.idleExitMinutes,
      autoStart:
        envSwitch(env, 'MNEMO_ENGINE_AUTOSTART') ??
        merged.engine.autoStart ??
        CONFIG_DEFAULTS.engine.autoStart,
    },
    ui: {
      port: merged.ui.port ?? CONFIG_DEFAULTS.ui.port,
      withEngine:
        envSwitch(env, 'MNEMO_UI_WITH_ENGINE') ??
        merged.ui.withEngine ??
        CONFIG_DEFAULTS.ui.withEngine,
    },
    spool: { maxBytes: merged.spool.maxBytes ?? CONFIG_DEFAULTS.spool.maxBytes },
  };
}

/** Flood limits merge per origin over the defaults; `null` lifts an origin's limit. */
function mergeFlood(...layers: (ConfigFile['flood'] | undefined)[]): FloodConfig {
  let windowMinutes: number = CONFIG_DEFAULTS.flood.windowMinutes;
  const maxPerOrigin: Partial<Record<OriginClass, number>> = {
    ...CONFIG_DEFAULTS.flood.maxPerOrigin,
  };
  for (const layer of layers) {
    if (layer === undefined) continue;
    windowMinutes = layer.windowMinutes ?? windowMinutes;
    for (const [origin, max] of Object.entries(layer.maxPerOrigin ?? {})) {
      if (max === null) delete maxPerOrigin[origin as OriginClass];
      else if (max !== undefined) maxPerOrigin[origin as OriginClass] = max;
    }
  }
  return { windowMinutes, maxPerOrigin };
}

function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    // No file, or no home directory yet (ENOTDIR: a path component is a file; opening reports that).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return {};
    throw new MemoryError(
      'CONFIG_INVALID',
      `Cannot read the config file ${path} (${(error as Error).message}). Fix its permissions or remove it.`,
      { cause: error },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MemoryError(
      'CONFIG_INVALID',
      `The config file ${path} is not valid JSON (${(error as Error).message}). Fix the syntax or remove the file to use the defaults.`,
      { cause: error },
    );
  }
  const parsed = v.safeParse(fileSchema(), json);
  if (!parsed.success) {
    throw new MemoryError(
      'CONFIG_INVALID',
      describeIssue(parsed.issues, `the config file ${path}`),
    );
  }
  return parsed.output;
}

/**
 * An on/off environment variable (`1`/`true`/`on`, `0`/`false`/`off`); undefined when unset. Used for
 * `MNEMO_ENGINE_AUTOSTART`, so a test run or a CI job can keep hooks and the MCP server from starting
 * background engines without writing a config file.
 */
function envSwitch(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const raw = nonEmpty(env[name])?.toLowerCase();
  if (raw === undefined) return undefined;
  if (['1', 'true', 'on'].includes(raw)) return true;
  if (['0', 'false', 'off'].includes(raw)) return false;
  throw new MemoryError(
    'CONFIG_INVALID',
    `Environment variable ${name}="${raw}" is invalid: use 1 or 0. Fix or unset it.`,
  );
}

function readEnv(env: NodeJS.ProcessEnv): ConfigFile {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(ENV_FIELDS)) {
    const raw = nonEmpty(env[name]);
    if (raw === undefined) continue;
    const value = field === 'busyTimeoutMs' ? Number(raw) : raw;
    const parsed = v.safeParse(fileSchema().entries[field], value);
    if (!parsed.success) {
      throw new MemoryError(
        'CONFIG_INVALID',
        `Environment variable ${name}="${raw}" is invalid: ${parsed.issues[0].message}. Fix or unset it.`,
      );
    }
    out[field] = parsed.output;
  }
  return out;
}

function describeIssue(issues: readonly v.BaseIssue<unknown>[], where: string): string {
  const [issue] = issues;
  if (issue === undefined) return `${where} is invalid.`;
  const keys = (issue.path ?? []).map((item) => String(item.key));
  if (issue.type === 'strict_object') {
    const unknown = keys.pop() ?? '';
    if (keys.length === 0) {
      return (
        `Unknown field "${unknown}" in ${where}. ` +
        `Remove it; known fields are ${Object.keys(fileSchema().entries).join(', ')}.`
      );
    }
    return `Field "${keys.join('.')}" in ${where} is invalid: unknown key "${unknown}". Fix the value or remove the field to use the default.`;
  }
  const field = keys.join('.') || '(root)';
  return `Field "${field}" in ${where} is invalid: ${issue.message}. Fix the value or remove the field to use the default.`;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
