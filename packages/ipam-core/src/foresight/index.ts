// Foresight: runway and what-if planning over a snapshot (design/ipam-core.md, "Foresight").
export { loadClusterSnapshot, type ClusterSnapshot } from './cluster-snapshot.js';
export { computeRunway, type NodeRunway, type PoolRunway, type RunwayOptions, type RunwayReport, type NodeFamilyRunway } from './compute-runway.js';
export { applyWhatIf, type WhatIfChange } from './apply-what-if.js';
export { rateFromFlag, rateFromHistory, type AllocationRate, type RateSource } from './allocation-rate.js';
export type { FillFailure } from './plan-fill.js';
export type { PlannedFailure, RunwayLimit } from './planned-node.js';
