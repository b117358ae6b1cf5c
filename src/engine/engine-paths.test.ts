import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import { isMemoryError } from '../core/errors.js';
import { ensurePrivateDir, FOREIGN_ANY_BITS } from '../platform/private-fs.js';
import { enginePaths, MAX_SOCKET_PATH_BYTES, socketPathFor } from './engine-paths.js';

const tempDir = useTempDirs();

describe('enginePaths', () => {
  it('keeps lock, token and socket in a short home', () => {
    const paths = enginePaths('/home/ana/.mnemo');
    expect(paths).toEqual({
      lock: '/home/ana/.mnemo/engine.lock',
      token: '/home/ana/.mnemo/engine.token',
      socket: '/home/ana/.mnemo/engine.sock',
      socketDir: undefined,
      starting: '/home/ana/.mnemo/engine.starting',
    });
  });

  it('moves the socket of a long home to a per-user directory under the temp dir, keyed by the home', () => {
    const long = `/home/ana/${'nested-directory/'.repeat(6)}mnemo-home`;
    expect(Buffer.byteLength(join(long, 'engine.sock'))).toBeGreaterThan(MAX_SOCKET_PATH_BYTES);
    const a = socketPathFor(long, { tmp: '/tmp' });
    const b = socketPathFor(`${long}-2`, { tmp: '/tmp' });
    expect(a.socket).toMatch(/^\/tmp\/mnemo-\d+\/[0-9a-f]{16}\.sock$/);
    expect(Buffer.byteLength(a.socket)).toBeLessThanOrEqual(MAX_SOCKET_PATH_BYTES);
    expect(a.socketDir).toBe(a.socket.slice(0, a.socket.lastIndexOf('/')));
    expect(socketPathFor(long, { tmp: '/tmp' })).toEqual(a);
    expect(b.socket).not.toBe(a.socket);
    // The lock and token never move: only the socket has a length limit.
    expect(enginePaths(long).lock).toBe(join(long, 'engine.lock'));
  });

  it('falls back to /tmp when the temp dir itself is too long', () => {
    const long = `/home/ana/${'x'.repeat(120)}`;
    const { socket } = socketPathFor(long, { tmp: `/var/${'t'.repeat(120)}` });
    expect(socket.startsWith('/tmp/mnemo-')).toBe(true);
  });

  it('uses a named pipe on Windows', () => {
    expect(socketPathFor('C:\\Users\\ana\\.mnemo', { platform: 'win32' }).socket).toMatch(
      /^\\\\\.\\pipe\\mnemo-[0-9a-f]{16}$/,
    );
  });
});

describe('ensurePrivateDir', () => {
  it('creates a 0700 directory', () => {
    const dir = join(tempDir(), 'a', 'b');
    ensurePrivateDir(dir, FOREIGN_ANY_BITS);
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);
  });

  it('refuses a directory others can write, naming the fix', () => {
    const dir = join(tempDir(), 'shared');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    let error: unknown;
    try {
      ensurePrivateDir(dir);
    } catch (caught) {
      error = caught;
    }
    expect(isMemoryError(error, 'CHECK_FAILED')).toBe(true);
    expect((error as Error).message).toContain(`chmod 700 ${dir}`);
  });
});
