// `tandem doctor`: what Tandem needs on this machine, each check with ✓/✗ and the remedy.
// Never crashes on a missing display or permission: that is what it reports.

import type { TandemEngine } from '../../core/engineApi.js';
import type { PermissionCheck } from '../../core/model.js';
import { createProgress } from '../../core/progress.js';
import { EXIT_FAILED, EXIT_OK, type Command } from '../command.js';
import { artifactsCheck, desktopChecks, doctorPassed, formatCheck, nodeVersionCheck, platformCheck, trayCheck } from '../doctorChecks.js';
import { createEngine, createLazyDesktop } from '../engineFromEnv.js';
import { tandemVersion } from '../version.js';

const PERMISSION_CHECK_TIMEOUT_MS = 15_000;

async function backendChecks(env: NodeJS.ProcessEnv): Promise<PermissionCheck[]> {
  const desktop = createLazyDesktop(env);
  const checks: PermissionCheck[] = [];
  let engine: TandemEngine | undefined;
  try {
    engine = await createEngine(desktop, env);
  } catch (error) {
    // A bad setting (e.g. TANDEM_WATCHDOG_MS) must not hide the backend's report: ask it directly.
    checks.push({ id: 'settings', title: 'Settings', state: 'denied', detail: (error as Error).message, remedy: 'Fix or unset the variable named above.' });
  }
  try {
    const engineInUse = engine;
    return [
      ...checks,
      ...(await desktopChecks(
        engineInUse
          ? () => engineInUse.checkPermissions()
          : () => desktop.checkPermissions(createProgress({ timeoutMs: PERMISSION_CHECK_TIMEOUT_MS })),
      )),
    ];
  } finally {
    await engine?.close();
    await desktop.close();
  }
}

export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'Check the environment and permissions, with remedies',
  usage: 'tandem doctor',
  options: {},
  run: async ({ env }) => {
    const header = `Tandem ${tandemVersion()} doctor (${process.platform} ${process.arch}, Node.js ${process.versions.node})`;
    process.stdout.write(`${header}\n`); // stdout-ok: the CLI's report
    const checks: PermissionCheck[] = [nodeVersionCheck(), platformCheck(process.platform, env), await artifactsCheck(env)];
    checks.push(...(await backendChecks(env)));
    if (process.platform === 'linux') {
      const { statusNotifierHostState } = await import('../../../native/linux/statusNotifierHost.js');
      checks.push(trayCheck(await statusNotifierHostState(env)));
    }
    process.stdout.write(`${checks.map(formatCheck).join('\n')}\n`); // stdout-ok
    const passed = doctorPassed(checks);
    process.stdout.write(passed ? 'All required checks passed.\n' : 'Something required is missing: follow the → remedies above.\n'); // stdout-ok
    return passed ? EXIT_OK : EXIT_FAILED;
  },
};
