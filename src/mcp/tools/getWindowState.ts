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
    "Reads the app's accessibility tree (read-only): element lines starting with #N (the element_index acting tools take) and a screenshot. " +
    'query keeps the lines containing it (e.g. "Save"); the file holds the whole tree.',
  type: 'readOnly',
  inputSchema: toolInput({
    pid: pidParam(),
    window_id: windowIdParam().optional().describe('Only this window (from list_windows).'),
    query: anyText('query', 'e.g. "Save" or "button".').optional().describe('Only lines containing this text.'),
    inline: inlineParam(),
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => {
    const result = await engine.refresh(args.pid, context, args.window_id !== undefined ? { windowId: args.window_id } : {});
    const rendered = renderCallResult({ ...result, tool: 'get_window_state' });
    if (!result.file) return rendered;
    const tree = (await engine.readArtifact(path.basename(result.file))).toString('utf8');
    const { lines, matched, total, visibleOnly } = taggedTreeLines(tree, args.query);
    const what = args.query ? `${matched} of ${total} elements match ${JSON.stringify(args.query)}` : `${total} elements`;
    const shown = visibleOnly ? ` (${lines.length} visible ones shown${lines.length === MAX_STATE_LINES ? `, at most ${MAX_STATE_LINES}` : ''})` : '';
    const text = [
      `elements: ${what}${shown}`,
      ...lines,
      ...(matched > lines.length ? [`… ${matched - lines.length} more${visibleOnly ? ' (hidden ones among them)' : ''}: grep ${result.file}${args.query ? '' : ', or send query'}`] : []),
      ...(args.query && matched === 0 ? ['No element line contains that text: try a shorter part of it, or its role.'] : []),
    ].join('\n');
    const summaryCount = rendered.content.filter((item) => item.type === 'text').length;
    rendered.content.splice(summaryCount, 0, { type: 'text', text });
    return rendered;
  },
});
