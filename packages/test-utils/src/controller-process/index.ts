// Harnesses for tests that run a controller bin as a real process (design/test-utils.md, "Controller processes").
export { fetchStatus, killBin, spawnBin, writeKubeconfigForPort, type BinProcess } from './process-harness.js';
export { closedPort, startFlappingProxy, type FlappingProxy, type ProxyMode } from './flapping-proxy.js';
