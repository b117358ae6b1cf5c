/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: `initdb` into a fresh temporary directory, a
 * free TCP port on 127.0.0.1, `pg_ctl start`, and on `stop()` a fast shutdown and removal of the
 * directory. PostgreSQL refuses to run as root, so as root every server binary runs as the `postgres`
 * system user (`runuser -u postgres`), which must exist (Debian's postgresql package creates it).
 *
 * Authentication is `trust` for every role except the ones named in `passwordRoles`, which must log in
 * with scram-sha-256: that is what lets a test prove the wrong-password message.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Debian and the upstream packages put the server binaries, newest first. */
const BIN_DIRS = ['17', '16', '15', '14', '13'].map((v) => `/usr/lib/postgresql/${v}/bin`);

export interface PostgresServer {
  /** Superuser URL of the `postgres` database. */
  readonly adminUrl: string;
  readonly port: number;
  /** URL of `database` as `user` (default: the superuser), with `password` when given. */
  url(database: string, user?: string, password?: string): string;
  /** Runs SQL as the superuser through psql with ON_ERROR_STOP (a failing statement throws). */
  psql(sql: string, database?: string): string;
  stop(): void;
}

/** The directory holding `initdb` and `pg_ctl`, or undefined when PostgreSQL is not installed. */
export function findPostgresBinaries(): string | undefined {
  for (const dir of BIN_DIRS) if (existsSync(join(dir, 'initdb'))) return dir;
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const found = which.stdout.trim();
  if (which.status === 0 && found !== '') {
    return execFileSync(
      'dirname',
      [execFileSync('readlink', ['-f', found], { encoding: 'utf8' }).trim()],
      {
        encoding: 'utf8',
      },
    ).trim();
  }
  return undefined;
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function postgresIds(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/** Runs a server binary, as `postgres` when we are root. */
function runAsServerUser(command: string, args: string[], input?: string): string {
  const [file, argv] = isRoot()
    ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
    : [command, args];
  const result = spawnSync(file, argv, { encoding: 'utf8', input, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (exit ${result.status}): ${result.stderr || result.stdout}`,
    );
  }
  return result.stdout;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface StartOptions {
  /** Roles that must authenticate with a password over TCP (scram-sha-256). */
  passwordRoles?: readonly string[];
}

/** Starts a fresh cluster. Throws with the server log when it does not come up. */
export async function startPostgresServer(options: StartOptions = {}): Promise<PostgresServer> {
  const bin = findPostgresBinaries();
  if (bin === undefined)
    throw new Error('PostgreSQL server binaries (initdb, pg_ctl) are not installed.');
  const root = mkdtempSync(join(tmpdir(), 'mnemo-pg-'));
  const data = join(root, 'data');
  const sockets = join(root, 'sockets');
  const log = join(root, 'server.log');
  execFileSync('mkdir', ['-p', data, sockets]);
  chmodSync(data, 0o700);
  if (isRoot()) {
    const { uid, gid } = postgresIds();
    for (const path of [root, data, sockets]) chownSync(path, uid, gid);
  }
  runAsServerUser(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
  ]);
  const hba = join(data, 'pg_hba.conf');
  const passwordLines = (options.passwordRoles ?? []).map(
    (role) => `host all ${role} 127.0.0.1/32 scram-sha-256\n`,
  );
  writeFileSync(
    hba,
    `${passwordLines.join('')}local all all trust\nhost all all 127.0.0.1/32 trust\n`,
  );
  let port = 0;
  for (let attempt = 0; ; attempt += 1) {
    port = await freePort();
    try {
      runAsServerUser(join(bin, 'pg_ctl'), [
        '-D',
        data,
        '-l',
        log,
        '-w',
        '-t',
        '60',
        '-o',
        `-p ${port} -k ${sockets} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
        'start',
      ]);
      break;
    } catch (error) {
      const serverLog = existsSync(log) ? readFileSync(log, 'utf8') : '';
      // Another process may have taken the port between the probe and the start: try another one.
      if (attempt < 3 && /could not bind|Address already in use/i.test(serverLog)) continue;
      rmSync(root, { recursive: true, force: true });
      throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${serverLog}`);
    }
  }
  const psqlBin = existsSync(join(bin, 'psql')) ? join(bin, 'psql') : 'psql';
  let stopped = false;
  const server: PostgresServer = {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    url: (database, user = 'postgres', password) =>
      `postgres://${encodeURIComponent(user)}${password === undefined ? '' : `:${encodeURIComponent(password)}`}` +
      `@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    psql: (sql, database = 'postgres') =>
      runAsServerUser(
        psqlBin,
        [
          '-X',
          '-q',
          '-v',
          'ON_ERROR_STOP=1',
          '-h',
          sockets,
          '-p',
          String(port),
          '-U',
          'postgres',
          '-d',
          database,
          '-At',
          '-f',
          '-',
        ],
        sql,
      ),
    stop: () => {
      if (stopped) return;
      stopped = true;
      try {
        runAsServerUser(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
  return server;
}
