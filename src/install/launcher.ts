/**
 * The launcher: `$MNEMO_HOME/bin/mnemo`, a small POSIX shell script that execs the node and the package
 * bin of the mnemo that last ran `mnemo install`. Every client config mnemo writes runs this one stable
 * path, so moving, renaming or updating a checkout only needs `mnemo install` again (which rewrites the
 * script and nothing else); no client file holds a path of the checkout.
 *
 * When the bin it points at is gone, the script fails open for hooks (exit 0, nothing printed, a line
 * in mnemo's log) and tells a person at a terminal how to fix it. Removed by the uninstall that leaves
 * the install manifest empty.
 */
import { existsSync, readdirSync, rmdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { shellQuote } from '../core/install/shell-words.js';
import { readBytes, removeFile, writeAtomic } from './file-ops.js';

/** What the launcher runs. */
export interface LauncherTarget {
  /** The node binary. */
  execPath: string;
  /** The package's `dist/cli/mnemo.cjs`. */
  main: string;
}

/** The launcher's path under `home` ($MNEMO_HOME). */
export function launcherPath(home: string): string {
  return join(home, 'bin', 'mnemo');
}

/** The script's text for `target`. `home` is where a failed hook leaves its log line. */
export function launcherScript(home: string, target: LauncherTarget): string {
  const main = shellQuote(target.main);
  const log = shellQuote(join(home, 'logs', 'mnemo.log'));
  return [
    '#!/bin/sh',
    '# mnemo launcher: written by `mnemo install`, rewritten by each install, removed by the last',
    '# uninstall. Client configs run this file, so a moved or updated mnemo needs only `mnemo install`.',
    `if [ ! -f ${main} ]; then`,
    '  if [ "$1" = hook ]; then',
    `    mkdir -p ${shellQuote(join(home, 'logs'))} 2>/dev/null`,
    `    printf '{"at":"%s","level":"error","msg":"launcher: the mnemo it runs is gone; the hook did nothing (run mnemo install again)"}\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >> ${log} 2>/dev/null`,
    '    exit 0',
    '  fi',
    `  echo "mnemo: "${main}" no longer exists. Run 'mnemo install' again from the mnemo you use now." >&2`,
    '  exit 1',
    'fi',
    `exec ${shellQuote(target.execPath)} ${main} "$@"`,
    '',
  ].join('\n');
}

/** The target a launcher script runs, read back from its `exec` line; undefined when not ours. */
export function readLauncherTarget(path: string): LauncherTarget | undefined {
  const bytes = readBytes(path);
  if (bytes === undefined) return undefined;
  const line = /^exec (\S+|'(?:[^']|'\\'')*') (\S+|'(?:[^']|'\\'')*') "\$@"$/m.exec(
    bytes.toString('utf8'),
  );
  if (line === null) return undefined;
  return { execPath: unquote(line[1] ?? ''), main: unquote(line[2] ?? '') };
}

function unquote(word: string): string {
  return word.startsWith("'") ? word.slice(1, -1).replaceAll(`'\\''`, "'") : word;
}

/** Writes (or rewrites) the launcher; true when its bytes changed. */
export function writeLauncher(home: string, target: LauncherTarget): boolean {
  const path = launcherPath(home);
  const script = Buffer.from(launcherScript(home, target), 'utf8');
  const current = readBytes(path);
  if (current !== undefined && current.equals(script)) return false;
  writeAtomic(path, script, 0o755);
  return true;
}

/** Removes the launcher, and its directory when nothing else is in it; true when it existed. */
export function removeLauncher(home: string): boolean {
  const path = launcherPath(home);
  if (readBytes(path) === undefined) return false;
  removeFile(path);
  const dir = dirname(path);
  if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
  return true;
}
