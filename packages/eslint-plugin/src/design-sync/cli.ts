#!/usr/bin/env node
import { runCommandBin } from '../utils/command-line.js';
import { runDesignSyncCommand } from './design-sync-command.js';

runCommandBin(runDesignSyncCommand);
