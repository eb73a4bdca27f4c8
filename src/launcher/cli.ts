#!/usr/bin/env node
// The `tandem` executable (package.json bin → dist/src/launcher/cli.js).

import { runCli } from './runCli.js';

const code = await runCli(process.argv.slice(2));
// Let piped stdout drain (pipes are asynchronous on macOS), then exit even if a backend
// connection would keep the event loop alive.
process.stdout.write('', () => process.exit(code)); // stdout-ok: an empty write, only to drain
