import { runTunnelAllocCli } from './run-cli.js';

// SIGTERM/SIGINT stop the daemon cleanly (the reconcile in progress finishes first).
const controller = new AbortController();
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => controller.abort());

// No top-level await: the same entry is bundled as CommonJS into the single executable
// (design/tunnel-alloc.md, "Single executable").
void runTunnelAllocCli({
  argv: process.argv.slice(2),
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  signal: controller.signal,
}).then((code) => {
  process.exitCode = code;
});
