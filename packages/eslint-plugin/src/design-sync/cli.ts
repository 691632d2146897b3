#!/usr/bin/env node
import { runDesignSyncCommand } from './design-sync-command.js';

process.exitCode = runDesignSyncCommand(process.argv.slice(2), process.env, {
  cwd: process.cwd(),
  out: (line) => {
    console.log(line);
  },
  err: (line) => {
    console.error(line);
  },
});
