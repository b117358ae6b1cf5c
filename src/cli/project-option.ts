import { resolve } from 'node:path';

import { resolveProjectKey } from '../project/project-key.js';
import type { CliIo } from './cli-io.js';

/** The project key for `--project <dir>`, or for the working directory when the flag is absent. */
export function projectKeyFromOption(io: CliIo, project: string | undefined): string {
  return resolveProjectKey(resolve(io.cwd, project ?? '.'));
}
