// Main's feed memory over a real engine: one card per call in start order, the last N kept.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FeedStore } from '../../src/main/feedStore.js';
import type { FeedCall } from '../../src/shared/types.js';
import { COUNTER, act, clickOn, engineFixture } from '../support/engineFixtures.js';

describe('feed history', () => {
  it('should keep only the last N calls, forgetting the artifacts of dropped ones', async () => {
    const fixture = await engineFixture();
    const feed = new FeedStore(fixture.engine, 2);
    const updates: FeedCall[] = [];
    feed.onChange((card) => updates.push(card));
    await fixture.engine.refresh(COUNTER, { clientId: 'a' });
    const clicked = await fixture.engine.act(act(COUNTER, clickOn('Count: 0')), { clientId: 'b' });
    await fixture.engine.refresh(COUNTER, { clientId: 'c' });

    const cards = feed.list();
    assert.deepEqual(cards.map((card) => card.clientId), ['b', 'c']);
    assert.equal(cards[0].state, 'ok');
    assert.equal(feed.artifactsOf(cards[0].callId)?.screenshot, clicked.screenshot);
    assert.equal(feed.artifactsOf(updates[0].callId), undefined, 'the dropped call no longer names files');
    feed.dispose();
    await fixture.cleanup();
  });

  it("should show an agent's inspection calls but not the app's own permission checks", async () => {
    const fixture = await engineFixture();
    const feed = new FeedStore(fixture.engine);
    await fixture.engine.checkPermissions();
    await fixture.engine.listWindows(COUNTER, false, { clientId: 'agent' });
    assert.deepEqual(feed.list().map((card) => [card.tool, card.clientId, card.state]), [['list_windows', 'agent', 'ok']]);
    feed.dispose();
    await fixture.cleanup();
  });
});
