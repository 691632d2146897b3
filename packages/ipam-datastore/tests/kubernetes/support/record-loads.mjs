// `node --import <this>`: installs record-loads-hooks.mjs for the process.
import { register } from 'node:module';

register('./record-loads-hooks.mjs', import.meta.url);
