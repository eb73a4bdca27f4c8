import { defineTool } from '../defineTool.js';
import { LIMITS } from '../../core/limits.js';
import { launchOutput } from '../outputSchemas.js';
import { anyText, flag, nonEmptyText, toolInput } from '../params.js';
import { renderLaunch } from '../renderLifecycle.js';
import { z } from 'zod';

const list = (name: string, max: number, chars: number, hint: string) =>
  z
    .array(anyText(`each of ${name}`, hint, chars), { error: `${name} must be an array of at most ${max} strings.` })
    .max(max, { error: `${name} takes at most ${max} strings.` });

export const launchApp = defineTool({
  name: 'launch_app',
  title: 'Launch an app',
  description:
    'Starts an app with arguments and answers with its pid and windows (window_id, title, bounds) once a window is on screen and readable. ' +
    'Send exactly one of name, id or path. If the app already runs, nothing is started and its pid is returned (started: already-running) unless new_instance is true. ' +
    'args and urls go to the program as separate words, never through a shell. background: true leaves the person\'s front window in front.',
  type: 'launch',
  inputSchema: toolInput({
    name: nonEmptyText('name').optional().describe('App name ("Mousepad", "zenity", "TextEdit"): a .desktop/app name or a program on PATH.'),
    id: nonEmptyText('id').optional().describe('Bundle id ("com.apple.TextEdit") or .desktop id ("org.xfce.mousepad").'),
    path: nonEmptyText('path').optional().describe('Absolute path to the program, .app or .desktop file.'),
    args: list('args', LIMITS.launchArgs, LIMITS.launchArgChars, 'One command-line word each.').optional().describe(`Command-line arguments, one word each (at most ${LIMITS.launchArgs}).`),
    urls: list('urls', LIMITS.launchUrls, LIMITS.launchUrlChars, 'An absolute path or a URL with a scheme.').optional().describe(`Documents (absolute paths) or URLs to open with it (at most ${LIMITS.launchUrls}).`),
    background: flag('background').optional().describe("true: do not take the front from the person (their front window stays or is put back)."),
    new_instance: flag('new_instance').optional().describe('true: start another process even if the app already runs (single-instance apps hand it to the running one).'),
  }),
  outputSchema: launchOutput,
  handle: async (engine, args, context) =>
    renderLaunch(
      await engine.launchApp(
        { name: args.name, id: args.id, path: args.path, args: args.args, urls: args.urls, background: args.background, newInstance: args.new_instance },
        context,
      ),
    ),
});
