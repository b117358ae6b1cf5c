// Preloaded into every process bench/hooks/latency.ts times (NODE_OPTIONS=--require): writes the
// process's own CPU time (user + system, ms) to $MNEMO_BENCH_CPU_FILE at exit. CPU time is far less
// sensitive than wall time to other load on a shared machine.
const file = process.env.MNEMO_BENCH_CPU_FILE;
if (file) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS preload, kept tiny
  const { writeFileSync } = require('node:fs');
  process.on('exit', () => {
    const usage = process.cpuUsage();
    writeFileSync(file, String((usage.user + usage.system) / 1000));
  });
}
