// The next-move words (errors.ts, nextMove.ts, the inspection renderers) are written once and
// name tools of the reference set where a step is needed ("call refresh_traversal {pid}"). A
// session offering another profile reads the tool of its own profile that does the same job, so
// a hint never sends the model to a tool the session refuses. Only names with an underscore are
// rewritten: "click" or "zoom" are English words too.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Tool → the tool that does the same job in the other profile, both ways. */
const COUNTERPARTS: ReadonlyArray<readonly [string, string]> = [
  ['refresh_traversal', 'get_window_state'],
  ['open_application_and_traverse', 'launch_app'],
  ['type_and_traverse', 'type_text'],
  ['press_key_and_traverse', 'press_key'],
  ['list_applications', 'list_windows'],
];

const TOOL_WORD = /(?<![\w])[a-z]+(?:_[a-z]+)+(?![\w])/g;

/** `text` with every tool name the session does not offer replaced by its offered counterpart. */
export function inOfferedWords(text: string, offered: ReadonlySet<string>): string {
  return text.replace(TOOL_WORD, (name) => {
    if (offered.has(name)) return name;
    for (const [a, b] of COUNTERPARTS) {
      if (name === a && offered.has(b)) return b;
      if (name === b && offered.has(a)) return a;
    }
    return name;
  });
}

/** An answer whose `hint:` lines (and structured hint) name only tools the session offers. */
export function withOfferedHints(result: CallToolResult, offered: ReadonlySet<string>): CallToolResult {
  const content = result.content.map((item) =>
    item.type === 'text' ? { ...item, text: item.text.replace(/^hint: .*$/gm, (line) => inOfferedWords(line, offered)) } : item,
  );
  const structured = result.structuredContent;
  if (structured && typeof structured.hint === 'string') {
    return { ...result, content, structuredContent: { ...structured, hint: inOfferedWords(structured.hint, offered) } };
  }
  return { ...result, content };
}
