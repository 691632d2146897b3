import { runBin } from './bin-main.js';

// The `ipamkit` executable: the in-process runner on the real process streams and environment,
// behind the top-level handler of design/cli.md "Exit codes".
await runBin();
