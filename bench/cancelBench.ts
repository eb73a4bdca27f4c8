// Cancel bench: what reaches the app after a call stops, and how soon a killed server gives the
// person their keyboard back — the figures behind "a cancel means nothing more arrives". Through
// a real MCP client on the fixture app (which prints every key it handles, with the time), while
// the call types 40,000 characters. The end-to-end suite asserts the limits; this prints them.
//   - Esc: the simulated person presses Esc 1.5 s into the typing; keys the app handled after
//     the `cancelled` answer, over the next 2 s (limit: 5);
//   - watchdog (2.5 s): the same after the `watchdog` answer;
//   - kill -9 of the server mid-typing: time until the person's key reaches the app (limit 1 s).

import { performance } from 'node:perf_hooks';
import { ensureDesktopPackages, startVirtualDesktop } from '../scripts/lib/virtualDesktop.js';
import { FixtureApp, McpSession, delay, eventually } from '../test/support/e2eHarness.js';
import { SimulatedHuman } from '../test/support/simulatedHuman.js';
import { formatMs, median } from './lib/measure.js';
import { printTable } from './lib/table.js';

const RUNS = 3;
const LONG_TEXT = 'x'.repeat(40_000);

export async function runCancelBench(): Promise<void> {
  ensureDesktopPackages();
  const desktop = await startVirtualDesktop();
  const fixture = await FixtureApp.start(desktop);
  const human = await SimulatedHuman.connect(desktop.display);
  const keysAfter = (since: number): number => fixture.eventsNamed('key').filter((event) => Number(event.t) > since).length;
  /** Starts the long typing; resolves, once the app is taking keys in, with the call still running. */
  const startTyping = async (session: McpSession): Promise<{ call: Promise<unknown> }> => {
    const keysBefore = fixture.eventsNamed('key').length;
    const call = session.call('click_and_traverse', {
      pid: fixture.pid,
      element: 'Name entry',
      role: 'text',
      steps: [{ action: 'press', keyName: 'a', modifierFlags: ['ctrl'] }, { action: 'press', keyName: 'backspace' }, { action: 'type', text: LONG_TEXT }],
    });
    await eventually(() => (fixture.eventsNamed('key').length > keysBefore + 200 ? true : undefined), 20_000, 'typing under way');
    return { call };
  };
  const rows: string[][] = [];
  try {
    const server = await McpSession.start(desktop);
    const escLate: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const { call } = await startTyping(server);
      await delay(1_500);
      await human.pressKey('Escape');
      await call;
      const answeredAt = Date.now();
      await delay(2_000);
      escLate.push(keysAfter(answeredAt));
    }
    rows.push(['Esc 1.5 s into typing 40,000 characters', `${RUNS}`, `${median(escLate)} keys`, `${Math.max(...escLate)} keys`, '≤ 5 keys after the cancelled answer, over 2 s']);
    await server.close();

    const impatient = await McpSession.start(desktop, { env: { TANDEM_WATCHDOG_MS: '2500' } });
    const watchdogLate: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      await (await startTyping(impatient)).call;
      const answeredAt = Date.now();
      await delay(2_000);
      watchdogLate.push(keysAfter(answeredAt));
    }
    rows.push(['watchdog (2.5 s) during the same typing', `${RUNS}`, `${median(watchdogLate)} keys`, `${Math.max(...watchdogLate)} keys`, '≤ 5 keys after the watchdog answer, over 2 s']);
    await impatient.close();

    const backAfter: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const doomed = await McpSession.start(desktop);
      const { call } = await startTyping(doomed);
      call.catch(() => {});
      process.kill(doomed.pid, 'SIGKILL');
      const killedAt = performance.now();
      await eventually(async () => {
        await human.typeText('Q');
        return fixture.lastName()?.endsWith('Q') ? true : undefined;
      }, 10_000, "the person's key after the kill");
      backAfter.push(performance.now() - killedAt);
      await doomed.close();
    }
    rows.push(['kill -9 of the server while it types', `${RUNS}`, `${formatMs(median(backAfter))} ms`, `${formatMs(Math.max(...backAfter))} ms`, "≤ 1,000 ms until the person's key reaches the app"]);
    printTable('Cancel and kill (fixture app, real MCP client, simulated person)', ['what', 'runs', 'median', 'worst', 'limit'], rows);
  } finally {
    await human.close();
    await desktop.stop();
  }
}
