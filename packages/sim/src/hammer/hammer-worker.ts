// An allocator process of the hammer: opens the datastore once, then runs the CNI calls its parent
// sends, one at a time, through the same handler as the calico-ipam bin. The parent SIGKILLs it at
// random moments, which is the point.
import { runCni } from '@ipamkit/cni';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { cniEnv } from '../run/cni-call.js';
import { READY, WORKER_ENV, type WorkerConfig, type WorkerReply, type WorkerRequest } from './hammer-protocol.js';

const config = JSON.parse(process.env[WORKER_ENV] ?? '{}') as WorkerConfig;
const datastore = await createDatastore(config.datastore);

let chain = Promise.resolve();
process.on('message', (req: WorkerRequest) => {
  chain = chain.then(async () => {
    const out = await runCni({ env: cniEnv(req), stdin: config.netConf, datastore, stderr: () => undefined });
    const reply: WorkerReply = { id: req.id, exitCode: out.exitCode, stdout: out.stdout };
    process.send?.(reply);
  });
});
process.on('disconnect', () => {
  void datastore.close().finally(() => process.exit(0));
});
process.send?.(READY);
