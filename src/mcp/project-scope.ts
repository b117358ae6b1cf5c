/**
 * Which project an MCP connection serves. A stdio server cannot trust its working directory or its
 * environment's session id to name the current project (integration reference §4.4), so the client's
 * `roots/list` wins: its first `file://` root is mapped through the same `resolveProjectKey` the hooks
 * use, so writer and reader agree byte for byte (threat model R4). Without roots: `CLAUDE_PROJECT_DIR`,
 * then the working directory. Tool arguments never name a project.
 */
import { fileURLToPath } from 'node:url';

import type { Logger } from '../log/log.js';
import { resolveProjectKey } from '../project/project-key.js';

/** A client root as `roots/list` returns it. */
export interface ClientRoot {
  uri: string;
  name?: string;
}

/** The connection's project, resolved lazily and refreshed when the client's roots change. */
export interface ProjectScope {
  /** The project key, or null when nothing resolves (global memories only, writes refused). */
  current(): Promise<string | null>;
  /** The directory the key was resolved from (where the project's files are), or null with it. */
  directory(): Promise<string | null>;
  /** Re-resolves from the client's roots; `list` failures fall back to the environment. */
  refreshFromRoots(list: () => Promise<{ roots: ClientRoot[] }>): void;
}

export interface ProjectScopeOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  log: Logger;
  /** Default: the hooks' `resolveProjectKey`. */
  resolveKey?: (dir: string) => string;
}

/** A resolved project: its key and the directory it was resolved from. */
interface Resolved {
  key: string;
  dir: string;
}

/** Creates the scope; until roots are asked for, the environment decides. */
export function createProjectScope(options: ProjectScopeOptions): ProjectScope {
  const resolveKey = options.resolveKey ?? resolveProjectKey;
  const keyOf = (dir: string, source: string): Resolved | null => {
    try {
      return { key: resolveKey(dir), dir };
    } catch (error) {
      options.log.warn('mcp project not resolved', { source, dir, error: String(error) });
      return null;
    }
  };
  const fromEnvironment = (): Resolved | null => {
    const declared = options.env['CLAUDE_PROJECT_DIR']?.trim();
    if (declared !== undefined && declared !== '') {
      const key = keyOf(declared, 'CLAUDE_PROJECT_DIR');
      if (key !== null) return key;
    }
    return keyOf(options.cwd, 'cwd');
  };

  let resolved: Promise<Resolved | null> | undefined;
  let generation = 0;
  const settled = (): Promise<Resolved | null> => {
    resolved ??= Promise.resolve(fromEnvironment());
    return resolved;
  };
  return {
    async current() {
      return (await settled())?.key ?? null;
    },
    async directory() {
      return (await settled())?.dir ?? null;
    },
    refreshFromRoots(list) {
      const mine = ++generation;
      const next = (async (): Promise<Resolved | null> => {
        try {
          const { roots } = await list();
          const root = roots.find((candidate) => candidate.uri.startsWith('file://'));
          if (root !== undefined) {
            const key = keyOf(fileURLToPath(root.uri), 'roots');
            if (key !== null) return key;
          }
          options.log.info('mcp roots name no usable directory; using the environment', {
            roots: roots.length,
          });
        } catch (error) {
          options.log.warn('mcp roots/list failed; using the environment', {
            error: String(error),
          });
        }
        return fromEnvironment();
      })();
      // A slower, older refresh must not overwrite a newer one.
      resolved = next.then(async (key) => (mine === generation ? key : await resolved!));
      void resolved.then((found) =>
        options.log.info('mcp project', { project: found?.key ?? null }),
      );
    },
  };
}
