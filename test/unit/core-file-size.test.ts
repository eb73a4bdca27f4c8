// Core is read by people changing it: no file in src/core grows past 450 lines (issue 17; split
// by concern as docs/architecture.md's "Core's folders" does, never by trimming comments).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const MAX_LINES = 450;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return tsFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

test('should keep every src/core file at or under 450 lines', () => {
  const files = tsFiles(path.join(ROOT, 'src/core'));
  assert.ok(files.length > 40, `read src/core (${files.length} files)`);
  const over = files
    .map((file) => ({ file: path.relative(ROOT, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
    .filter(({ lines }) => lines > MAX_LINES);
  assert.deepEqual(over, [], `split these by concern: ${over.map(({ file, lines }) => `${file} (${lines})`).join(', ')}`);
});
