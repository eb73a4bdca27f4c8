import { z } from 'zod';
import { LIMITS } from '../../core/limits.js';
import type { TypeTextStep } from '../../core/call/steps.js';
import { defineTool } from '../defineTool.js';
import { callResultOutput } from '../outputSchemas.js';
import { elementIndexParam, flag, inlineParam, nonEmptyText, pidParam, toolInput } from '../params.js';
import { renderCallResult } from '../render.js';

const MODES = ['auto', 'insert', 'keys'] as const;

export const typeText = defineTool({
  name: 'type_text',
  title: 'Type text into a field',
  description:
    'Puts text into a field of the app: into the element element_index names (from the latest tree), else the focused one. ' +
    'mode "auto" (default) inserts it through accessibility where the field supports it (at its caret, replacing its selection, like a paste: one edit, fast, the app sees its usual change) and types paced keystrokes otherwise; ' +
    '"insert" only inserts (an error where the field cannot take it); "keys" types keys as a person would (an element_index not focused is clicked first; line breaks press Return). ' +
    'A one-line field refuses inserted text with line breaks: send the lines separately, or mode "keys". The answer\'s typed_by line says which way was used, and when the field kept other text. ' +
    'replace: true replaces everything in the field (a file name a dialog pre-selected only in part). ' +
    'Guarded like every action (Esc cancels). Example: {"pid":123,"element_index":9,"text":"hello"}.',
  type: 'input',
  inputSchema: toolInput({
    pid: pidParam(),
    text: nonEmptyText('text', 'Split longer text over several calls.', LIMITS.typedChars).describe(`The text (at most ${LIMITS.typedChars.toLocaleString('en-US')} characters).`),
    element_index: elementIndexParam().optional().describe('The field: its element_index from the latest tree of this pid (the #N of its tree or diff line). Default: the focused element.'),
    mode: z
      .enum(MODES, { error: () => `mode must be one of ${MODES.map((m) => `"${m}"`).join(', ')}.` })
      .optional()
      .describe('"auto" (default): insert where the field supports it, keys otherwise; "insert": insertion only; "keys": paced keystrokes only.'),
    replace: flag('replace').optional().describe('true: the text replaces all the field holds, not only its selection.'),
    inline: inlineParam(),
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => {
    const step: TypeTextStep = { kind: 'type-text', text: args.text, mode: args.mode ?? 'auto', ...(args.element_index !== undefined ? { query: { index: args.element_index } } : {}), ...(args.replace ? { replace: true } : {}) };
    return renderCallResult(await engine.act({ tool: 'type_text', pid: args.pid, steps: [step] }, context));
  },
});
