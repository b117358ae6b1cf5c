import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Overwrites every page of a SQLite file after the first with a pattern: the header stays, so the file
 * still opens as SQLite, but its tables do not read.
 */
export function damagePages(path: string): void {
  const bytes = readFileSync(path);
  const raw = bytes.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  for (let i = pageSize; i < bytes.length; i += 1) bytes[i] = (i * 131) & 0xff;
  writeFileSync(path, bytes);
}
