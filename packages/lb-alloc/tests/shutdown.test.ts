import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeControllerShutdown } from '@ipamkit/test-utils';
import { serviceObject, startKube } from './kube-harness.js';

describeControllerShutdown({
  name: 'ipamkit-lb-alloc',
  bin: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/bin.js'),
  startKube: async () => {
    const { server } = await startKube();
    return { server, close: () => server.close() };
  },
  seed: (server) => {
    server.inject(serviceObject({ name: 'web' }));
  },
  runningMessage: 'load balancer controller running',
  metricTypes: ['nodejs_heap_size_used_bytes gauge'],
  flapping: { forMs: 12_000, downMs: 250, upMs: 350 },
});
