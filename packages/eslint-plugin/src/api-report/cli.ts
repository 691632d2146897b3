#!/usr/bin/env node
import { runApiReportCommand } from './api-report-command.js';

process.exitCode = runApiReportCommand(process.argv.slice(2), {
  cwd: process.cwd(),
  out: (line) => {
    console.log(line);
  },
  err: (line) => {
    console.error(line);
  },
});
