import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { lineEndingOf, locateSection, spliceSection } from './managed-section.js';
import { BEGIN_MARKER, END_MARKER } from './page-format.js';

const SECTION = `${BEGIN_MARKER}\n## Project memory\n${END_MARKER}`;
const OTHER = `${BEGIN_MARKER}\n## Project memory\n\nchanged\n${END_MARKER}`;

describe('spliceSection', () => {
  it('keeps every byte outside the markers, whatever surrounds them', () => {
    const outside = fc.string().filter((s) => !s.includes('mnemo:page'));
    fc.assert(
      fc.property(outside, outside, (before, after) => {
        const file = `${before}\n${SECTION}\n${after}`;
        const next = spliceSection(file, OTHER);
        expect(next.startsWith(`${before}\n`)).toBe(true);
        expect(next.endsWith(`\n${after}`)).toBe(true);
        expect(next.slice(before.length + 1, next.length - after.length - 1)).toBe(OTHER);
      }),
    );
  });

  it("writes the section in the file's own line endings and keeps a byte-order mark", () => {
    const file = `\uFEFF# Notes\r\n\r\n${SECTION.split('\n').join('\r\n')}\r\ntail\r\n`;
    const next = spliceSection(file, OTHER);
    expect(next).toBe(`\uFEFF# Notes\r\n\r\n${OTHER.split('\n').join('\r\n')}\r\ntail\r\n`);
    expect(lineEndingOf(next)).toBe('\r\n');
  });

  it('appends the section after a blank line to a file without one, and creates a bare one', () => {
    expect(spliceSection('# CLAUDE\nno newline', SECTION)).toBe(
      `# CLAUDE\nno newline\n\n${SECTION}\n`,
    );
    expect(spliceSection('# CLAUDE\n', SECTION)).toBe(`# CLAUDE\n\n${SECTION}\n`);
    expect(spliceSection('', SECTION)).toBe(`${SECTION}\n`);
  });

  it('is idempotent: splicing the same section twice changes nothing the second time', () => {
    const once = spliceSection('# CLAUDE\n\nkeep me\n', SECTION);
    expect(spliceSection(once, SECTION)).toBe(once);
  });
});

describe('locateSection', () => {
  it('ignores markers inside a fenced code block outside the section', () => {
    const doc = `# Docs\n\n\`\`\`md\n${SECTION}\n\`\`\`\n`;
    expect(locateSection(doc)).toBeUndefined();
    const withReal = `${doc}\n${SECTION}\n`;
    expect(locateSection(withReal)?.line).toBe(SECTION.split('\n').length + 6);
  });

  it('refuses markers that do not pair up, naming their lines', () => {
    expect(() => locateSection(`${BEGIN_MARKER}\nno end\n`)).toThrow(
      /begin markers on lines 1, end markers on lines none/u,
    );
    expect(() => locateSection(`${END_MARKER}\n${BEGIN_MARKER}\n`)).toThrow(/do not pair up/u);
    expect(() => locateSection(`${SECTION}\n${SECTION}\n`)).toThrow(/begin markers on lines 1, 4/u);
  });

  it('reads a marker only as a whole line at column 0', () => {
    expect(locateSection(`text ${BEGIN_MARKER}\n  ${END_MARKER}\n`)).toBeUndefined();
  });
});
