import { runTunnelAllocCli } from './run-cli.js';

// SIGTERM/SIGINT stop the daemon cleanly (the reconcile in progress finishes first).
const controller = new AbortController();
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => controller.abort());

process.exitCode = await runTunnelAllocCli({
  argv: process.argv.slice(2),
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  signal: controller.signal,
});
