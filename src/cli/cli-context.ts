import type { App } from '../app/open-app.js';
import type { CliIo } from './cli-io.js';

/** What a command receives: the process streams and a way to open the app (closed by the runner). */
export interface CliContext {
  readonly io: CliIo;
  readonly verbose: boolean;
  /**
   * Opens the app for this invocation; `home` overrides `$MNEMO_HOME` (the demo's scratch store) and
   * always opens a local SQLite store there, whatever MNEMO_DATABASE_URL says.
   */
  openApp(options?: { home?: string }): Promise<App>;
}
