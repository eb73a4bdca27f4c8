import { z } from 'zod';
import { LIMITS } from '../../core/limits.js';
import type { TypeTextStep } from '../../core/call/steps.js';
import { defineTool } from '../defineTool.js';
import { callResultOutput } from '../outputSchemas.js';
import { elementIndexParam, flag, inlineParam, nonEmptyText, pidParam, toolInput, actingFields, actingShape } from '../params.js';
import { renderCallResult } from '../render.js';

const MODES = ['auto', 'insert', 'keys'] as const;

export const typeText = defineTool({
  name: 'type_text',
  title: 'Type text into a field',
  description:
    'Puts text into the field element_index names (latest tree), else the focused one. ' +
    'mode "auto" (default) inserts it through accessibility where the field takes it (at its caret, replacing its selection, like a paste: one edit) and types paced keys otherwise; ' +
    '"insert" only inserts (else an error); "keys" types as a person would (an unfocused element_index is clicked first; line breaks press Return). ' +
    'A one-line field refuses inserted line breaks: send the lines separately, or mode "keys". typed_by in the answer says which way was used, and when the field kept other text. ' +
    'replace: true replaces all the field holds.',
  type: 'input',
  inputSchema: toolInput({
    pid: pidParam(),
    text: nonEmptyText('text', 'Split longer text over several calls.', LIMITS.typedChars).describe('The text.'),
    element_index: elementIndexParam().optional().describe('The field: the #N of its line in the latest tree or diff. Default: the focused one.'),
    mode: z
      .enum(MODES, { error: () => `mode must be one of ${MODES.map((m) => `"${m}"`).join(', ')}.` })
      .optional()
      .describe('"auto" (default), "insert" or "keys".'),
    replace: flag('replace').optional().describe('true: the text replaces all the field holds, not only its selection.'),
    inline: inlineParam(),
    ...actingShape,
  }),
  outputSchema: callResultOutput,
  handle: async (engine, args, context) => {
    const step: TypeTextStep = { kind: 'type-text', text: args.text, mode: args.mode ?? 'auto', ...(args.element_index !== undefined ? { query: { index: args.element_index } } : {}), ...(args.replace ? { replace: true } : {}) };
    return renderCallResult(await engine.act({ tool: 'type_text', pid: args.pid, ...actingFields(args), steps: [step] }, context));
  },
});
