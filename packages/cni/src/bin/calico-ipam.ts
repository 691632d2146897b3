import { readFileSync } from 'node:fs';
import { pluginMain } from './plugin-main.js';

// The plugin as a script (dist/calico-ipam.cjs, run by a `node`): reads its own stdin.
pluginMain(() => readFileSync(0, 'utf8'));
