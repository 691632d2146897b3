import { runBin } from '@ipamkit/models';
import { fail, guardProcess } from './process-guards.js';
import { runIpamCommand } from './run-ipam-command.js';

// The `ipamkit` executable: runIpamCommand on the process (design/models.md, "Bins"), behind the
// guards of design/cli.md "Exit codes". No top-level await: the same entry is bundled as CommonJS
// into the single executable (design/cli.md, "Single executable").
guardProcess();
runBin((argv, io) => runIpamCommand(argv, io).catch(fail), { name: 'ipamkit' });
