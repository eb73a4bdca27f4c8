// The README's tool table is the default profile's tools as served: every one has a row, no row
// names a tool it does not offer, "holds your input" says what the tool's type says, and the
// other profiles' extra tools are each named once below it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from '../../src/core/settings.js';
import { toolsOf } from '../../src/mcp/server.js';
import { tools } from '../../src/mcp/tools/index.js';
import { repoRoot } from './cliProcess.js';

describe('README tool table', () => {
  it('should list every tool of the default profile once, saying which ones hold the person\'s input, and name the others', () => {
    const offered = toolsOf(DEFAULT_SETTINGS.tools);
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Tools\n'), readme.indexOf('\n## ', readme.indexOf('## Tools\n') + 1));
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \| .* \| (yes|no) \|$/gm)].map((match) => ({ name: match[1], holds: match[2] === 'yes' }));
    assert.deepEqual(rows.map((row) => row.name), offered.map((tool) => tool.name), 'the table follows tools/list');
    for (const tool of offered) {
      assert.equal(rows.find((row) => row.name === tool.name)?.holds, tool.type === 'input', `${tool.name} (${tool.type})`);
    }
    const others = /^Other profiles .*$/m.exec(section)?.[0] ?? '';
    const named = [...others.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]);
    const extra = tools.filter((tool) => !offered.includes(tool)).map((tool) => tool.name);
    assert.deepEqual([...named].sort(), [...extra].sort(), 'the other profiles\' tools, each once');
  });
});
