#!/usr/bin/env node
import { runCommandBin } from '../utils/command-line.js';
import { runApiReportCommand } from './api-report-command.js';

runCommandBin(runApiReportCommand);
