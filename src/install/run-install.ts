/**
 * `mnemo install`: registers the hooks and the MCP server in one scope's Claude Code files. Every file
 * is read and validated before any is written, each write is backed up and atomic, and the manifest
 * records what uninstall needs to undo it exactly. Running it again changes nothing.
 */
import { buildRegistration } from '../core/install/registration.js';
import { backup, readBytes, realTarget, sha256, writeAtomic } from './file-ops.js';
import { type FileRecord, readManifest, writeManifest } from './install-manifest.js';
import { decodeText, type FileChange, type InstallReport } from './install-report.js';
import {
  type InstallScope,
  installTargets,
  resolveLauncher,
  type TargetEnv,
} from './install-targets.js';
import { isObject, JsonText } from './json-text.js';
import { addEntries, type DesiredEntries } from './settings-edit.js';

/** Inputs of an install or uninstall; the CLI passes the real process's values. */
export interface InstallOptions extends TargetEnv {
  scope: InstallScope;
  dryRun: boolean;
  /** `$MNEMO_HOME`, where the manifest lives. */
  mnemoHome: string;
  /** The clock for backup names and the manifest. */
  now: () => Date;
}

/** Where the binary is, for the launcher (see `resolveLauncher`). */
export interface BinaryOptions {
  argv1: string | undefined;
  execPath: string;
  command?: string;
}

interface PlannedWrite {
  path: string;
  bytes: Buffer | undefined;
  after: string;
  newMode: number;
  record: Omit<FileRecord, 'installedSha256' | 'createdDirs' | 'backup'> & {
    backup: string | null;
    createdDirs: string[];
  };
  /** The earlier install's restore point no longer matches the file, so it is dropped. */
  restorePointLost: boolean;
}

/** Installs (or with `dryRun`, shows what installing would change). */
export function runInstall(options: InstallOptions & BinaryOptions): InstallReport {
  const targets = installTargets(options.scope, options);
  const registration = buildRegistration('settings', resolveLauncher(options));
  const manifest = readManifest(options.mnemoHome);
  const report: InstallReport = {
    action: 'install',
    scope: options.scope,
    dryRun: options.dryRun,
    root: targets.root,
    changed: [],
    unchanged: [],
    notes: [],
  };
  const stamp = options.now().toISOString();
  const writes: PlannedWrite[] = [];
  // Plan every file first: an invalid one stops the run before anything is written.
  for (const target of targets.files) {
    const path = realTarget(target.path);
    const bytes = readBytes(path);
    const before = bytes === undefined ? undefined : decodeText(bytes, path);
    const doc = JsonText.parse(before, path);
    const desired: DesiredEntries =
      target.role === 'settings'
        ? { hooks: registration.hooks }
        : { mcpServer: registration.mcpServer };
    const prior = manifest.files[path];
    const edit = addEntries(doc, desired, prior?.entries ?? [], path);
    if (target.role === 'settings') noteEnabledPlugin(doc.value(), report);
    const after = doc.text();
    if (after === (before ?? '')) {
      report.unchanged.push(path);
      continue;
    }
    const restorePointLost = prior !== undefined && prior.installedSha256 !== sha(bytes);
    writes.push({
      path,
      bytes,
      after,
      newMode: target.newMode,
      restorePointLost,
      record: {
        role: target.role,
        scope: options.scope,
        existed: prior?.existed ?? bytes !== undefined,
        restorable: prior === undefined || (prior.restorable && !restorePointLost),
        originalSha256: prior === undefined ? sha(bytes) : prior.originalSha256,
        backup: prior === undefined ? null : prior.backup,
        createdDirs: prior?.createdDirs ?? [],
        created: mergePaths(prior?.created ?? [], edit.created),
        entries: edit.entries,
        installedAt: stamp,
      },
    });
    report.changed.push({ path, before, after });
  }
  if (options.scope === 'project' && targets.root !== undefined) {
    report.notes.push(
      `--scope project writes into ${targets.root} (committed with the repository). The commands ` +
        'hold this machine’s paths unless you pass --command (e.g. --command mnemo).',
    );
  }
  if (options.dryRun) return report;
  for (const write of writes) {
    const change = report.changed.find((c) => c.path === write.path) as FileChange;
    if (write.bytes !== undefined) change.backup = backup(write.path, fileStamp(stamp));
    const record = write.record;
    // The first install's backup is the restore point; later ones are kept for the user only.
    if (manifest.files[write.path] === undefined) {
      record.backup = change.backup ?? null;
    } else if (write.restorePointLost) {
      change.note =
        'changed since mnemo last wrote it; uninstall will remove only mnemo’s entries from it';
    }
    const made = writeAtomic(write.path, Buffer.from(write.after, 'utf8'), write.newMode);
    manifest.files[write.path] = {
      ...record,
      createdDirs: [...record.createdDirs, ...made],
      installedSha256: sha256(Buffer.from(write.after, 'utf8')),
    };
    // Recorded after each file, so a failure part-way still leaves an uninstallable state.
    writeManifest(options.mnemoHome, manifest);
  }
  return report;
}

function sha(bytes: Buffer | undefined): string | null {
  return bytes === undefined ? null : sha256(bytes);
}

function mergePaths(
  a: readonly (string | number)[][],
  b: readonly (string | number)[][],
): (string | number)[][] {
  const seen = new Set(a.map((p) => JSON.stringify(p)));
  return [...a, ...b.filter((p) => !seen.has(JSON.stringify(p)))];
}

/** Backup suffix: the ISO time without characters some filesystems refuse. */
export function fileStamp(iso: string): string {
  return iso.replace(/[:.]/g, '-');
}

function noteEnabledPlugin(settings: Record<string, unknown>, report: InstallReport): void {
  const enabled = settings['enabledPlugins'];
  if (!isObject(enabled)) return;
  if (Object.entries(enabled).some(([key, on]) => key.startsWith('mnemo@') && on === true)) {
    report.notes.push(
      'the mnemo plugin is enabled too; its hooks run in addition to these. Use one or the other ' +
        '(`claude plugin disable mnemo`, or `mnemo uninstall`).',
    );
  }
}
