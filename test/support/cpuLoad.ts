// Another process keeping every core busy, for tests that must hold on a loaded machine: plain
// shell busy loops at the same priority as everything else, so the desktop, the apps and the
// server all compete with them for CPU as they would with a build running beside them.
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';

export class CpuLoad {
  private constructor(private readonly burners: ChildProcess[]) {}

  /** Starts one busy loop per core (at least two). */
  static start(processes = Math.max(2, availableParallelism())): CpuLoad {
    const burners = Array.from({ length: processes }, () => spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
    const load = new CpuLoad(burners);
    process.once('exit', () => load.stop());
    return load;
  }

  stop(): void {
    for (const burner of this.burners) if (burner.exitCode === null && burner.signalCode === null) burner.kill('SIGKILL');
  }
}
