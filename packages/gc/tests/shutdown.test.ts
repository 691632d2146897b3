import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeControllerShutdown } from '@ipamkit/test-utils';
import { nodeObject, podObject, startKube } from './kube-harness.js';

describeControllerShutdown({
  name: 'ipamkit-gc',
  bin: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/bin.js'),
  startKube: () => startKube({ kubevirt: false }),
  seed: (server) => {
    server.inject(nodeObject('node-a'));
    server.inject(podObject({ name: 'web', node: 'node-a', ips: ['10.0.0.5'] }));
  },
  runningMessage: 'garbage collector running',
  metricTypes: ['process_resident_memory_bytes gauge', 'nodejs_eventloop_lag_seconds gauge'],
  // Down 300 ms, up 500 ms, for 20 s: every reflector fails and backs off about 25 times.
  flapping: { forMs: 20_000, downMs: 300, upMs: 500 },
});
