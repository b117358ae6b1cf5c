import { describe, expect, it } from 'vitest';

import { kindFromLabel } from './kind-prefix.js';

describe('kindFromLabel', () => {
  it('reads the four labels in any case, with or without space before the colon', () => {
    expect(kindFromLabel('Decision: use pnpm')).toBe('decision');
    expect(kindFromLabel('  preference : tabs')).toBe('preference');
    expect(kindFromLabel('CONVENTION: kebab-case file names')).toBe('decision');
    expect(kindFromLabel('Fix: set NODE_OPTIONS')).toBe('fix');
  });

  it('reads nothing from other words, a label later in the text or a label without its colon', () => {
    expect(kindFromLabel('Note: something')).toBeUndefined();
    expect(kindFromLabel('We made a Decision: use pnpm')).toBeUndefined();
    expect(kindFromLabel('Decision use pnpm')).toBeUndefined();
    expect(kindFromLabel('')).toBeUndefined();
    expect(kindFromLabel('constructor: x')).toBeUndefined();
  });
});
