/**
 * The symbols a memory names (functions, classes, config keys), for the symbol half of its anchors: a
 * symbol is recorded on a file anchor when the file contained it as a whole word at anchoring time, so a
 * later check can say "openPool no longer in src/db.ts". Only code-shaped tokens count (camelCase,
 * PascalCase with an inner capital, snake_case, `name()`, dotted keys); plain words never do. Pure.
 */
import { MAX_SYMBOLS } from './anchor.js';

/** Candidates considered per memory; the rest of a long text is not mined for symbols. */
export const MAX_SYMBOL_CANDIDATES = 32;
/** Characters of a memory scanned for candidates. */
const MAX_SCAN = 8192;

const TOKEN = /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(\(\))?/g;
const INNER_CAPITAL = /[a-z0-9][A-Z]/;
const SNAKE = /[A-Za-z0-9]_[A-Za-z0-9]/;
/** `db.ts`, `config.json`: a file name, which the path anchors cover. */
const FILE_NAME = /\.[A-Za-z][A-Za-z0-9]{0,7}$/;
const WORD_CHAR = /[\w$]/;

function codeShaped(token: string): boolean {
  return INNER_CAPITAL.test(token) || SNAKE.test(token);
}

/** Code-shaped tokens of `content`, each once, in order, at most {@link MAX_SYMBOL_CANDIDATES}. */
export function candidateSymbols(content: string): string[] {
  const text = content.slice(0, MAX_SCAN);
  const found = new Set<string>();
  for (const match of text.matchAll(TOKEN)) {
    const start = match.index;
    const end = start + match[0].length;
    // Part of a path (`src/db.ts`, `a/b`) or a URL: the path anchors cover it.
    if (text[start - 1] === '/' || text[end] === '/' || text[start - 1] === '.') continue;
    const call = match[1] !== undefined;
    const token = call ? match[0].slice(0, -2) : match[0];
    if (token.length < 3) continue;
    const segments = token.split('.');
    if (segments.length > 1) {
      if (FILE_NAME.test(token) && !call) continue;
      const last = segments.at(-1) ?? '';
      found.add(token);
      if (last.length >= 3 && codeShaped(last)) found.add(last);
    } else if (call || codeShaped(token)) {
      found.add(token);
    }
    if (found.size >= MAX_SYMBOL_CANDIDATES) break;
  }
  return [...found].slice(0, MAX_SYMBOL_CANDIDATES);
}

/** The candidates that occur in `text` as whole words, in candidate order, at most {@link MAX_SYMBOLS}. */
export function symbolsIn(text: string, candidates: readonly string[]): string[] {
  const kept: string[] = [];
  for (const symbol of candidates) {
    if (kept.length >= MAX_SYMBOLS) break;
    if (containsWord(text, symbol)) kept.push(symbol);
  }
  return kept;
}

/** True when `word` occurs in `text` with no identifier character on either side. */
export function containsWord(text: string, word: string): boolean {
  if (word === '') return false;
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    const before = at === 0 ? '' : (text[at - 1] ?? '');
    const after = text[at + word.length] ?? '';
    if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) return true;
  }
  return false;
}
