import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Every file, directory and symlink under `root` with its mode and content hash: equal snapshots mean
 * byte-identical trees (nothing created, removed, re-moded or rewritten).
 */
export function snapshotTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(root)) return out;
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const stat = lstatSync(path);
      const key = relative(root, path);
      const mode = (stat.mode & 0o7777).toString(8);
      if (stat.isSymbolicLink()) out[key] = `link ${readlinkSync(path)}`;
      else if (stat.isDirectory()) {
        out[key] = `dir ${mode}`;
        walk(path);
      } else {
        const hash = createHash('sha256').update(readFileSync(path)).digest('hex');
        out[key] = `file ${mode} ${hash}`;
      }
    }
  };
  walk(root);
  return out;
}

/** A user settings file with something of everything, laid out as a person might (tabs, CRLF-free). */
export const RICH_SETTINGS = `{
\t"$schema": "https://json.schemastore.org/claude-code-settings.json",
\t"permissions": {
\t\t"allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"],
\t\t"deny": ["Read(./.env)"]
\t},
\t"env": { "FOO": "bar", "CLAUDE_CODE_ENABLE_TELEMETRY": "0" },
\t"hooks": {
\t\t"PostToolUse": [
\t\t\t{
\t\t\t\t"matcher": "Edit|Write",
\t\t\t\t"hooks": [{ "type": "command", "command": "prettier --write \\"$CLAUDE_FILE\\"", "timeout": 30 }]
\t\t\t}
\t\t],
\t\t"SessionStart": [
\t\t\t{ "hooks": [{ "type": "command", "command": "echo hello" }] }
\t\t],
\t\t"Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]
\t},
\t"model": "opus",
\t"cleanupPeriodDays": 60
}`;

/** A `~/.claude.json` as Claude Code writes it: two-space JSON, no trailing newline, other servers. */
export const RICH_CLAUDE_JSON = JSON.stringify(
  {
    numStartups: 42,
    installMethod: 'npm',
    autoUpdates: true,
    projects: {
      '/home/dev/acme': { allowedTools: [], mcpServers: {}, hasTrustDialogAccepted: true },
    },
    mcpServers: {
      github: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github'],
        env: {},
      },
      remote: { type: 'http', url: 'https://mcp.example.com/mcp' },
    },
    userID: 'abc123',
  },
  null,
  2,
);

/** Parses a file as JSON. */
export function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}
