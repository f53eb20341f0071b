#!/usr/bin/env node
// Empties a build folder before a build: tsc never removes what it compiled from a file since moved
// or deleted, and a stale module would still be found by the tests and the executable.
import { rmSync } from 'node:fs';

for (const dir of process.argv.slice(2)) rmSync(dir, { recursive: true, force: true });
