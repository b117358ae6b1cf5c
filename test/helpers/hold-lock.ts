import { spawn } from 'node:child_process';
import { once } from 'node:events';

import { REPO_ROOT } from './mnemo-bin.js';

// Plain CommonJS so the child needs no TypeScript loader; it resolves better-sqlite3 from the repo.
const HOLDER = `
const Database = require('better-sqlite3');
const [path, begin, releaseAfterMs] = process.argv.slice(1);
const db = new Database(path);
db.exec(begin);
process.stdout.write('locked\\n');
const release = () => { if (db.open) { db.exec('ROLLBACK'); db.close(); } };
if (releaseAfterMs) setTimeout(release, Number(releaseAfterMs));
process.stdin.on('end', release);
process.stdin.resume();
`;

/**
 * Holds an exclusive write lock on the SQLite file from another OS process, the way a concurrent
 * writer would. Resolves once the lock is held; `release()` rolls back and waits for the exit. With
 * `releaseAfterMs` the holder lets go by itself, for a caller that blocks its own event loop meanwhile.
 */
export async function holdExclusiveLock(
  dbPath: string,
  options: { begin?: 'BEGIN EXCLUSIVE' | 'BEGIN IMMEDIATE'; releaseAfterMs?: number } = {},
): Promise<{ release(): Promise<void> }> {
  const args = [dbPath, options.begin ?? 'BEGIN EXCLUSIVE', String(options.releaseAfterMs ?? '')];
  const child = spawn(process.execPath, ['-e', HOLDER, ...args], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('locked\n')) resolve();
    });
    child.on('error', reject);
    void exited.then(([code]) => reject(new Error(`lock holder exited early (${String(code)})`)));
  });
  return {
    async release() {
      child.stdin.end();
      await exited;
    },
  };
}
