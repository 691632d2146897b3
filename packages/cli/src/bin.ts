import { runIpamCommand } from './run-ipam-command.js';

// The `ipamkit` executable: the in-process runner on the real process streams and environment.
const code = await runIpamCommand(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
process.exitCode = code;
