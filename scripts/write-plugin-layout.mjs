// Writes the Claude Code plugin files (.claude-plugin/plugin.json, hooks/hooks.json, .mcp.json) from the
// one registration table in src/core/install/registration.ts. Run after `npm run build`; the plugin-layout
// test fails when the committed files drift from the table.
import { readFileSync, writeFileSync } from 'node:fs';

const { pluginLayout } = await import('../dist/core/install/registration.js');
const root = new URL('../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
for (const [path, value] of Object.entries(pluginLayout(pkg))) {
  writeFileSync(new URL(path, root), `${JSON.stringify(value, null, 2)}\n`);
  console.log(`wrote ${path}`);
}
