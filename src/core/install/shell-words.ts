/**
 * POSIX shell quoting for the hook commands we write (Claude Code runs them with `sh -c`, or Git Bash on
 * Windows, reference §1.9), and the inverse split for a user's `--command` override. Pure.
 */
import { MemoryError } from '../errors.js';

// Characters that never need quoting in a POSIX shell word.
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Quotes `word` for a POSIX shell; a word of safe characters is left bare so the command stays readable. */
export function shellQuote(word: string): string {
  if (word.length > 0 && SAFE_WORD.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Splits a command line into words the way `sh` would for plain words, single and double quotes and
 * backslash escapes. Anything needing a real shell (variables, `;`, pipes, globs) is refused rather than
 * guessed at, since the result is run without one (the MCP server's exec form).
 * Throws INVALID_INPUT for an empty or unsupported command.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line.charAt(i);
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else current += ch;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = undefined;
      else if (ch === '\\' && i + 1 < line.length && '"\\$`'.includes(line.charAt(i + 1))) {
        current += line.charAt(++i);
      } else if (ch === '$' || ch === '`') throw unsupported(line);
      else current += ch;
      continue;
    }
    if (ch === ' ' || ch === '\t') {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '\\' && i + 1 < line.length) current += line.charAt(++i);
    else if ('$`;&|<>()*?[]{}~#\n\r'.includes(ch)) throw unsupported(line);
    else current += ch;
  }
  if (quote !== undefined) {
    throw new MemoryError('INVALID_INPUT', `--command has an unclosed ${quote} quote: ${line}`);
  }
  if (inWord) words.push(current);
  if (words.length === 0) {
    throw new MemoryError(
      'INVALID_INPUT',
      '--command is empty. Pass the command that starts mnemo, e.g. --command mnemo.',
    );
  }
  return words;
}

function unsupported(line: string): MemoryError {
  return new MemoryError(
    'INVALID_INPUT',
    `--command must be a plain command with arguments (quotes allowed, no variables, pipes, globs or ` +
      `operators), because the MCP server is started without a shell: ${line}`,
  );
}
