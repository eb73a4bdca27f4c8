import { defineTool } from '../defineTool.js';
import { LIMITS } from '../../core/limits.js';
import { launchOutput } from '../outputSchemas.js';
import { anyText, flag, nonEmptyText, toolInput } from '../params.js';
import { renderLaunch } from '../renderLifecycle.js';
import { z } from 'zod';
import type { CallContext, TandemEngine } from '../../core/engineApi.js';
import { toTandemError } from '../../core/errors.js';
import { renderCallResult } from '../render.js';

const list = (name: string, max: number, chars: number, hint: string) =>
  z
    .array(anyText(`each of ${name}`, hint, chars), { error: `${name} must be an array of at most ${max} strings.` })
    .max(max, { error: `${name} takes at most ${max} strings.` });

/** The launched app's tree, read as refresh_traversal reads it (no input, the front untouched); a failure does not undo the launch. */
async function treeOf(engine: TandemEngine, pid: number, context: CallContext) {
  try {
    const read = await engine.refresh(pid, context);
    return { read, rendered: renderCallResult(read) };
  } catch (error) {
    return { failed: toTandemError(error).message };
  }
}

export const launchApp = defineTool({
  name: 'launch_app',
  title: 'Launch an app',
  description:
    'Starts an app (exactly one of name, id, path; args and urls as separate words, no shell) and answers, once its window is readable, with its pid, windows and tree (file, screenshot). ' +
    'An app already running is not started again unless new_instance is true.',
  type: 'launch',
  inputSchema: toolInput({
    name: nonEmptyText('name').optional().describe('e.g. "Mousepad": an app name or a program on PATH.'),
    id: nonEmptyText('id').optional().describe('Bundle id or .desktop id.'),
    path: nonEmptyText('path').optional().describe('Absolute path of the program.'),
    args: list('args', LIMITS.launchArgs, LIMITS.launchArgChars, 'One command-line word each.').optional().describe('Command-line words.'),
    urls: list('urls', LIMITS.launchUrls, LIMITS.launchUrlChars, 'An absolute path or a URL with a scheme.').optional().describe('Documents (absolute paths) or URLs to open.'),
    background: flag('background').optional().describe("true: the person's front window stays in front."),
    new_instance: flag('new_instance').optional().describe('true: start another process.'),
  }),
  outputSchema: launchOutput,
  handle: async (engine, args, context) => {
    const launched = await engine.launchApp(
      { name: args.name, id: args.id, path: args.path, args: args.args, urls: args.urls, background: args.background, newInstance: args.new_instance },
      context,
    );
    return renderLaunch(launched, await treeOf(engine, launched.app.pid, context));
  },
});
