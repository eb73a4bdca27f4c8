#!/usr/bin/env node
// Writes dist/package.json = {"type":"module"} (npm run build). The compiled files are ES
// modules; inside the repo and in app.asar the root package.json says so, but the packaged app's
// unpacked guard worker (Resources/app.asar.unpacked/dist/…) has no package.json above it — Node
// would take it as ESM only by guessing from its syntax. This file, packed and unpacked
// (electron-builder.yml), says it outright. Nameless on purpose: version.ts skips it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
mkdirSync(dist, { recursive: true });
writeFileSync(join(dist, 'package.json'), `${JSON.stringify({ type: 'module' }, null, 2)}\n`);
