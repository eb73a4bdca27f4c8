// Every line the model reads names only tools its session offers (issue 19 §1: one family an agent
// cannot choose wrongly from). The words are written once, with the reference set's names; a
// driver session reads its own tools' names instead. An audit found a driver session sent to
// refresh_traversal, click_and_traverse and press_ax_and_traverse, which it does not have.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { inOfferedWords, offeredName, withOfferedWords } from '../../src/mcp/profileWords.js';
import { inProfile } from '../../src/mcp/defineTool.js';
import { tools } from '../../src/mcp/tools/index.js';
import { REPO_ROOT } from '../../scripts/lib/mcpSession.js';

const TOOL_WORD = /(?<![\w])[a-z]+(?:_[a-z]+)+(?![\w])/g;
const toolNames = new Set(tools.map((tool) => tool.name));
const offeredBy = (profile: 'driver' | 'reference'): Set<string> => new Set(tools.filter((tool) => inProfile(tool, profile)).map((tool) => tool.name));

/** Code lines (not comments) of the files that write words for the model: answers, errors, hints. */
function wordsForTheModel(): Array<{ file: string; line: string }> {
  const dir = path.join(REPO_ROOT, 'src', 'mcp');
  const files = readdirSync(dir).filter((name) => name.endsWith('.ts') && name !== 'profileWords.ts' && name !== 'instructions.ts');
  return files.flatMap((file) =>
    readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
      .map((line) => ({ file, line })),
  );
}

/**
 * Named only in answers a reference session never gets: kill_app's own answers and errors, and a
 * window_id target's (reference tools take none).
 */
const ONLY_IN_DRIVER_ANSWERS = new Set(['kill_app', 'bring_to_front']);

describe('words for the model in each profile', () => {
  for (const profile of ['driver', 'reference'] as const) {
    it(`should send a ${profile} session only to tools it offers, whatever answer or error names a tool`, () => {
      const offered = offeredBy(profile);
      const missing = new Set<string>();
      for (const { file, line } of wordsForTheModel()) {
        for (const word of line.match(TOOL_WORD) ?? []) {
          if (profile === 'reference' && ONLY_IN_DRIVER_ANSWERS.has(word)) continue;
          if (toolNames.has(word) && !offered.has(offeredName(word, offered))) missing.add(`${file}: ${word}`);
        }
      }
      assert.deepEqual([...missing], [], `tools named to a ${profile} session that it does not have, with no counterpart`);
    });
  }

  it('should rewrite every line of an answer, not only its hint, and never an app\'s own words in quotes', () => {
    const driver = offeredBy('driver');
    const answer = withOfferedWords(
      {
        content: [
          {
            type: 'text',
            text: [
              'status: ok',
              "settled: no: the app was still changing, refresh_traversal in a moment shows it",
              '  … 12 more (refresh_traversal shows the whole tree)',
              'hint: Use press_ax_and_traverse (action "press") or set_selected_and_traverse on it instead.',
              '  ~ #4 [Label] "see refresh_traversal" | text: \'click_and_traverse\' -> \'done\'',
            ].join('\n'),
          },
        ],
        structuredContent: { hint: 'Call refresh_traversal {pid}.' },
      },
      driver,
    );
    const text = answer.content[0].type === 'text' ? answer.content[0].text : '';
    assert.match(text, /^settled: no: .*, get_window_state in a moment/m);
    assert.match(text, /^ {2}… 12 more \(get_window_state shows the whole tree\)$/m);
    assert.match(text, /^hint: Use element_action \(action "press"\) or set_selected on it instead\.$/m);
    assert.match(text, /"see refresh_traversal" \| text: 'click_and_traverse' -> 'done'$/m, 'the app\'s words stay as they are');
    assert.equal((answer.structuredContent as { hint: string }).hint, 'Call get_window_state {pid}.');
    assert.equal(inOfferedWords('Call get_window_state {pid}.', offeredBy('reference')), 'Call refresh_traversal {pid}.');
  });
});
