#!/usr/bin/env node
// Writes config/postmill.example.json from the configuration's schema (src/config-schema.ts), after `npm run build`.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exampleConfig } from '../dist/config-example.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
writeFileSync(join(root, 'config', 'postmill.example.json'), exampleConfig());
