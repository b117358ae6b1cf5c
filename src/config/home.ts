/**
 * Where the mnemo home is, without loading the config: `$MNEMO_HOME`, else `~/.mnemo`. Used by the config
 * itself and by the hook entry point before anything else is loaded (the code cache, a broken config).
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The absolute mnemo home for `env` (an explicit `home` wins, as a CLI flag does). */
export function resolveMnemoHome(
  env: NodeJS.ProcessEnv,
  options: { home?: string; userHome?: string } = {},
): string {
  const fromEnv = env['MNEMO_HOME']?.trim();
  return resolve(
    options.home ??
      (fromEnv === undefined || fromEnv === '' ? undefined : fromEnv) ??
      join(options.userHome ?? homedir(), '.mnemo'),
  );
}
