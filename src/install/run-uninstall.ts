/**
 * `mnemo uninstall`: undoes `mnemo install` for one scope of one client. A file still exactly as mnemo
 * wrote it gets its original bytes back (or is deleted, with the directories mnemo made, if mnemo
 * created it). A file changed since loses only mnemo's entries, and the report says so. Without a
 * manifest record, entries are recognised by their commands. The uninstall that leaves the manifest
 * empty removes the launcher too.
 */
import { chmodSync, existsSync, readdirSync, rmdirSync, statSync } from 'node:fs';

import { clientTargets } from './client-targets.js';
import { fileEditor } from './file-editor.js';
import { backup, readBytes, realTarget, removeFile, sha256, writeAtomic } from './file-ops.js';
import { type FileRecord, readManifest, writeManifest } from './install-manifest.js';
import { decodeText, type InstallReport } from './install-report.js';
import { resolveLauncher } from './install-targets.js';
import { launcherPath, removeLauncher } from './launcher.js';
import { type BinaryOptions, fileStamp, type InstallOptions } from './run-install.js';

type Plan =
  | { kind: 'restore'; path: string; original: Buffer; backupPath: string }
  | { kind: 'delete'; path: string; createdDirs: string[] }
  | { kind: 'edit'; path: string; after: string };

/** Uninstalls (or with `dryRun`, shows what uninstalling would change). */
export function runUninstall(options: InstallOptions & BinaryOptions): InstallReport {
  const client = options.client ?? 'claude-code';
  const targets = clientTargets(client, options.scope, options);
  const manifest = readManifest(options.mnemoHome);
  // Entries of this mnemo's launcher are recognised even without a manifest record.
  const launcher = resolveLauncher({ mnemoHome: options.mnemoHome });
  const report: InstallReport = {
    action: 'uninstall',
    client,
    scope: options.scope,
    dryRun: options.dryRun,
    root: targets.root,
    changed: [],
    unchanged: [],
    notes: [],
  };
  const plans: Plan[] = [];
  const forget: string[] = [];
  for (const target of targets.files) {
    const path = realTarget(target.path);
    const record = manifest.files[path];
    const bytes = readBytes(path);
    if (bytes === undefined) {
      if (record !== undefined) forget.push(path);
      continue;
    }
    const before = decodeText(bytes, path);
    const exact = exactRestore(path, bytes, record);
    if (typeof exact !== 'string') {
      plans.push(exact);
      report.changed.push({
        path,
        before,
        after: exact.kind === 'restore' ? decodeText(exact.original, path) : undefined,
        note: 'restored byte for byte',
      });
      continue;
    }
    const edit = fileEditor(client, target, launcher).remove(before, record);
    for (const kept of edit.keptChanged) report.notes.push(`${path}: left ${kept}`);
    const after = edit.after;
    const emptied = record?.existed === false && edit.empty;
    if (after === before && !emptied) {
      report.unchanged.push(path);
      if (record !== undefined) forget.push(path);
      continue;
    }
    const note = `${exact}: removed only mnemo’s entries`;
    if (emptied && record !== undefined) {
      plans.push({ kind: 'delete', path, createdDirs: record.createdDirs });
      report.changed.push({ path, before, after: undefined, note });
    } else {
      plans.push({ kind: 'edit', path, after });
      report.changed.push({ path, before, after, note });
    }
  }
  const last = Object.keys(manifest.files).every(
    (path) => forget.includes(path) || plans.some((plan) => plan.path === path),
  );
  if (last && existsSync(launcherPath(options.mnemoHome))) {
    report.launcher = { path: launcherPath(options.mnemoHome), removed: true };
  }
  if (options.dryRun) return report;
  const stamp = fileStamp(options.now().toISOString());
  const dirs: string[] = [];
  for (const plan of plans) {
    if (plan.kind === 'restore') {
      const mode = statSync(plan.backupPath).mode & 0o7777;
      writeAtomic(plan.path, plan.original);
      chmodSync(plan.path, mode);
      // Its bytes are the file's again; keeping it would only leave a stray copy of the settings.
      removeFile(plan.backupPath);
    } else if (plan.kind === 'delete') {
      removeFile(plan.path);
      dirs.push(...plan.createdDirs);
    } else {
      const change = report.changed.find((c) => c.path === plan.path);
      if (change !== undefined) change.backup = backup(plan.path, stamp);
      writeAtomic(plan.path, Buffer.from(plan.after, 'utf8'));
    }
    delete manifest.files[plan.path];
    writeManifest(options.mnemoHome, manifest);
  }
  for (const path of forget) delete manifest.files[path];
  if (forget.length > 0) writeManifest(options.mnemoHome, manifest);
  // Directories last: two files may share one mnemo created (`$CLAUDE_CONFIG_DIR`). Deepest first.
  for (const dir of [...new Set(dirs)].sort((a, b) => b.length - a.length)) {
    if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
  }
  // Nothing runs the launcher any more once no install is recorded.
  if (Object.keys(manifest.files).length === 0) removeLauncher(options.mnemoHome);
  return report;
}

/**
 * The exact undo of an install, when the file is still byte for byte what mnemo wrote and the state
 * before is known; otherwise why not.
 */
function exactRestore(path: string, bytes: Buffer, record: FileRecord | undefined): Plan | string {
  if (record === undefined) return 'no install record (recognised by command)';
  if (record.installedSha256 !== sha256(bytes)) return 'changed since install';
  if (!record.restorable) return 'changed between installs';
  if (!record.existed) return { kind: 'delete', path, createdDirs: record.createdDirs };
  const original = record.backup === null ? undefined : readBytes(record.backup);
  if (
    record.backup === null ||
    original === undefined ||
    sha256(original) !== record.originalSha256
  ) {
    return `backup ${record.backup ?? '(none)'} missing or changed`;
  }
  return { kind: 'restore', path, original, backupPath: record.backup };
}
