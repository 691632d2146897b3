import { runBin } from '@ipamkit/models';
import { runTunnelAllocCli } from './run-cli.js';

// SIGTERM/SIGINT stop the daemon cleanly (the reconcile in progress finishes first). No top-level
// await: the same entry is bundled as CommonJS into the single executable (design/tunnel-alloc.md,
// "Single executable").
runBin(runTunnelAllocCli, { name: 'ipamkit-tunnel-alloc', stopOnSignal: true });
