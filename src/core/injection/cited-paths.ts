/**
 * The files a memory cites, for the staleness check of threat model R5 (`R5-dead-path`): a memory that
 * names a file the project no longer has is probably about code that is gone, so it is not pushed into a
 * new session (it stays recallable on request). A quality signal only, never trust. Pure: the caller
 * checks the paths against the file system.
 */

/** Paths checked per memory; a memory citing more is judged on its first ones. */
export const MAX_CITED_PATHS = 8;

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
