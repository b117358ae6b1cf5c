/**
 * The files a memory cites, for its code anchors (core/anchors/anchor.ts): paths with a directory, which
 * become anchors when they exist at write time and unresolved mentions when they do not, and bare file
 * names (`package.json`), which become anchors only when such a file exists (a bare word that names no
 * file is no citation). Pure: the caller checks the paths against the file system.
 */

/** Paths read per memory; a memory citing more is anchored on its first ones. */
export const MAX_CITED_PATHS = 8;
/** Bare file names read per memory. */
export const MAX_CITED_NAMES = 4;

// A relative path with at least one directory and a file extension (`src/money.ts`, `./lib/a.js`), or an
// absolute one. Preceded by start, space or an opening quote/bracket so URLs (`https://x/y.js`) and
// `owner/repo@1.2` style words after other characters do not match.
const PATH_TOKEN =
  /(?<=^|[\s`'"([<])(\/?(?:\.{1,2}\/)?(?:[\w@.-]+\/)+[\w@.-]*[\w-]\.[A-Za-z][A-Za-z0-9]{0,7})(?=$|[\s`'")\]>,;:!?]|\.(?:\s|$))/g;

/**
 * Project-relative paths cited by `content`, each once, at most {@link MAX_CITED_PATHS}. Absolute paths
 * count only under `projectRoot`; paths that climb out of the project (`../x`) are ignored.
 */
export function citedPaths(content: string, projectRoot: string): string[] {
  const root = projectRoot.endsWith('/') ? projectRoot : `${projectRoot}/`;
  const found = new Set<string>();
  for (const match of content.matchAll(PATH_TOKEN)) {
    const token = match[1] ?? '';
    const start = match.index;
    if (start >= 3 && content.slice(start - 3, start) === '://') continue;
    let relative: string;
    if (token.startsWith('/')) {
      if (!token.startsWith(root)) continue;
      relative = token.slice(root.length);
    } else {
      relative = token.replace(/^\.\//, '');
    }
    if (relative === '' || relative.split('/').includes('..')) continue;
    found.add(relative);
    if (found.size >= MAX_CITED_PATHS) break;
  }
  return [...found];
}

// A file name with an extension and no directory, delimited like PATH_TOKEN. The extension must start
// with a letter, so versions (`1.2.3`) never match; `e.g.`-style words name no file and are dropped by
// the caller's existence check.
const NAME_TOKEN =
  /(?<=^|[\s`'"([<])([\w@-][\w@.-]*\.[A-Za-z][A-Za-z0-9]{0,7})(?=$|[\s`'")\]>,;:!?]|\.(?:\s|$))/g;

/** Bare file names `content` cites (`package.json`, `tsconfig.json`), each once, at most {@link MAX_CITED_NAMES}. */
export function citedFileNames(content: string): string[] {
  const found = new Set<string>();
  for (const match of content.matchAll(NAME_TOKEN)) {
    const name = match[1] ?? '';
    const end = match.index + name.length;
    if (content[end] === '/' || content.slice(match.index - 3, match.index) === '://') continue;
    found.add(name);
    if (found.size >= MAX_CITED_NAMES) break;
  }
  return [...found];
}
