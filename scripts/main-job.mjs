// `npm start`: the main job. Builds the simulator and everything it depends on through nx, then runs
// `ipamkit-sim run` on the embedded default (SQLite in a temporary directory) with a cluster sized to
// finish in about a minute. Extra arguments go to `ipamkit-sim run`: `npm start -- --report out.html`.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULTS = ['--nodes', '20', '--pods', '400', '--churn', '3'];

const build = spawnSync('npx', ['--no-install', 'nx', 'run', 'sim:build', '--outputStyle=static'], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
});
if (build.status !== 0) {
  console.error(`main job: building the simulator failed (exit ${String(build.status)})`);
  process.exit(build.status ?? 1);
}

const extra = process.argv.slice(2);
// Flags given on the command line win over the defaults (parseArgs keeps the last occurrence).
const run = spawnSync(process.execPath, [join(root, 'packages', 'sim', 'dist', 'bin.js'), 'run', ...DEFAULTS, ...extra], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
