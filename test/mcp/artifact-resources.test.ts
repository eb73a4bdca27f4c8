// The files an answer names, served to clients that cannot read local files: resource links in
// every answer, resources/read and resources/list over the real engine's artifacts folder, and
// `inline` putting the screenshot and the tree or diff into the answer itself.
import assert from 'node:assert/strict';
import { readFile, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import sharp from 'sharp';
import type { CallToolResult, ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { fitPng } from '../../src/core/artifacts/imageScale.js';
import { COUNTER, line, mcpFixture, type McpFixture } from './mcpFixture.js';

const links = (result: CallToolResult): ResourceLink[] => result.content.filter((item): item is ResourceLink => item.type === 'resource_link');

describe('mcp: artifacts as resources and inline content', () => {
  let fixture: McpFixture;
  afterEach(async () => fixture?.close());

  it('should link the diff and the screenshot of an answer, and serve each exactly as written', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('click_and_traverse', { pid: COUNTER, element: 'Count: 0', role: 'button' });
    const [diffLink, shotLink] = links(result);
    assert.equal(diffLink.name, path.basename(line(result, 'file')!));
    assert.equal(diffLink.mimeType, 'text/plain');
    assert.equal(shotLink.name, path.basename(line(result, 'screenshot')!));
    assert.equal(shotLink.mimeType, 'image/png');

    const diff = (await fixture.client.readResource({ uri: diffLink.uri })).contents[0];
    assert.equal('text' in diff ? diff.text : undefined, await readFile(line(result, 'file')!, 'utf8'));
    const shot = (await fixture.client.readResource({ uri: shotLink.uri })).contents[0];
    assert.equal(shot.mimeType, 'image/png');
    assert.deepEqual(Buffer.from('blob' in shot ? shot.blob : '', 'base64'), await readFile(line(result, 'screenshot')!));
  });

  it('should list the files of the calls so far, newest first', async () => {
    fixture = await mcpFixture();
    const first = await fixture.call('refresh_traversal', { pid: COUNTER });
    const second = await fixture.call('click_and_traverse', { pid: COUNTER, element: 'Count: 0', role: 'button' });
    const { resources } = await fixture.client.listResources();
    const names = resources.map((resource) => resource.name);
    const newest = links(second).map((link) => link.name);
    const older = links(first).map((link) => link.name);
    assert.deepEqual(names.slice(0, 2), newest, names.join(', '));
    assert.deepEqual(names.slice(2, 4), older, names.join(', '));
    assert.ok(resources.every((resource) => resource.uri.startsWith('tandem://artifacts/') && typeof resource.size === 'number'));
  });

  it('should refuse names that are not its own files, and say what to send instead', async () => {
    fixture = await mcpFixture();
    await fixture.call('refresh_traversal', { pid: COUNTER });
    await writeFile(path.join(fixture.artifactsDir, 'notes.txt'), 'not ours');
    for (const uri of ['tandem://artifacts/..%2F..%2Fetc%2Fpasswd', 'tandem://artifacts/notes.txt', 'tandem://artifacts/%E0%A4%A']) {
      await assert.rejects(fixture.client.readResource({ uri }), /names no Tandem artifact: use a uri from a tool answer's resource_link or from resources\/list/, uri);
    }
  });

  it('should say a pruned file is gone and how to get a fresh one, and never follow a planted symlink', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('refresh_traversal', { pid: COUNTER });
    const [treeLink, shotLink] = links(result);
    await unlink(line(result, 'file')!);
    await assert.rejects(fixture.client.readResource({ uri: treeLink.uri }), /is gone: .*Call refresh_traversal \{pid\}/);
    await unlink(line(result, 'screenshot')!);
    await symlink('/etc/hostname', line(result, 'screenshot')!);
    await assert.rejects(fixture.client.readResource({ uri: shotLink.uri }), /cannot be served: .*symbolic link/);
  });

  it('should put the tree and the screenshot in the answer when asked inline, and not otherwise', async () => {
    fixture = await mcpFixture();
    const plain = await fixture.call('refresh_traversal', { pid: COUNTER });
    assert.deepEqual(plain.content.map((item) => item.type), ['text', 'resource_link', 'resource_link']);
    const inline = await fixture.call('refresh_traversal', { pid: COUNTER, inline: true });
    assert.deepEqual(inline.content.map((item) => item.type), ['text', 'text', 'image', 'resource_link', 'resource_link']);
    const tree = inline.content[1];
    assert.equal(tree.type === 'text' ? tree.text : '', `${path.basename(line(inline, 'file')!)}:\n${await readFile(line(inline, 'file')!, 'utf8')}`);
    const image = inline.content[2];
    assert.deepEqual(image.type === 'image' ? Buffer.from(image.data, 'base64') : undefined, await readFile(line(inline, 'screenshot')!), 'a small window is sent as it is');
  });

  it('should refuse an inline that is not true or false, naming the parameter', async () => {
    fixture = await mcpFixture();
    const result = await fixture.call('refresh_traversal', { pid: COUNTER, inline: 'yes' });
    assert.equal(result.isError, true);
    assert.match(result.content[0].type === 'text' ? result.content[0].text : '', /inline must be true or false, not "yes"/);
  });
});

describe('inline screenshots', () => {
  it('should fit a large screenshot within 1,280 px on its longer side, keeping its shape', async () => {
    const big = await sharp({ create: { width: 3840, height: 2160, channels: 3, background: { r: 200, g: 90, b: 10 } } }).png().toBuffer();
    const fitted = await fitPng(big, 1280);
    assert.equal(fitted.scaled, true);
    const meta = await sharp(fitted.png).metadata();
    assert.deepEqual([meta.width, meta.height, meta.format], [1280, 720, 'png']);
    const small = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 0, g: 0, b: 0 } } }).png().toBuffer();
    assert.equal((await fitPng(small, 1280)).png, small, 'never made larger or re-encoded');
  });
});
