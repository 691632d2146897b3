#!/usr/bin/env node

// src/hammer/hammer-protocol.ts
var WORKER_ENV = "IPAMKIT_HAMMER_WORKER";
var READY = "ready";

export {
  WORKER_ENV,
  READY
};
//# sourceMappingURL=chunk-CM72OTC3.js.map