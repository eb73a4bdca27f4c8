// "Relaunch Tandem" from the wizard (macOS applies Screen Recording only to a new process): main
// saves the wizard's step, asks Electron to start the app again and quits cleanly; the next
// start reopens the wizard at that step — even for someone who had finished onboarding and came
// back through "Permissions…" — and only once.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { startApp, type AppFixture } from './support/appFixture.js';
import type { FakeElectron } from './support/fakeElectron.js';

/** Someone who finished the wizard before: no wizard at start. */
function onboarded(electron: FakeElectron): void {
  mkdirSync(electron.fake.userData, { recursive: true });
  writeFileSync(join(electron.fake.userData, 'onboarded'), 'yes\n');
}

/** Quitting closes the socket host and the engine first: wait for it (bounded), not a number of turns. */
async function quitCallsWithin(electron: FakeElectron, ms: number): Promise<number> {
  const deadline = Date.now() + ms;
  while (electron.fake.quitCalls === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return electron.fake.quitCalls;
}

describe('relaunch from the wizard', () => {
  const apps: AppFixture[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.cleanup();
  });

  it('should save the step, relaunch, quit, and reopen the wizard at that step on the next start, once', async () => {
    const first = await startApp({ platform: 'darwin', beforeStart: onboarded });
    apps.push(first);
    assert.equal(first.windowsOf('onboarding').length, 0, 'onboarded: no wizard at start');
    first.tray.click('permissions');
    const [wizard] = first.windowsOf('onboarding');

    await first.electron.fake.invoke('app:relaunch', { resumeStep: 'screen-recording' }, wizard);
    assert.equal(first.electron.fake.relaunchCalls, 1);
    assert.equal(await quitCallsWithin(first.electron, 5_000), 1, 'the app quit, so the relaunch can start');
    const userData = first.electron.fake.userData;
    const saved = readdirSync(userData).filter((name) => name !== 'onboarded');
    assert.equal(saved.length, 1);
    assert.equal(statSync(join(userData, saved[0])).mode & 0o777, 0o600, 'the step file is private');

    const second = await startApp({
      platform: 'darwin',
      beforeStart: (electron) => {
        rmSync(electron.fake.userData, { recursive: true, force: true });
        electron.fake.userData = userData;
      },
    });
    apps.push(second);
    const [reopened] = second.windowsOf('onboarding');
    assert.ok(reopened, 'the wizard is back although onboarding was finished');
    assert.equal(await second.electron.fake.invoke('onboarding:resume-step', undefined, reopened), 'screen-recording');
    assert.equal(await second.electron.fake.invoke('onboarding:resume-step', undefined, reopened), null, 'reopened later, the wizard starts at its first step');
    assert.deepEqual(readdirSync(userData), ['onboarded'], 'the step is used by one start only');
  });

  it('should refuse a step that is not a step key, and neither relaunch nor quit', async () => {
    const app = await startApp({ platform: 'darwin' });
    apps.push(app);
    const [wizard] = app.windowsOf('onboarding');
    for (const resumeStep of ['../../etc/passwd', '', 'Screen Recording', 42]) {
      await assert.rejects(app.electron.fake.invoke('app:relaunch', { resumeStep }, wizard), /malformed/);
    }
    await quitCallsWithin(app.electron, 300); // a quit would have come by now
    assert.deepEqual([app.electron.fake.relaunchCalls, app.electron.fake.quitCalls], [0, 0]);
    assert.equal(existsSync(join(app.electron.fake.userData, 'onboarding-resume.json')), false);
    assert.equal(await app.electron.fake.invoke('onboarding:resume-step', undefined, wizard), null);
  });
});
