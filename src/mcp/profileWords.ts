// The words written for the model (errors.ts, nextMove.ts, render.ts, the inspection renderers)
// name tools of the reference set where a step is needed ("call refresh_traversal {pid}"). A
// session offering another profile reads the tool of its own profile that does the same job, so
// no line sends the model to a tool the session refuses (an audit found "refresh_traversal in a
// moment" on every unsettled answer of a driver session). Only names with an underscore are
// rewritten ("click" and "zoom" are English words too), and never inside quotes: an element's
// name or a field's text is the app's, whatever it says.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Tool → the tool that does the same job in the other profile, both ways. */
const COUNTERPARTS: ReadonlyArray<readonly [string, string]> = [
  ['refresh_traversal', 'get_window_state'],
  ['open_application_and_traverse', 'launch_app'],
  ['click_and_traverse', 'click'],
  ['type_and_traverse', 'type_text'],
  ['press_key_and_traverse', 'press_key'],
  ['scroll_and_traverse', 'scroll'],
  ['press_ax_and_traverse', 'element_action'],
  ['set_value_and_traverse', 'set_value'],
  ['set_selected_and_traverse', 'set_selected'],
  ['list_applications', 'list_windows'],
];

const TOOL_WORD = /(?<![\w])[a-z]+(?:_[a-z]+)+(?![\w])/g;
/** A double- or single-quoted stretch of a line (an element's name, a value). */
const QUOTED = /("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')/;

/** The tool the session offers for `name`: itself, or its counterpart in the other profile (unchanged when neither is offered). */
export function offeredName(name: string, offered: ReadonlySet<string>): string {
  if (offered.has(name)) return name;
  for (const [a, b] of COUNTERPARTS) {
    if (name === a && offered.has(b)) return b;
    if (name === b && offered.has(a)) return a;
  }
  return name;
}

/** `text` with every tool name the session does not offer replaced by its offered counterpart; quoted parts are kept as they are. */
export function inOfferedWords(text: string, offered: ReadonlySet<string>): string {
  // split() with a capturing group keeps the quoted parts at the odd positions.
  return text
    .split(QUOTED)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(TOOL_WORD, (name) => offeredName(name, offered))))
    .join('');
}

/** An answer whose text (and structured hint) names only tools the session offers. */
export function withOfferedWords(result: CallToolResult, offered: ReadonlySet<string>): CallToolResult {
  const content = result.content.map((item) => (item.type === 'text' ? { ...item, text: inOfferedWords(item.text, offered) } : item));
  const structured = result.structuredContent;
  if (structured && typeof structured.hint === 'string') {
    return { ...result, content, structuredContent: { ...structured, hint: inOfferedWords(structured.hint, offered) } };
  }
  return { ...result, content };
}
