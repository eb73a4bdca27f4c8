// The README's tool table is the tools as served: every tool has a row, no row names a tool
// that does not exist, and "holds your input" says what the tool's type says.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { tools } from '../../src/mcp/tools/index.js';
import { repoRoot } from './cliProcess.js';

describe('README tool table', () => {
  it('should list every tool once, saying which ones hold the person\'s input', () => {
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Tools\n'), readme.indexOf('\n## ', readme.indexOf('## Tools\n') + 1));
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \| .* \| (yes|no) \|$/gm)].map((match) => ({ name: match[1], holds: match[2] === 'yes' }));
    assert.deepEqual(rows.map((row) => row.name), tools.map((tool) => tool.name), 'the table follows tools/list');
    for (const tool of tools) {
      assert.equal(rows.find((row) => row.name === tool.name)?.holds, tool.type === 'input', `${tool.name} (${tool.type})`);
    }
  });
});
