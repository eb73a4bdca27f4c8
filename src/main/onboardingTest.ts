// The wizard's "test it" step: a read-only refresh of a real running app (never guarded, never
// moves anything), reported with the first lines of the tree the agent would see.

import { readFile } from 'node:fs/promises';
import type { TandemEngine } from '../core/engineApi.js';
import type { RunningApp } from '../core/model.js';
import type { TestRunResult } from '../shared/types.js';

const PREVIEW_LINES = 12;
/** Apps that make a good first test because every desktop has one running. */
const PREFERRED = /^(finder|mousepad|gedit|text ?edit|nautilus|files|calculator|gnome-calculator|xfce4-terminal|terminal)$/i;

export function pickTestApp(apps: RunningApp[], ownPid: number): RunningApp | undefined {
  const others = apps.filter((app) => app.pid !== ownPid && !/tandem/i.test(app.name));
  return others.find((app) => PREFERRED.test(app.name)) ?? others[0];
}

export async function runTestRefresh(engine: TandemEngine, ownPid: number): Promise<TestRunResult> {
  try {
    const app = pickTestApp(await engine.listApps(), ownPid);
    if (!app) return { ok: false, summary: 'No other app is running: open any app (a text editor will do) and try again.' };
    const result = await engine.refresh(app.pid, { clientId: 'Tandem setup' });
    if (result.status !== 'ok') {
      return { ok: false, app: app.name, pid: app.pid, summary: result.error?.message ?? result.summary, error: result.error?.code };
    }
    const preview = result.file
      ? (await readFile(result.file, 'utf8').catch(() => '')).split('\n').slice(0, PREVIEW_LINES).join('\n')
      : undefined;
    return {
      ok: true,
      app: result.app || app.name,
      pid: result.pid,
      elementCount: result.elementCount,
      summary: `Read ${result.elementCount} elements (${result.visibleElements} visible) from ${result.app || app.name}.`,
      preview,
    };
  } catch (error) {
    return { ok: false, summary: (error as Error).message, error: 'internal' };
  }
}
