import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { classifyOrigin, EMPTY_ORIGIN_CONFIG } from './classify-origin.js';
import { isOriginClass, type OriginClass } from './origin-class.js';
import { builtinToolClass, KNOWN_BUILTIN_TOOLS } from './tool-names.js';

interface FixtureTool {
  name: string;
  class: OriginClass;
  status: 'current' | 'legacy';
  note?: string;
}

const fixture = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/claude-code-tools.json', import.meta.url), 'utf8'),
) as { tools: FixtureTool[] };

describe('drift guard: Claude Code built-in tool names', () => {
  it('lists the 44 current tools of the reference and only valid classes', () => {
    expect(fixture.tools.filter((t) => t.status === 'current')).toHaveLength(44);
    const invalid = fixture.tools.filter((t) => !isOriginClass(t.class)).map((t) => t.name);
    expect(invalid, `fixture classes outside the vocabulary: ${invalid.join(', ')}`).toEqual([]);
  });

  it('knows every fixture name (an unclassified name is a red test, not a silent unknown)', () => {
    const unclassified = fixture.tools
      .filter((t) => builtinToolClass(t.name) === undefined)
      .map((t) => t.name);
    expect(unclassified, `tools the classifier does not know: ${unclassified.join(', ')}`).toEqual(
      [],
    );
  });

  it('classifies every fixture name as the fixture says', () => {
    const changed = fixture.tools
      .map((t) => ({
        ...t,
        actual: classifyOrigin({ channel: 'tool', toolName: t.name }, EMPTY_ORIGIN_CONFIG),
      }))
      .filter((t) => t.actual !== t.class)
      .map((t) => `${t.name}: expected ${t.class}, got ${t.actual}`);
    expect(changed, `tool classes changed:\n${changed.join('\n')}`).toEqual([]);
  });

  it('has a fixture entry for every name the classifier knows', () => {
    const listed = new Set(fixture.tools.map((t) => t.name));
    const unlisted = KNOWN_BUILTIN_TOOLS.filter((name) => !listed.has(name));
    expect(unlisted, `classified but missing from the fixture: ${unlisted.join(', ')}`).toEqual([]);
  });
});
