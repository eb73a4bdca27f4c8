#!/usr/bin/env node
// The `tandem` executable (package.json bin → dist/src/launcher/cli.js).

import { endProcess } from '../backends/index.js';
import { runCli } from './runCli.js';

const code = await runCli(process.argv.slice(2));
// Let piped stdout drain (pipes are asynchronous on macOS), then exit even if a backend
// connection would keep the event loop alive — with SIGKILL if a backend left a thread stuck,
// which a normal exit would wait on for ever (src/backends/stuckThreads.ts).
endProcess(code);
