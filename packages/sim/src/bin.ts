import { runBin } from '@ipamkit/models';
import { main } from './cli/main.js';

runBin(main, { name: 'ipamkit-sim' });
