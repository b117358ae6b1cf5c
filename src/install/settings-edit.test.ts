import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { buildRegistration, type Launcher } from '../core/install/registration.js';
import { JsonText } from './json-text.js';
import { addEntries, type EntryRecord, removeEntries } from './settings-edit.js';

const launcher: Launcher = {
  hookPrefix: '/usr/bin/node /opt/mnemo/dist/cli/main.js',
  mcpCommand: '/usr/bin/node',
  mcpArgs: ['/opt/mnemo/dist/cli/main.js'],
};
const registration = buildRegistration('settings', launcher);
const HOOKS = { hooks: registration.hooks };
const SERVER = { mcpServer: registration.mcpServer };

function install(text: string | undefined, prior: EntryRecord[] = []) {
  const doc = JsonText.parse(text, 'settings.json');
  const edit = addEntries(doc, { ...HOOKS, ...SERVER }, prior, 'settings.json');
  return { doc, edit, text: doc.text() };
}

/** Settings-like objects: keys Claude Code knows and arbitrary ones, other people's hooks on our events. */
const foreignHandler = fc.record({
  type: fc.constant('command'),
  command: fc.string({ maxLength: 20 }).map((s) => `echo ${JSON.stringify(s)}`),
});
const settings = fc.record(
  {
    model: fc.string(),
    env: fc.dictionary(fc.string({ minLength: 1 }), fc.string()),
    hooks: fc.dictionary(
      fc.constantFrom('SessionStart', 'PostToolUse', 'Stop', 'PreToolUse', 'SessionEnd'),
      fc.array(
        fc.record({ matcher: fc.string(), hooks: fc.array(foreignHandler, { minLength: 1 }) }),
        {
          maxLength: 3,
        },
      ),
    ),
    mcpServers: fc.dictionary(
      fc.string({ minLength: 1 }).filter((k) => k !== 'mnemo'),
      fc.record({ command: fc.string() }),
    ),
    other: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

describe('addEntries / removeEntries', () => {
  it('removing after adding gives back the same JSON value, whatever else the file holds', () => {
    fc.assert(
      fc.property(settings, fc.constantFrom(0, 2, 4), (value, indent) => {
        const original = JSON.stringify(value, null, indent);
        const { doc, edit } = install(original);
        removeEntries(doc, edit, 'settings.json');
        expect(JSON.parse(doc.text())).toEqual(JSON.parse(original));
      }),
      { numRuns: 100 },
    );
  });

  it('gives back the exact text of a file laid out as Claude Code writes it (two-space JSON)', () => {
    fc.assert(
      fc.property(
        settings.filter((v) => Object.keys(v).length > 0),
        fc.boolean(),
        (value, newline) => {
          const original = JSON.stringify(value, null, 2) + (newline ? '\n' : '');
          const { doc, edit } = install(original);
          removeEntries(doc, edit, 'settings.json');
          expect(doc.text()).toBe(original);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('adding twice changes nothing the second time', () => {
    fc.assert(
      fc.property(settings, (value) => {
        const first = install(JSON.stringify(value, null, 2));
        const second = install(first.text, first.edit.entries);
        expect(second.text).toBe(first.text);
      }),
      { numRuns: 100 },
    );
  });

  it('keeps a foreign handler that shares a group with mnemo’s, and removes only mnemo’s', () => {
    const mixed = {
      hooks: {
        SessionEnd: [
          {
            hooks: [
              { type: 'command', command: 'say bye' },
              { type: 'command', command: `${launcher.hookPrefix} hook session-end`, timeout: 3 },
            ],
          },
        ],
      },
    };
    const { doc, edit } = install(JSON.stringify(mixed, null, 2));
    const sessionEnd = doc.get(['hooks', 'SessionEnd']) as unknown[];
    expect(sessionEnd).toHaveLength(2);
    expect(sessionEnd[0]).toEqual({ hooks: [{ type: 'command', command: 'say bye' }] });
    removeEntries(doc, edit, 'settings.json');
    expect(doc.get(['hooks', 'SessionEnd'])).toEqual([
      { hooks: [{ type: 'command', command: 'say bye' }] },
    ]);
  });

  it('does not take a foreign hook whose command merely ends like one of ours', () => {
    const foreign = {
      hooks: { PreCompact: [{ hooks: [{ type: 'command', command: 'git hook pre-compact' }] }] },
    };
    const { doc, edit } = install(JSON.stringify(foreign));
    removeEntries(doc, edit, 'settings.json');
    expect(doc.value()).toEqual(foreign);
  });

  it('records and restores a foreign server named mnemo, but not an older mnemo server', () => {
    const foreign = { mcpServers: { mnemo: { command: 'docker', args: ['run', 'x'] } } };
    const { doc, edit } = install(JSON.stringify(foreign));
    expect(edit.entries.find((e) => e.kind === 'mcp')).toMatchObject({
      previous: foreign.mcpServers.mnemo,
    });
    removeEntries(doc, edit, 'settings.json');
    expect(doc.value()).toEqual(foreign);
    const older = {
      mcpServers: { mnemo: { command: 'node', args: ['/old/mnemo/dist/cli/main.js', 'mcp'] } },
    };
    const again = install(JSON.stringify(older));
    removeEntries(again.doc, again.edit, 'settings.json');
    expect(again.doc.value()).toEqual({ mcpServers: {} });
  });

  it('removes entries it recognises by command when there is no record', () => {
    const { text } = install('{\n  "model": "opus"\n}\n');
    const doc = JsonText.parse(text, 'settings.json');
    const edit = removeEntries(doc, undefined, 'settings.json');
    expect(edit.removed).toBe(8);
    // Containers it emptied go too: without a record, an empty list can only be mnemo's leftover.
    expect(doc.value()).toEqual({ model: 'opus' });
  });
});
