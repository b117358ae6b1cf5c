/**
 * The project page Claude Code already reads at session start: the page section of the root's
 * `CLAUDE.md`, or `MNEMO.md` when `CLAUDE.md` imports it (a line `@MNEMO.md`). Session start uses it to
 * point at the page instead of repeating the memories it holds verbatim. Advisory: any problem (no
 * file, a damaged page, an unreadable one) means "no page" and is logged, never thrown.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { locateSection } from '../core/pages/managed-section.js';
import { type ParsedPage, parsePage } from '../core/pages/parse-page.js';
import type { Logger } from '../log/log.js';
import { CLAUDE_FILE_NAME, PAGE_FILE_NAME, readPageFile } from './page-file.js';

export interface LoadedPage {
  /** The file name, relative to the root (`CLAUDE.md` or `MNEMO.md`). */
  readonly file: string;
  readonly parsed: ParsedPage;
}

/** A line of CLAUDE.md importing the page file (Claude Code's `@path` import). */
const IMPORTS_PAGE = /^[ \t]*@(?:\.\/)?MNEMO\.md[ \t]*\r?$/mu;

function parsedIn(path: string): ParsedPage | undefined {
  const location = locateSection(readPageFile(path).text);
  if (location === undefined) return undefined;
  return parsePage(
    location.lines.map((line) => line.replace(/\r$/u, '')),
    location.line,
  );
}

/** The page Claude Code loads from the working tree at `root`, or undefined. */
export function readLoadedPage(root: string, log: Logger): LoadedPage | undefined {
  const claude = join(root, CLAUDE_FILE_NAME);
  try {
    if (!existsSync(claude)) return undefined;
    const own = parsedIn(claude);
    if (own !== undefined) return { file: CLAUDE_FILE_NAME, parsed: own };
    if (!IMPORTS_PAGE.test(readPageFile(claude).text)) return undefined;
    const imported = parsedIn(join(root, PAGE_FILE_NAME));
    return imported === undefined ? undefined : { file: PAGE_FILE_NAME, parsed: imported };
  } catch (error) {
    log.warn('project page not read', { root, error: String(error).slice(0, 300) });
    return undefined;
  }
}

/**
 * What to tell a person who wrote the page to `path` when Claude Code will not read it there: how to
 * make it. Undefined when it does already.
 */
export function loadedPageHint(root: string, path: string): string | undefined {
  const claude = join(root, CLAUDE_FILE_NAME);
  if (resolve(path) === claude) return undefined;
  if (resolve(path) !== join(root, PAGE_FILE_NAME)) {
    return 'Claude Code reads this file only if CLAUDE.md imports it (a line `@<path>`).';
  }
  let imported = false;
  try {
    imported = existsSync(claude) && IMPORTS_PAGE.test(readPageFile(claude).text);
  } catch {
    // An unreadable CLAUDE.md imports nothing.
  }
  return imported
    ? undefined
    : `Claude Code reads ${PAGE_FILE_NAME} once CLAUDE.md imports it: add a line \`@${PAGE_FILE_NAME}\` to CLAUDE.md, or write the page into CLAUDE.md itself with \`mnemo pages write --into CLAUDE.md\`.`;
}
