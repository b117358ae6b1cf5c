// tsc does not preserve the executable bit; npm links `bin` but a direct `./dist/cli/main.js` call needs it.
import { chmodSync, existsSync } from 'node:fs';

const bin = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(bin)) chmodSync(bin, 0o755);
