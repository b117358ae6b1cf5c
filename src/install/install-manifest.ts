/**
 * `$MNEMO_HOME/install-manifest.json`: per file mnemo installed into, what the file was before (its hash
 * and a backup), what mnemo wrote (its hash) and which entries are mnemo's. Uninstall restores the
 * original bytes when the file is still exactly what mnemo wrote, and otherwise removes only the
 * recorded entries.
 */
import { join } from 'node:path';

import { z } from 'zod';

import { MemoryError } from '../core/errors.js';
import { CLIENT_IDS } from '../core/install/clients.js';
import { readBytes, removeFile, writeAtomic } from './file-ops.js';
import { FILE_ROLES } from './install-targets.js';
import type { EntryRecord } from './settings-edit.js';

const entryRecord = z.union([
  z.object({
    kind: z.literal('hook'),
    event: z.string(),
    subcommand: z.string(),
    command: z.string(),
  }),
  z.object({
    kind: z.literal('mcp'),
    name: z.string(),
    value: z.unknown(),
    previous: z.unknown().optional(),
    container: z.string().optional(),
  }),
  z.object({ kind: z.literal('toml'), table: z.string(), text: z.string() }),
]);

const fileRecord = z.object({
  /** What the file is to its client (install-targets.ts `FileRole`). */
  role: z.enum(FILE_ROLES),
  /** The client it belongs to; absent in manifests written before other clients were supported. */
  client: z.enum(CLIENT_IDS).optional(),
  scope: z.enum(['user', 'project']),
  /** Whether the file existed before mnemo first wrote it. */
  existed: z.boolean(),
  /**
   * Whether the state before the first install can be brought back exactly: false once an install wrote
   * over a file the user had changed since (restoring would lose their change).
   */
  restorable: z.boolean(),
  /** The original bytes' hash and their copy; null once the file changed under an install (no exact restore). */
  originalSha256: z.string().nullable(),
  backup: z.string().nullable(),
  /** The hash of the bytes mnemo last wrote. */
  installedSha256: z.string(),
  /** Directories mnemo created for the file, outermost first. */
  createdDirs: z.array(z.string()),
  /** JSON containers mnemo created, removed again when left empty. */
  created: z.array(z.array(z.union([z.string(), z.number()]))),
  entries: z.array(entryRecord),
  installedAt: z.string(),
});

/** What mnemo knows about one file it installed into. */
export type FileRecord = z.infer<typeof fileRecord> & { entries: EntryRecord[] };

const manifestSchema = z.object({
  version: z.literal(1),
  /** Keyed by the file's real path. */
  files: z.record(z.string(), fileRecord),
});

/** The whole manifest. */
export interface InstallManifest {
  version: 1;
  files: Record<string, FileRecord>;
}

/** The manifest's path under `home` ($MNEMO_HOME). */
export function manifestPath(home: string): string {
  return join(home, 'install-manifest.json');
}

/** Reads the manifest; an empty one when there is none. Throws CONFIG_INVALID when it is unreadable. */
export function readManifest(home: string): InstallManifest {
  const path = manifestPath(home);
  const bytes = readBytes(path);
  if (bytes === undefined) return { version: 1, files: {} };
  try {
    return manifestSchema.parse(JSON.parse(bytes.toString('utf8')));
  } catch (error) {
    throw new MemoryError(
      'CONFIG_INVALID',
      `${path} is not a manifest this mnemo can read. Move it away and run the command again: ` +
        'mnemo then recognises its entries by their commands (it cannot restore files byte for byte without it).',
      { cause: error },
    );
  }
}

/** Writes the manifest atomically, or deletes it when it records no file. */
export function writeManifest(home: string, manifest: InstallManifest): void {
  const path = manifestPath(home);
  if (Object.keys(manifest.files).length === 0) {
    if (readBytes(path) !== undefined) removeFile(path);
    return;
  }
  writeAtomic(path, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8'), 0o600);
}
