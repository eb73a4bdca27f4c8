// `inline: true` (or the server's default): the answer carries what its files hold, for clients
// that cannot open local files or resource links. The screenshot comes as image content at most
// INLINE_MAX_SIDE px on its longer side; the tree or diff as text up to INLINE_TEXT_CHARS, the
// rest named as still in the file. Both are read back through the engine from the files just
// written, so the answer shows exactly what is on disk (password fields already painted over,
// secure values never there).

import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TandemEngine } from '../core/engineApi.js';
import { toTandemError } from '../core/errors.js';
import { fitPng } from '../core/artifacts/imageScale.js';

export const INLINE_MAX_SIDE = 1_280;
export const INLINE_TEXT_CHARS = 20_000;

interface NamedFiles {
  file?: unknown;
  screenshot?: unknown;
}

export interface InlineOptions {
  maxSide?: number;
  maxTextChars?: number;
}

/** `rendered` with its tree/diff text and screenshot added as content items (after the summary and any handoff tree). */
export async function withInlineContent(engine: TandemEngine, rendered: CallToolResult, options: InlineOptions = {}): Promise<CallToolResult> {
  const named = (rendered.structuredContent ?? {}) as NamedFiles;
  const maxSide = options.maxSide ?? INLINE_MAX_SIDE;
  const maxChars = options.maxTextChars ?? INLINE_TEXT_CHARS;
  const added: CallToolResult['content'] = [];
  // A file that cannot be read back (pruned meanwhile) is said, not dropped silently.
  const inline = async (filePath: unknown, item: (bytes: Buffer, name: string) => Promise<CallToolResult['content'][number]>): Promise<void> => {
    if (typeof filePath !== 'string') return;
    const name = path.basename(filePath);
    try {
      added.push(await item(await engine.readArtifact(name), name));
    } catch (error) {
      added.push({ type: 'text', text: `${name} could not be put inline (${toTandemError(error).message}); read it from the file or its resource link.` });
    }
  };
  await inline(named.file, async (bytes, name) => {
    const text = bytes.toString('utf8');
    const chars = [...text];
    const shown = chars.length > maxChars ? `${chars.slice(0, maxChars).join('')}\n… (${chars.length - maxChars} more characters in ${name})` : text;
    return { type: 'text', text: `${name}:\n${shown}` };
  });
  await inline(named.screenshot, async (bytes) => ({ type: 'image', data: (await fitPng(bytes, maxSide)).png.toString('base64'), mimeType: 'image/png' }));
  if (!added.length) return rendered;
  // After the text items (summary, handoff tree), before the resource links.
  const firstLink = rendered.content.findIndex((item) => item.type === 'resource_link');
  const at = firstLink < 0 ? rendered.content.length : firstLink;
  return { ...rendered, content: [...rendered.content.slice(0, at), ...added, ...rendered.content.slice(at)] };
}
