import { runBin } from './bin-main.js';

// The `ipamkit` executable: the in-process runner on the real process streams and environment,
// behind the top-level handler of design/cli.md "Exit codes". No top-level await: the same entry is
// bundled as CommonJS into the single executable (design/cli.md, "Single executable"); runBin
// catches everything itself.
void runBin();
