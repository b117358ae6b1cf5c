import { describe, expect, it } from 'vitest';

import {
  emptyReport,
  etaSeconds,
  formatDuration,
  formatProgress,
  formatReport,
} from './import-report.js';

const MIB = 1024 * 1024;

describe('progress and ETA', () => {
  it('estimates the time left from the rate so far', () => {
    const progress = {
      bytesDone: 10 * MIB,
      bytesTotal: 40 * MIB,
      filesDone: 1,
      files: 4,
      lines: 900,
    };
    expect(etaSeconds(progress, 5000)).toBe(15);
    expect(etaSeconds({ ...progress, bytesDone: 0 }, 5000)).toBeUndefined();
    expect(formatProgress(progress, 5000, true)).toBe(
      'import claude-code [######..................] 25% 10.0/40.0 MiB 1/4 files ETA 0:15',
    );
    expect(formatProgress(progress, 5000, false)).toBe(
      'import claude-code: 25% (10.0/40.0 MiB, 1/4 files, 900 lines), ETA 0:15',
    );
  });

  it('formats durations as m:ss or h:mm:ss', () => {
    expect([formatDuration(5), formatDuration(65), formatDuration(3723)]).toEqual([
      '0:05',
      '1:05',
      '1:02:03',
    ]);
  });
});

describe('formatReport', () => {
  it('lists files, lines, outcomes, skips by reason and per-project counts', () => {
    const report = emptyReport('/home/u/.claude/projects', false);
    Object.assign(report.files, { found: 5, read: 4, unchanged: 1 });
    Object.assign(report.lines, { read: 55, malformed: 3 });
    Object.assign(report, { pairs: 18, stored: 9, merged: 1, stopped: 'limit' });
    report.skipped = { read_not_captured: 3, unpaired: 1 };
    report.notCaptured = { prompts: 5, assistantText: 2, harness: 1 };
    report.byProject = { '/w/shop': 3, '/w/acme': 6 };
    expect(formatReport(report)).toBe(
      [
        'Claude Code transcripts in /home/u/.claude/projects',
        '  files:    5 found, 4 read, 1 unchanged since the last import',
        '  lines:    55 read, 3 malformed (skipped)',
        '  tool calls with a result: 18',
        '  stored:   9 new memories, 1 merged into existing ones',
        '  skipped:  4 (read_not_captured 3, unpaired 1)',
        '  not captured (no memory channel): 5 user prompts, 2 assistant text blocks, 1 harness message',
        '  project /w/acme: 6',
        '  project /w/shop: 3',
        'Stopped at --limit: run the same command again to continue where it stopped.',
        '',
      ].join('\n'),
    );
  });
});
