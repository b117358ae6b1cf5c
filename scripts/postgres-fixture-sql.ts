// What scripts/make-postgres-fixture.ts writes SQL with: literals, and the lexical rule of v1–v3 as
// released (frozen with the fixtures it wrote).
import { textWords } from '../src/store/query-terms.js';

/** A value as a PostgreSQL literal: NULL, booleans, numbers, text arrays, bytea, quoted text. */
export const lit = (value: unknown): string => {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `ARRAY[${value.map(lit).join(', ')}]::text[]`;
  if (value instanceof Uint8Array) return `'\\x${Buffer.from(value).toString('hex')}'::bytea`;
  return `'${(value as string).replaceAll("'", "''")}'`;
};

// v1–v3 indexed the words of content and tags, accent-folded (v4 replaced it with core's analyser's
// terms): the rule as released, frozen here with the fixtures it wrote.
export function releasedLexicalText(content: string, tags: readonly string[]): string {
  const folded = `${content} ${tags.join(' ')}`
    .normalize('NFKD')
    .replace(/\p{Mn}/gu, '')
    .normalize('NFC');
  return textWords(folded).join(' ');
}
