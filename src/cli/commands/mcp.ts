import type { CliContext } from '../cli-context.js';

/**
 * `mnemo mcp`: the MCP server on stdio, for `claude mcp add mnemo -- mnemo mcp`. Opens the app once and
 * returns when the client disconnects; the runner then closes the store.
 */
export async function mcp(ctx: CliContext): Promise<void> {
  const app = await ctx.openApp();
  const { serveStdio } = await import('../../mcp/serve-stdio.js');
  await serveStdio(app, { env: ctx.io.env, cwd: ctx.io.cwd });
}
