// The live feed in real Chromium, fed with cards that a real engine run produced (Engine over the
// scripted desktop, real ArtifactStore, real PNG screenshot) through main's FeedStore.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { FeedStore } from '../../src/main/feedStore.js';
import { SettingsStore } from '../../src/core/settings.js';
import type { FeedCall } from '../../src/shared/types.js';
import { engineFixture, type EngineFixture } from '../support/engineFixtures.js';
import { ScriptedDesktop } from '../support/scriptedDesktop.js';
import { chromiumAvailable, launchBrowser, openView } from './support/rendererHarness.js';

const TASKS = 500;
const FINDER = 100;
const SECRET = 'hunter2-very-secret';

function tasksDesktop(): ScriptedDesktop {
  return new ScriptedDesktop({
    apps: [
      { pid: FINDER, name: 'Finder', tree: { role: 'Application', text: 'Finder', children: [{ role: 'Window', text: 'Desktop', bounds: { x: 0, y: 0, width: 1280, height: 800 } }] } },
      {
        pid: TASKS,
        name: 'Tasks',
        tree: {
          role: 'Application',
          text: 'Tasks',
          children: [
            {
              role: 'Window',
              text: 'Tasks',
              bounds: { x: 100, y: 80, width: 420, height: 360 },
              children: [
                { role: 'Label', text: 'Tip: add your first task below', bounds: { x: 110, y: 90, width: 300, height: 20 } },
                { role: 'List', text: 'Task list', bounds: { x: 110, y: 120, width: 300, height: 160 }, children: [{ role: 'ListItem', text: 'Buy milk', bounds: { x: 110, y: 120, width: 300, height: 24 } }] },
                { role: 'Text', text: 'New task', bounds: { x: 110, y: 290, width: 220, height: 28 } },
                {
                  role: 'PushButton',
                  text: 'Add',
                  bounds: { x: 340, y: 290, width: 70, height: 28 },
                  onClick: ({ desktop }) => {
                    const field = desktop.find(TASKS, ' Water the plants');
                    desktop.find(TASKS, 'Task list').append({ role: 'ListItem', text: 'Water the plants', bounds: { x: 110, y: 144, width: 300, height: 24 } });
                    desktop.find(TASKS, 'Tip: add your first task below').remove();
                    desktop.find(TASKS, '1 task').setText('2 tasks');
                    field.value = '';
                  },
                },
                { role: 'Label', text: '1 task', bounds: { x: 110, y: 330, width: 100, height: 20 } },
                { role: 'PasswordText', secure: true, bounds: { x: 110, y: 360, width: 220, height: 28 } },
                {
                  role: 'PushButton',
                  text: 'Export…',
                  bounds: { x: 340, y: 360, width: 70, height: 28 },
                  onClick: ({ desktop }) => {
                    desktop.startApp(
                      { pid: 600, name: 'Save Panel', tree: { role: 'Application', text: 'Save Panel', children: [{ role: 'Dialog', text: 'Export As', bounds: { x: 200, y: 150, width: 300, height: 200 } }] } },
                      { frontmost: true },
                    );
                  },
                },
              ],
            },
          ],
        },
      },
    ],
    frontmostPid: FINDER,
    cursor: { x: 5, y: 5 },
  });
}

describe('live feed view', { skip: !chromiumAvailable() && 'no /usr/bin/chromium' }, () => {
  let browser: Browser;
  let fixture: EngineFixture;
  let cards: FeedCall[];
  let screenshotUrl: string;
  let addCall: FeedCall;

  before(async () => {
    browser = await launchBrowser();
    // "Buy milk" is on the default confirm_before list: these cards are about other things.
    fixture = await engineFixture(tasksDesktop(), { watchdogMs: 300, settings: new SettingsStore({ env: { TANDEM_CONFIRM_BEFORE: ',' } }) });
    const feed = new FeedStore(fixture.engine);
    const { engine, desktop } = fixture;
    const claude = { clientId: 'Claude Desktop #1' };
    const cursor = { clientId: 'Cursor #2' };
    const click = (text: string) => ({ kind: 'click' as const, target: { query: { text } }, button: 'left' as const, count: 1 as const, modifiers: [] });

    await engine.refresh(TASKS, claude);
    const added = await engine.act({ tool: 'click_and_traverse', pid: TASKS, steps: [click('New task'), { kind: 'type', text: ' Water the plants' }, click('Add')] }, claude);
    assert.equal(added.status, 'ok', added.error?.message);
    await engine.act({ tool: 'type_and_traverse', pid: TASKS, steps: [{ kind: 'click', target: { query: { role: 'PasswordText' } }, button: 'left', count: 1, modifiers: [] }, { kind: 'type', text: SECRET }] }, cursor);
    desktop.when('click', () => desktop.human.pressEscape(), { once: true });
    await engine.act({ tool: 'click_and_traverse', pid: TASKS, steps: [click('Buy milk'), click('Add')] }, cursor);
    desktop.behave('click', { hang: true, once: true });
    await engine.act({ tool: 'click_and_traverse', pid: TASKS, steps: [click('Buy milk')] }, claude);
    await engine.act({ tool: 'click_and_traverse', pid: TASKS, steps: [click('Export…')] }, claude);

    cards = feed.list();
    addCall = cards.find((card) => card.callId === cards[1].callId)!;
    const png = await readFile(feed.artifactsOf(addCall.callId)!.screenshot!);
    screenshotUrl = `data:image/png;base64,${png.toString('base64')}`;
  });
  after(async () => {
    await browser?.close();
    await fixture?.cleanup();
  });

  it('should show one card per call with the coloured diff, the screenshot and the badges', async () => {
    assert.equal(cards.length, 6);
    const view = await openView(browser, 'feed', {
      listFeed: cards,
      getState: { paused: false, status: 'idle', current: null, platform: 'linux', version: '0.1.0' },
      getScreenshot: screenshotUrl,
    }, { width: 820, height: 1300 });
    const { page } = view;
    await page.locator('.card').first().waitFor();
    assert.equal(await page.locator('.card').count(), 6);
    const order = await page.locator('.card').evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('data-call-id'))));
    assert.deepEqual(order, cards.map((card) => card.callId).reverse(), 'newest first');

    const add = page.locator(`.card[data-call-id="${addCall.callId}"]`);
    assert.equal(await add.locator('.diff-line.added', { hasText: 'Water the plants' }).count() > 0, true);
    assert.equal(await add.locator('.diff-line.removed', { hasText: 'Tip: add your first task below' }).count(), 1);
    assert.equal(await add.locator('.diff-line.changed', { hasText: "'1 task' -> '2 tasks'" }).count(), 1);
    const colours = await add.evaluate((card) => {
      const style = (globalThis as unknown as { getComputedStyle(node: unknown): { color: string } }).getComputedStyle;
      return ['added', 'removed', 'changed'].map((kind) => style(card.querySelector(`.diff-line.${kind}`)).color);
    });
    assert.deepEqual(colours, ['rgb(31, 138, 76)', 'rgb(201, 55, 44)', 'rgb(168, 100, 0)'], 'green, red, amber');
    await add.locator('.thumb img').waitFor();
    assert.ok((await add.locator('.thumb img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)) > 0, 'the real PNG decoded');

    assert.equal(await page.locator('.badge', { hasText: 'Cancelled' }).count(), 1);
    assert.equal(await page.locator('.badge-state-watchdog', { hasText: 'Watchdog' }).count(), 1);
    assert.equal(await page.locator('.badge-handoff', { hasText: '→ Save Panel' }).count(), 1);
    const pageText = (await page.textContent('body')) ?? '';
    assert.ok(!pageText.includes(SECRET), 'the password never reaches the feed');
    assert.match(pageText, /\[secure text\]/);

    await view.screenshot('feed', { fullPage: true });

    await add.locator('button', { hasText: 'Show file' }).click();
    const calls = await view.calls();
    assert.deepEqual(calls.find((call) => call.method === 'openArtifact')?.request, { callId: addCall.callId, target: 'file' });
  });

  it('should mark a call that ran in the background, and only that one', async () => {
    const feed = new FeedStore(fixture.engine);
    const setTask = { kind: 'set-value' as const, query: { text: 'New task' }, value: 'Call the plumber' };
    const quiet = await fixture.engine.act({ tool: 'set_value', pid: TASKS, steps: [setTask], background: true }, { clientId: 'Claude Desktop #1' });
    assert.equal(quiet.status, 'ok', quiet.error?.message);
    await fixture.engine.act({ tool: 'set_value', pid: TASKS, steps: [setTask] }, { clientId: 'Claude Desktop #1' });
    const [background, foreground] = feed.list();
    const view = await openView(browser, 'feed', { listFeed: [background, foreground], getState: { paused: false, status: 'idle', current: null, platform: 'linux', version: '0.1.0' } });
    const { page } = view;
    await page.locator('.card').first().waitFor();
    assert.equal(await page.locator(`.card[data-call-id="${background.callId}"] .badge-background`, { hasText: 'background' }).count(), 1);
    assert.equal(await page.locator(`.card[data-call-id="${foreground.callId}"] .badge-background`).count(), 0, 'a foreground call has no badge');
  });

  it('should filter by client session and show live updates', async () => {
    const view = await openView(browser, 'feed', { listFeed: cards, getState: { paused: false, status: 'idle', current: null, platform: 'linux', version: '0.1.0' } });
    const { page } = view;
    await page.locator('.card').first().waitFor();
    await page.selectOption('select', 'Cursor #2');
    const shownClients = await page.locator('.card').evaluateAll((nodes) => nodes.length);
    assert.equal(shownClients, cards.filter((card) => card.clientId === 'Cursor #2').length);

    await page.selectOption('select', '');
    await view.emit('feed:call', { callId: 999, tool: 'scroll_and_traverse', clientId: 'Claude Desktop #1', args: { pid: TASKS, deltaY: 3 }, state: 'running', startedAt: Date.now(), hasScreenshot: false, steps: [], currentStep: 'Scrolling' } satisfies FeedCall);
    await page.locator('.card[data-call-id="999"] .badge', { hasText: 'Running' }).waitFor();
    assert.equal(await page.locator('.card').first().getAttribute('data-call-id'), '999');
    await view.emit('app:state', { paused: false, status: 'acting: scroll_and_traverse in Tasks', current: { callId: 999, tool: 'scroll_and_traverse', app: 'Tasks' }, platform: 'linux', version: '0.1.0' });
    await page.locator('[data-status]', { hasText: 'acting: scroll_and_traverse in Tasks' }).waitFor();
    await page.locator('[data-action="pause"]').click();
    assert.deepEqual((await view.calls()).find((call) => call.method === 'setPaused')?.request, { paused: true });
  });

  it('should say why a call to the app failed: the history, pausing, a thumbnail, opening a file', async () => {
    const failing = (reason: string) => ({ __reject: `Error invoking remote method 'x': Error: ${reason}` });
    const view = await openView(browser, 'feed', {
      listFeed: failing('the feed store is gone'),
      getState: { paused: false, status: 'idle', current: null, platform: 'linux', version: '0.1.0' },
      setPaused: failing('the engine is closing'),
      getScreenshot: failing('permission denied reading the screenshot'),
      openArtifact: failing('no file manager is installed'),
    });
    const { page } = view;
    await page.locator('[data-failure]', { hasText: 'The earlier calls could not be loaded: the feed store is gone' }).waitFor({ timeout: 5000 });
    await page.locator('[data-action="pause"]').click();
    await page.locator('[data-failure]', { hasText: 'Pausing failed: the engine is closing' }).waitFor({ timeout: 5000 });

    // A live card whose thumbnail and file cannot be had.
    await view.emit('feed:call', { ...addCall, callId: 4242 } satisfies FeedCall);
    const card = page.locator('.card[data-call-id="4242"]');
    await card.locator('[data-failure]', { hasText: 'No thumbnail: permission denied reading the screenshot' }).waitFor({ timeout: 5000 });
    await card.locator('button', { hasText: 'Show file' }).click();
    await card.locator('[data-failure]', { hasText: 'The file could not be shown: no file manager is installed' }).waitFor({ timeout: 5000 });
    assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /Error invoking remote method/);
  });
});

describe('live feed view: revisions', { skip: !chromiumAvailable() && 'no /usr/bin/chromium' }, () => {
  let browser: Browser;
  let fixture: EngineFixture;
  let cards: FeedCall[];

  before(async () => {
    browser = await launchBrowser();
    // "Buy milk" is on the default confirm_before list: these cards are about revisions.
    fixture = await engineFixture(tasksDesktop(), { settings: new SettingsStore({ env: { TANDEM_CONFIRM_BEFORE: ',' } }) });
    const feed = new FeedStore(fixture.engine);
    const { engine, desktop } = fixture;
    const click = (text: string) => ({ kind: 'click' as const, target: { query: { text } }, button: 'left' as const, count: 1 as const, modifiers: [] });
    const read = await engine.refresh(TASKS);
    // The person renames the tip between two agent calls: the next call did not do it.
    desktop.find(TASKS, 'Tip: add your first task below').setText('Tip: renamed by the person');
    await assert.rejects(engine.act({ tool: 'click_and_traverse', pid: TASKS, steps: [click('Buy milk')], ifRevision: read.revision }));
    desktop.find(TASKS, '1 task').setText('1 task (edited)');
    const acted = await engine.act({ tool: 'click_and_traverse', pid: TASKS, steps: [click('Buy milk')] });
    assert.equal(acted.outsideChanges?.count, 1);
    cards = feed.list();
  });
  after(async () => {
    await browser?.close();
    await fixture?.cleanup();
  });

  it("should show each answer's revision, the outside changes and a refusal because the app changed", async () => {
    assert.equal(cards.length, 3);
    const view = await openView(browser, 'feed', { listFeed: cards, getState: { paused: false, status: 'idle', current: null, platform: 'linux', version: '0.1.0' } }, { width: 820, height: 1100 });
    const { page } = view;
    await page.locator('.card').first().waitFor();
    const [readCard, refusedCard, actedCard] = cards.map((card) => page.locator(`.card[data-call-id="${card.callId}"]`));
    assert.equal(await readCard.locator('.badge-revision').textContent(), 'rev 1');
    assert.equal(await refusedCard.locator('.badge-revision').textContent(), 'rev 2', 'the refusal handed out the tree as it is now');
    assert.equal(await actedCard.locator('.badge-revision').textContent(), 'rev 3');

    const refused = refusedCard.locator('.changed-since');
    assert.match((await refused.textContent()) ?? '', /Not done: the app changed since revision 1/);
    assert.equal(await refused.locator('.diff-line.changed', { hasText: "'Tip: add your first task below' -> 'Tip: renamed by the person'" }).count(), 1);

    const outside = actedCard.locator('.outside-changes');
    assert.match((await outside.textContent()) ?? '', /Changed outside the agent's calls since its last look \(1\)/);
    assert.equal(await outside.locator('.diff-line.changed', { hasText: "'1 task' -> '1 task (edited)'" }).count(), 1);
    assert.equal(await actedCard.locator('.card-body .diff-line', { hasText: '1 task (edited)' }).count(), 0, "the person's edit is not in the call's own diff");
    assert.equal(await readCard.locator('.revision-notes').count(), 0, 'a read with nothing outside shows no notes');
    await view.screenshot('feed-revisions', { fullPage: true });
  });
});

describe('live feed: the person\'s word before a press', { skip: !chromiumAvailable() && 'no /usr/bin/chromium' }, () => {
  it('should show that the person was asked before pressing "Buy milk", and that they refused with Esc', async () => {
    const browser = await launchBrowser();
    const fixture = await engineFixture(tasksDesktop());
    try {
      const feed = new FeedStore(fixture.engine);
      const waiting: FeedCall[] = [];
      fixture.engine.on('confirm-asked', () => {
        // While the question is up, the card already says so.
        waiting.push(structuredClone(feed.list().at(-1)!));
        setTimeout(() => fixture.desktop.human.pressEscape(), 1);
      });
      const result = await fixture.engine.act({ tool: 'click_and_traverse', pid: TASKS, steps: [{ kind: 'click', target: { query: { text: 'Buy milk' } }, button: 'left', count: 1, modifiers: [] }] });
      assert.equal(result.error?.code, 'declined');
      assert.deepEqual(waiting[0]?.decisions, [{ step: 0, element: 'Buy milk', answer: 'waiting' }]);
      const cards = feed.list();
      assert.deepEqual(cards.at(-1)?.decisions, [{ step: 0, element: 'Buy milk', answer: 'esc' }]);

      const view = await openView(browser, 'feed', { listFeed: cards, getState: { paused: false, status: 'idle', current: null, platform: 'linux', version: '0.1.0' } }, { width: 820, height: 600 });
      const decision = view.page.locator('.card .decision');
      await decision.first().waitFor();
      assert.equal(await decision.getAttribute('data-decision'), 'esc');
      assert.equal(await decision.textContent(), 'Asked you before pressing “Buy milk”: you refused it (Esc): nothing was pressed');
    } finally {
      await browser.close();
      await fixture.cleanup();
    }
  });
});
