/**
 * `mnemo install`: registers mnemo in one scope's files of one client (Claude Code's hooks and MCP
 * server by default; `--client` for the others, client-targets.ts). Every file is read and validated
 * before any is written, each write is backed up and atomic, and the manifest records what uninstall
 * needs to undo it exactly. The files run the launcher ($MNEMO_HOME/bin/mnemo), which each install
 * rewrites to point at the mnemo running it. Running it again changes nothing.
 */
import { CLIENT_NAMES, type ClientId } from '../core/install/clients.js';
import { type ClientTargetEnv, clientTargets } from './client-targets.js';
import { fileEditor } from './file-editor.js';
import { backup, readBytes, realTarget, sha256, writeAtomic } from './file-ops.js';
import { type FileRecord, readManifest, writeManifest } from './install-manifest.js';
import { decodeText, type FileChange, type InstallReport } from './install-report.js';
import { type InstallScope, resolveLauncher, resolveLauncherTarget } from './install-targets.js';
import { isObject, JsonText } from './json-text.js';
import { launcherPath, writeLauncher } from './launcher.js';

/** Inputs of an install or uninstall; the CLI passes the real process's values. */
export interface InstallOptions extends ClientTargetEnv {
  /** The client whose files are written; default Claude Code. */
  client?: ClientId;
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
  const client = options.client ?? 'claude-code';
  const targets = clientTargets(client, options.scope, options);
  const launcher = resolveLauncher(options);
  // Found before anything is planned: without a built bin there is nothing for the launcher to run.
  const launcherTarget = options.command === undefined ? resolveLauncherTarget(options) : undefined;
  const manifest = readManifest(options.mnemoHome);
  const report: InstallReport = {
    action: 'install',
    client,
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
    const prior = manifest.files[path];
    const edit = fileEditor(client, target, launcher).install(before, prior);
    if (target.role === 'settings')
      noteEnabledPlugin(JsonText.parse(edit.after, path).value(), report);
    const after = edit.after;
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
        ...(client === 'claude-code' ? {} : { client }),
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
        'run this machine’s launcher unless you pass --command (e.g. --command mnemo).',
    );
  }
  if (launcherTarget !== undefined) {
    report.launcher = { path: launcherPath(options.mnemoHome), target: launcherTarget.main };
  }
  if (client !== 'claude-code') report.notes.push(...clientNotes(client));
  if (options.dryRun) return report;
  // The launcher first: a file that runs it must never exist before it does.
  if (launcherTarget !== undefined && writeLauncher(options.mnemoHome, launcherTarget)) {
    report.launcher = { ...report.launcher!, written: true };
  }
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

/** What a person should know about a client's install that the diff does not show. */
function clientNotes(client: ClientId): string[] {
  const name = CLIENT_NAMES[client];
  if (client === 'cursor' || client === 'gemini') {
    return [
      `${name} runs mnemo's hooks for capture and session taint; restart it (or open a new session) ` +
        'to load the new configuration.',
    ];
  }
  return [
    `${name} has no hooks mnemo registers: it gets recall and deliberate remember only, and every ` +
      'remember from it is stored as agent_tainted (docs/clients.md). Restart it to load the server.',
  ];
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
