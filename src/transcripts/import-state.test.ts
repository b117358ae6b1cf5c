import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { useTempDirs } from '../../test/helpers/temp-dir.js';
import {
  anchorAt,
  type FileState,
  importStatePath,
  loadImportState,
  planFile,
  saveImportState,
} from './import-state.js';

const tempDir = useTempDirs();
const FILTER = '{"since":null,"project":null}';

function transcript(content: string): { path: string; size: number; mtimeMs: number } {
  const path = join(tempDir(), 's.jsonl');
  writeFileSync(path, content);
  const info = statSync(path);
  return { path, size: info.size, mtimeMs: info.mtimeMs };
}

function readTo(file: { path: string; size: number; mtimeMs: number }, offset: number): FileState {
  return {
    size: file.size,
    mtimeMs: file.mtimeMs,
    readTo: offset,
    offset,
    line: 3,
    anchor: anchorAt(file.path, offset),
    doneToolUses: ['toolu_1'],
    filter: FILTER,
  };
}

describe('planFile', () => {
  it('reads a new file from the start', () => {
    const file = transcript('a\nb\n');
    expect(planFile(file, undefined, FILTER)).toEqual({
      action: 'read',
      from: 0,
      line: 1,
      doneToolUses: [],
      restarted: false,
    });
  });

  it('skips a file unchanged since it was read to its end', () => {
    const file = transcript('a\nb\n');
    expect(planFile(file, readTo(file, file.size), FILTER)).toEqual({ action: 'skip' });
  });

  it('resumes a grown file at the recorded offset with the handled tool calls', () => {
    const file = transcript('a\nb\n');
    const recorded = readTo(file, file.size);
    appendFileSync(file.path, 'c\n');
    const grown = { ...file, size: file.size + 2, mtimeMs: statSync(file.path).mtimeMs };
    expect(planFile(grown, recorded, FILTER)).toEqual({
      action: 'read',
      from: 4,
      line: 3,
      doneToolUses: ['toolu_1'],
      restarted: false,
    });
  });

  it('reads a rewritten file again from the start', () => {
    const file = transcript('aaaa\nbbbb\n');
    const recorded = readTo(file, 5);
    writeFileSync(file.path, 'xxxx\nbbbb\ncccc\n');
    const rewritten = { ...file, size: 15 };
    expect(planFile(rewritten, recorded, FILTER)).toMatchObject({ from: 0, restarted: true });
    const shrunk = { ...file, size: 2 };
    expect(planFile(shrunk, recorded, FILTER)).toMatchObject({ from: 0, restarted: true });
  });

  it('reads a file again when the filter it was read with differs', () => {
    const file = transcript('a\n');
    expect(
      planFile(file, readTo(file, file.size), '{"since":"2026-01-01","project":null}'),
    ).toMatchObject({ action: 'read', from: 0, restarted: true });
  });
});

describe('loadImportState / saveImportState', () => {
  it('round-trips the state and starts over from an invalid file, saying why', () => {
    const home = tempDir();
    const path = importStatePath(home);
    expect(loadImportState(path)).toEqual({ state: { version: 1, files: {} } });
    const file = transcript('a\n');
    const state = { version: 1 as const, files: { [file.path]: readTo(file, 2) } };
    saveImportState(path, state);
    expect(loadImportState(path)).toEqual({ state });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    writeFileSync(path, '{"version":2}');
    expect(loadImportState(path)).toMatchObject({
      state: { files: {} },
      problem: expect.stringContaining('not a valid import state') as unknown,
    });
    expect(readFileSync(path, 'utf8')).toBe('{"version":2}');
  });
});
