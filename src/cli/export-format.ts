/**
 * The export file format: JSON Lines, one `ExportedMemory` per line, in the store's export order.
 * Parsing is strict and all-or-nothing: every line is decoded and validated before anything is
 * written, so a bad file imports nothing.
 */
import { z } from 'zod';

import { ANCHOR_HOWS, assertAnchorSet, MENTION_REASONS } from '../core/anchors/anchor.js';
import { isMemoryError, MemoryError } from '../core/errors.js';
import {
  GATE_REASONS,
  MEMORY_KINDS,
  normaliseContent,
  normaliseTags,
  QUARANTINE_STATES,
  VISIBILITIES,
} from '../core/memory.js';
import { parseOriginClass, TRUST_BANDS, trustBand } from '../core/origin/origin-class.js';
import { sourceUrlOf } from '../core/origin/source-url.js';
import { defaultTeamVisible, requiresReview } from '../core/privileges/privileges.js';
import { contentHash } from '../store/content-hash.js';
import type { ExportedMemory, ImportOutcome, MemoryStore } from '../store/store.js';
import { markVectorRuleUnknown } from '../store/vector-rules.js';

const memoryId = z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'must be a 26-character ULID');
const timestamp = z.iso.datetime();

const MISMATCH: Partial<Record<string, string>> = {
  embeddingModel: 'does not match the vector',
  contentHash: 'does not match the content',
  trustBand: 'is not the trust band of its origin',
};

type WritePathField =
  | 'trustBand'
  | 'tainted'
  | 'quarantine'
  | 'redactions'
  | 'gateReason'
  | 'authorUser'
  | 'authorHost'
  | 'teamVisible'
  | 'sourceUrl'
  | 'context';

/**
 * Fills the fields schema v2 added when a v1-era export lacks them, with exactly the values the v2
 * migration gives rows that existed before it: the band of the origin, not tainted, 'pending' review
 * where the origin requires review, no redactions, gate reason 'legacy' (the memory was stored before
 * the write gate existed; importing it does not gate it). So importing a v1 export and migrating the v1
 * store in place give the same memories. `sourceUrl` (schema v7) defaults to null: an export made before
 * v7 is imported as it was exported, without the backfill the v7 migration runs on a store in place.
 * Fields present are kept as they are.
 */
export function withWritePathDefaults<
  T extends { origin: string; visibility: ExportedMemory['visibility'] } & Partial<
    Pick<ExportedMemory, WritePathField>
  >,
>(record: T): Omit<T, WritePathField> & Pick<ExportedMemory, WritePathField> {
  const origin = parseOriginClass(record.origin);
  return {
    ...record,
    trustBand: record.trustBand ?? trustBand(origin),
    tainted: record.tainted ?? false,
    quarantine: record.quarantine ?? (requiresReview(origin) ? 'pending' : 'none'),
    redactions: record.redactions ?? 0,
    gateReason: record.gateReason ?? 'legacy',
    // Schema v5: an export made before authorship has no author, and the v5 migration's default reach.
    authorUser: record.authorUser ?? null,
    authorHost: record.authorHost ?? null,
    teamVisible: record.teamVisible ?? defaultTeamVisible(origin, record.visibility),
    sourceUrl: record.sourceUrl ?? null,
    context: record.context ?? '',
  };
}

const anchorSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('file'),
    path: z.string(),
    citedAs: z.string().nullable(),
    blobId: z.string(),
    size: z.int().min(0),
    commit: z.string().nullable(),
    source: z.enum(['worktree', 'commit']),
    symbols: z.array(z.string()),
  }),
  z.strictObject({ kind: z.literal('mention'), path: z.string(), why: z.enum(MENTION_REASONS) }),
]);

const anchorsSchema = z
  .strictObject({ how: z.enum(ANCHOR_HOWS), resolvedAt: timestamp, anchors: z.array(anchorSchema) })
  .superRefine((set, ctx) => {
    try {
      assertAnchorSet(set);
    } catch (error) {
      if (!isMemoryError(error)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
    }
  });

const exportedMemorySchema = z
  .strictObject({
    id: memoryId,
    content: z.string(),
    projectKey: z.string().min(1),
    visibility: z.enum(VISIBILITIES),
    kind: z.enum(MEMORY_KINDS),
    tags: z.array(z.string()),
    origin: z.string().min(1),
    originTool: z.string().nullable(),
    sessionId: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    lastAccessedAt: timestamp.nullable(),
    accessCount: z.int().min(0),
    heatBase: z.number().min(0),
    pinned: z.boolean(),
    supersedes: memoryId.nullable(),
    supersededBy: memoryId.nullable(),
    contentHash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 hex digest'),
    embeddingModel: z.string().nullable(),
    // Added by schema v2. Optional so a v1-era export still imports; see withWritePathDefaults.
    trustBand: z.enum(TRUST_BANDS).optional(),
    tainted: z.boolean().optional(),
    quarantine: z.enum(QUARANTINE_STATES).optional(),
    redactions: z.int().min(0).optional(),
    gateReason: z.enum(GATE_REASONS).optional(),
    // Added by schema v5 (teams); optional for older exports, see withWritePathDefaults.
    authorUser: z.string().min(1).max(256).nullable().optional(),
    authorHost: z.string().min(1).max(256).nullable().optional(),
    teamVisible: z.boolean().optional(),
    // Added by schema v7.
    sourceUrl: z.string().nullable().optional(),
    // Added by schema v8; an older export imports with no context.
    context: z.string().optional(),
    vector: z
      .strictObject({
        model: z.string().min(1),
        dims: z.int().positive(),
        values: z.array(z.number()),
      })
      .refine((v) => v.values.length === v.dims, 'values must hold exactly `dims` numbers')
      .nullable(),
    // Added by schema v5; absent in older exports, whose memories import as pending (no anchor set).
    anchors: anchorsSchema.nullable().optional(),
  })
  .superRefine((record, ctx) => {
    // Exports hold normalised values; anything else was edited by hand and the store would refuse it
    // halfway through the import, so it is refused here, before anything is written.
    for (const [path, check] of [
      ['content', () => normaliseContent(record.content) === record.content],
      ['contentHash', () => contentHash(record.content) === record.contentHash],
      ['tags', () => JSON.stringify(normaliseTags(record.tags)) === JSON.stringify(record.tags)],
      ['projectKey', () => record.projectKey.trim() === record.projectKey],
      ['origin', () => record.origin.trim() === record.origin],
      ['embeddingModel', () => (record.vector?.model ?? null) === record.embeddingModel],
      [
        'sourceUrl',
        () =>
          record.sourceUrl === undefined ||
          record.sourceUrl === null ||
          sourceUrlOf(record.sourceUrl) === record.sourceUrl,
      ],
      [
        'trustBand',
        () =>
          record.trustBand === undefined ||
          record.trustBand === trustBand(parseOriginClass(record.origin)),
      ],
    ] as const) {
      try {
        if (!check())
          ctx.addIssue({
            code: 'custom',
            path: [path],
            message: MISMATCH[path] ?? 'is not normalised',
          });
      } catch (error) {
        if (!isMemoryError(error)) throw error;
        ctx.addIssue({ code: 'custom', path: [path], message: error.message });
      }
    }
  })
  .transform((record) => ({
    ...withWritePathDefaults(record),
    anchors: record.anchors ?? null,
  })) satisfies z.ZodType<ExportedMemory>;

/** One parsed line. */
export interface ExportLine {
  line: number;
  record: ExportedMemory;
}

const MAX_REPORTED = 5;

/** Serialises one memory as an export line (with its newline). */
export function toExportLine(record: ExportedMemory): string {
  return `${JSON.stringify(record)}\n`;
}

/**
 * Parses and validates a whole export. Blank lines are ignored. Throws INVALID_INPUT naming each bad
 * line (up to five) — invalid UTF-8, not JSON, a field violating the schema, a repeated id — and
 * imports nothing.
 */
export function parseExport(bytes: Uint8Array, source: string): ExportLine[] {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const problems: string[] = [];
  const records: ExportLine[] = [];
  const seen = new Map<string, number>();
  // Split on the LF byte before decoding so an invalid UTF-8 sequence is reported with its line.
  for (let start = 0, line = 1; ; line++) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    const problem = parseLine(decoder, bytes.subarray(start, end), line, seen, records);
    if (problem !== undefined) problems.push(`line ${line}: ${problem}`);
    if (newline === -1) break;
    start = newline + 1;
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_REPORTED).map((p) => `  ${p}`);
    if (problems.length > MAX_REPORTED)
      shown.push(`  … and ${problems.length - MAX_REPORTED} more`);
    throw new MemoryError(
      'INVALID_INPUT',
      `${source} has ${problems.length} invalid line${problems.length === 1 ? '' : 's'}; nothing was imported:\n` +
        `${shown.join('\n')}\nFix those lines (or export again with \`mnemo export\`) and re-run the import.`,
    );
  }
  return records;
}

function parseLine(
  decoder: { decode(bytes: Uint8Array): string },
  bytes: Uint8Array,
  line: number,
  seen: Map<string, number>,
  records: ExportLine[],
): string | undefined {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return 'not valid UTF-8';
  }
  if (text.trim() === '') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return `not JSON (${(error as Error).message})`;
  }
  const parsed = exportedMemorySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.code === 'unrecognized_keys') {
      return `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')} (written by a newer mnemo?)`;
    }
    const field = issue?.path.join('.') ?? '';
    return `${field === '' ? '' : `field "${field}" `}${issue?.message ?? 'is invalid'}`;
  }
  const first = seen.get(parsed.data.id);
  if (first !== undefined) return `id ${parsed.data.id} already appears on line ${first}`;
  seen.set(parsed.data.id, line);
  records.push({ line, record: parsed.data });
  return undefined;
}

/** The outcome of each line, in file order. */
export interface ImportReport {
  results: { line: number; id: string; outcome: ImportOutcome }[];
  imported: number;
  skipped: number;
}

/**
 * Imports parsed lines in order. A store error stops the import and is re-raised with its line and how
 * far it got; ids already present are skipped, so running the same import again completes it.
 */
export async function importLines(
  store: MemoryStore,
  lines: readonly ExportLine[],
): Promise<ImportReport> {
  const report: ImportReport = { results: [], imported: 0, skipped: 0 };
  // An export does not say which rule built its vectors (store/vector-rules.ts): before any arrives,
  // the store's record of its rule stops vouching for that model's vectors, so they are rebuilt.
  const models = new Set(lines.flatMap(({ record }) => record.vector?.model ?? []));
  for (const model of models) await markVectorRuleUnknown(store, model);
  for (const { line, record } of lines) {
    let outcome: ImportOutcome;
    try {
      outcome = await store.importMemory(record);
    } catch (error) {
      if (!isMemoryError(error)) throw error;
      throw new MemoryError(
        error.code,
        `Line ${line} (${record.id}): ${error.message} ${report.imported} of ${lines.length} ` +
          'memories were imported before it; running the same import again skips those.',
        { cause: error, details: error.details },
      );
    }
    report.results.push({ line, id: record.id, outcome });
    report[outcome] += 1;
  }
  return report;
}
