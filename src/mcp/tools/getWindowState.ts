import path from 'node:path';
import { defineTool } from '../defineTool.js';
import { callResultOutput } from '../outputSchemas.js';
import { anyText, inlineParam, pidParam, toolInput, windowIdParam } from '../params.js';
import { renderCallResult } from '../render.js';
import { MAX_STATE_LINES, taggedTreeLines } from '../windowState.js';

export const getWindowState = defineTool({
  name: 'get_window_state',
  title: "Read an app's elements, with their element_index",
  description:
    "Reads the app's accessibility tree (read-only) and answers with its element lines, each starting with #N, its element_index for click, double_click, right_click and the other tools, plus a screenshot. " +
    'query filters the lines (case-insensitive, on role or text: "button", "Save"), so you can find one element without reading the whole tree; the file holds all of it. ' +
    'window_id (from list_windows) reads only that window: its elements (numbered from 0, the indexes to use next) and its screenshot.',
  type: 'readOnly',
  inputSchema: toolInput({
    pid: pidParam(),
    window_id: windowIdParam().optional().describe("Only this window of the app (from list_windows): its part of the tree and its screenshot. Default: the whole app."),
    query: anyText('query', 'e.g. "Save" or "button".').optional().describe('Only lines containing this text (role, name or value), case-insensitive.'),
    inline: inlineParam(),
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => {
    const result = await engine.refresh(args.pid, context, args.window_id !== undefined ? { windowId: args.window_id } : {});
    const rendered = renderCallResult({ ...result, tool: 'get_window_state' });
    if (!result.file) return rendered;
    const tree = (await engine.readArtifact(path.basename(result.file))).toString('utf8');
    const { lines, matched, total } = taggedTreeLines(tree, args.query);
    const what = args.query ? `${matched} of ${total} elements match ${JSON.stringify(args.query)}` : `${total} elements`;
    const text = [
      `elements: ${what}${lines.length < matched ? ` (first ${MAX_STATE_LINES} shown)` : ''}`,
      ...lines,
      ...(matched > lines.length ? [`… ${matched - lines.length} more: grep ${result.file}`] : []),
      ...(args.query && matched === 0 ? ['No element line contains that text: try a shorter part of it, or its role.'] : []),
    ].join('\n');
    const summaryCount = rendered.content.filter((item) => item.type === 'text').length;
    rendered.content.splice(summaryCount, 0, { type: 'text', text });
    return rendered;
  },
});
