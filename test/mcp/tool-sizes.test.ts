// What a model carries every turn for Tandem's tools stays small: the default profile's names,
// descriptions and input schemas within 24 KB, its whole tools/list (output schemas included)
// within 64 KB (issue 19), and the README says the sizes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from '../../src/core/settings.js';
import { toolListSize } from '../../scripts/lib/toolListSize.js';
import { repoRoot } from './cliProcess.js';

const KB = 1024;

describe('tool surface size', () => {
  it('should keep the default profile within 24 KB of names, descriptions and input schemas and 64 KB of tools/list', async () => {
    const size = await toolListSize(DEFAULT_SETTINGS.tools);
    assert.ok(size.modelBytes <= 24 * KB, `name+description+inputSchema is ${size.modelBytes} bytes; largest: ${JSON.stringify(size.largest)}`);
    assert.ok(size.listBytes <= 64 * KB, `tools/list is ${size.listBytes} bytes`);
  });

  it('should carry the steps schema in one tool of the default profile', async () => {
    const { listedTools } = await import('../../scripts/lib/toolListSize.js');
    const withSteps = (await listedTools(DEFAULT_SETTINGS.tools)).filter((tool) => 'steps' in ((tool.inputSchema.properties ?? {}) as object));
    assert.deepEqual(withSteps.map((tool) => tool.name), ['run_steps']);
  });

  it('should state the default profile\'s sizes in the README, rounded up to whole KB', async () => {
    const size = await toolListSize(DEFAULT_SETTINGS.tools);
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const stated = /tools\/list is (\d+) KB \(names, descriptions and input schemas (\d+) KB\)/.exec(readme);
    assert.ok(stated, 'the README states the sizes');
    assert.equal(Number(stated[1]), Math.ceil(size.listBytes / KB), 'tools/list');
    assert.equal(Number(stated[2]), Math.ceil(size.modelBytes / KB), 'names, descriptions, input schemas');
  });
});
