// The public API of @ipamkit/ipam-core (design/architecture.md#public-api).

// Pure block logic, reservations and utilization arithmetic.
export * from './block/index.js';
export * from './reservations/index.js';
export * from './utilization/index.js';

// The IPAM client.
export * from './client/index.js';

// Runway and what-if planning (pure, over a snapshot).
export * from './foresight/index.js';
