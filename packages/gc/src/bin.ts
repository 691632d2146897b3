import { runBin } from '@ipamkit/models';
import { main } from './main.js';

// SIGTERM and SIGINT start the shutdown; the process ends once it answers (a watch may hold a socket).
runBin(main, { name: 'ipamkit-gc', stopOnSignal: true, exitWhenDone: true });
