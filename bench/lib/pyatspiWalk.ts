// The pyatspi baseline: bench/lib/pyatspi_walk.py (libatspi through GObject introspection, what
// a Python accessibility script uses) walking one app node by node, run by Debian's python with
// the desktop's environment. Its times are taken inside that process, so the interpreter's start
// is not counted against it.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT, SYSTEM_PYTHON } from '../../scripts/lib/mcpSession.js';
import { median } from './measure.js';

export interface PyatspiWalk {
  nodes: number;
  samples: number[];
  medianMs: number;
}

const WALK_SCRIPT = join(REPO_ROOT, 'bench', 'lib', 'pyatspi_walk.py');

export function pyatspiWalk(pid: number, env: NodeJS.ProcessEnv, runs: number, warmup = 2): Promise<PyatspiWalk> {
  return new Promise((resolve, reject) => {
    const child = spawn(SYSTEM_PYTHON, [WALK_SCRIPT, String(pid), String(warmup), String(runs)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`pyatspi walk exited with ${code}: ${stderr.trim().split('\n').pop() ?? ''} (needs python3-gi and gir1.2-atspi-2.0)`));
      const { nodes, ms } = JSON.parse(stdout) as { nodes: number; ms: number[] };
      resolve({ nodes, samples: ms, medianMs: median(ms) });
    });
  });
}
