#!/usr/bin/env node
import {
  READY,
  WORKER_ENV
} from "./chunk-CM72OTC3.js";

// src/hammer/hammer-worker.ts
import { runCni } from "@ipamkit/cni";
import { createDatastore } from "@ipamkit/ipam-datastore";
var config = JSON.parse(process.env[WORKER_ENV] ?? "{}");
var datastore = await createDatastore(config.datastore);
function envOf(req) {
  return {
    CNI_COMMAND: req.command,
    CNI_CONTAINERID: req.containerId,
    CNI_NETNS: `/var/run/netns/${req.containerId}`,
    CNI_IFNAME: "eth0",
    CNI_PATH: "/opt/cni/bin",
    CNI_ARGS: `IgnoreUnknown=1;K8S_POD_NAMESPACE=${req.namespace};K8S_POD_NAME=${req.pod};K8S_POD_INFRA_CONTAINER_ID=${req.containerId}`
  };
}
var chain = Promise.resolve();
process.on("message", (req) => {
  chain = chain.then(async () => {
    const out = await runCni({ env: envOf(req), stdin: config.netConf, datastore, stderr: () => void 0 });
    const reply = { id: req.id, exitCode: out.exitCode, stdout: out.stdout };
    process.send?.(reply);
  });
});
process.on("disconnect", () => {
  void datastore.close().finally(() => process.exit(0));
});
process.send?.(READY);
//# sourceMappingURL=hammer-worker.js.map