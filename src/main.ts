#!/usr/bin/env node
// The `postmill` command: serve, project, backup, restore, doctor (src/cli/).
import { runCli } from './cli/run.js';

void runCli(process.argv.slice(2));
