// tsc and esbuild do not set the executable bit; npm links `bin` but a direct `./dist/cli/mnemo.cjs`
// call needs it (main.js too, which installs made before mnemo.cjs existed may run directly).
import { chmodSync, existsSync } from 'node:fs';

for (const file of ['../dist/cli/mnemo.cjs', '../dist/cli/main.js']) {
  const bin = new URL(file, import.meta.url);
  if (existsSync(bin)) chmodSync(bin, 0o755);
}
