import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTandemError } from '../../src/core/errors.js';
import { SnapshotCache, resolveIndexed } from '../../src/core/tree/elementIndex.js';
import type { ElementNode, TreeSnapshot } from '../../src/core/model.js';
import { snapshotOf, tree } from '../support/treeFactory.js';

const PID = 4242;

/** A page as a browser exposes it: a frame, a link, a wrapper paragraph and a button. */
function page(linkIdentity: string, order: 'link-first' | 'link-last' = 'link-first'): TreeSnapshot {
  const link = { role: 'Link', text: 'Early link', identity: linkIdentity };
  const rest = [
    { role: 'Paragraph', text: '\ufffc', identity: 'paragraph' },
    { role: 'PushButton', text: 'Reload', identity: 'reload' },
  ];
  return snapshotOf(tree({ role: 'Frame', text: 'Slow page', identity: 'frame', children: order === 'link-first' ? [link, ...rest] : [...rest, link] }), 'Firefox', PID);
}

function at(snapshot: TreeSnapshot, role: string): ElementNode {
  const found = snapshot.elements.find((el) => el.role === role);
  assert.ok(found, role);
  return found;
}

function resolve(cache: SnapshotCache, fresh: TreeSnapshot, index: number): ElementNode {
  return resolveIndexed(cache, fresh, { index });
}

describe('element_index: an index whose element is gone never names another', () => {
  it('refuses the old index of a rebuilt link once the paragraph holds it, and names the link now', () => {
    const cache = new SnapshotCache();
    const read = page('link-1');
    cache.set(read);
    const linkIndex = at(read, 'Link').index;
    // Reload: the link is a new element, after the others; the answer's diff prints only the new link.
    const reloaded = page('link-2', 'link-last');
    cache.set(reloaded, [at(reloaded, 'Link')]);
    assert.equal(reloaded.elements[linkIndex].role, 'Paragraph', 'the paragraph took the old index');
    assert.throws(
      () => resolve(cache, reloaded, linkIndex),
      (error) => {
        assert.ok(isTandemError(error, 'stale-element'));
        assert.equal(error.details?.reason, 'reused');
        assert.equal(error.details?.was, '[Link] "Early link"');
        assert.equal(error.details?.instead, at(reloaded, 'Link').index);
        assert.match(error.message, new RegExp(`element_index ${linkIndex} named \\[Link\\] "Early link" .*now names \\[Paragraph\\]`));
        return true;
      },
    );
    // Both indexes the refusal named work next.
    assert.equal(resolve(cache, reloaded, at(reloaded, 'Link').index).identity, 'link-2');
    assert.equal(resolve(cache, reloaded, linkIndex).identity, 'paragraph', 'the refusal said what it names now');
  });

  it('takes an index a diff line printed for the element that took it', () => {
    const cache = new SnapshotCache();
    const read = page('link-1');
    cache.set(read);
    const linkIndex = at(read, 'Link').index;
    const reloaded = page('link-2', 'link-last');
    cache.set(reloaded, [at(reloaded, 'Paragraph')]);
    assert.equal(resolve(cache, reloaded, linkIndex).identity, 'paragraph');
  });

  it('takes an old index when the element it names now looks the same (a rebuilt element in its place)', () => {
    const cache = new SnapshotCache();
    const read = page('link-1');
    cache.set(read);
    const linkIndex = at(read, 'Link').index;
    const rebuilt = page('link-2');
    cache.set(rebuilt, []);
    assert.equal(resolve(cache, rebuilt, linkIndex).identity, 'link-2');
  });

  it('keeps indexes of elements still there working after answers that printed none of them', () => {
    const cache = new SnapshotCache();
    const read = page('link-1');
    cache.set(read);
    cache.set(page('link-1'), []);
    cache.set(page('link-1'), []);
    for (const el of read.elements) assert.equal(resolve(cache, page('link-1'), el.index).identity, el.identity);
  });

  it('keeps an index naming its element when an action moved it to another index without printing that', () => {
    const cache = new SnapshotCache();
    const read = page('link-1');
    cache.set(read);
    const reloadIndex = at(read, 'PushButton').index;
    const reloaded = page('link-2', 'link-last');
    cache.set(reloaded, []);
    assert.equal(reloaded.elements[reloadIndex].role, 'Link', 'the rebuilt link took the button\'s old index');
    assert.equal(resolve(cache, reloaded, reloadIndex).identity, 'reload');
  });

  it('takes every index of a whole tree handed out again, whatever the earlier answers showed', () => {
    const cache = new SnapshotCache();
    const read = page('link-1');
    cache.set(read);
    const linkIndex = at(read, 'Link').index;
    cache.set(page('link-2', 'link-last'), []);
    const reread = page('link-2', 'link-last');
    cache.set(reread);
    assert.equal(resolve(cache, reread, linkIndex).identity, 'paragraph');
  });

  it('names no index instead when several elements look like the gone one', () => {
    const cache = new SnapshotCache();
    const read = page('link-1');
    cache.set(read);
    const linkIndex = at(read, 'Link').index;
    const reloaded = snapshotOf(
      tree({ role: 'Frame', text: 'Slow page', identity: 'frame', children: [{ role: 'Paragraph', text: '\ufffc', identity: 'paragraph' }, { role: 'PushButton', text: 'Reload', identity: 'reload' }, { role: 'Link', text: 'Early link', identity: 'a' }, { role: 'Link', text: 'Early link', identity: 'b' }] }),
      'Firefox',
      PID,
    );
    cache.set(reloaded, []);
    assert.throws(() => resolve(cache, reloaded, linkIndex), (error) => isTandemError(error, 'stale-element') && error.details?.instead === undefined && !/looks like it/.test(error.message));
  });
});
