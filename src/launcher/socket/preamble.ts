// The socket's connection preamble: how `tandem mcp --tools <profile>` tells the host which tools
// this connection's MCP session offers, before any MCP byte (the relay is otherwise a byte pipe).
//
// It is one JSON-RPC request line, `tandem/connect` with params {version, tools}, which the
// host answers with one line before it creates the session. Being JSON-RPC keeps every pairing
// working or failing clearly:
// - an old launcher (or any MCP client) sends no preamble: its first line is MCP, the host serves
//   the `tools` setting's profile;
// - an old host takes the preamble for an MCP request it does not know and answers
//   "method not found": the launcher says the running host is too old for --tools;
// - a host that speaks another preamble version answers an error naming the versions it speaks.
// Without --tools the launcher sends no preamble, so it works with every host.

import type { ToolProfile } from '../../core/settings.js';
import { TOOL_PROFILES } from '../../core/settings.js';

export const PREAMBLE_METHOD = 'tandem/connect';
export const PREAMBLE_ID = 'tandem-connect';
/** The preamble version this code speaks. */
export const PREAMBLE_VERSION = 1;
/** A first line longer than this is not a preamble (MCP lines are then read by the transport). */
export const MAX_PREAMBLE_BYTES = 4_096;

export interface ConnectRequest {
  version: number;
  tools: ToolProfile;
}

export function preambleLine(request: ConnectRequest): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id: PREAMBLE_ID, method: PREAMBLE_METHOD, params: request })}\n`;
}

/**
 * The host's reading of a connection's first line: not a preamble (pass it on as MCP), a
 * preamble it accepts, or one it refuses with a message for the launcher.
 */
export type PreambleReading = { kind: 'none' } | { kind: 'accepted'; tools: ToolProfile } | { kind: 'refused'; message: string };

export function readPreamble(line: string): PreambleReading {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return { kind: 'none' };
  }
  if (typeof message !== 'object' || message === null || (message as { method?: unknown }).method !== PREAMBLE_METHOD) return { kind: 'none' };
  const params = (message as { params?: { version?: unknown; tools?: unknown } }).params ?? {};
  if (params.version !== PREAMBLE_VERSION) {
    return { kind: 'refused', message: `This Tandem host speaks connection preamble version ${PREAMBLE_VERSION}, not ${JSON.stringify(params.version)}: use a launcher of the same Tandem version as the app.` };
  }
  if (typeof params.tools !== 'string' || !(TOOL_PROFILES as readonly string[]).includes(params.tools)) {
    return { kind: 'refused', message: `Unknown tool profile ${JSON.stringify(params.tools)}: use ${TOOL_PROFILES.join(', ')}.` };
  }
  return { kind: 'accepted', tools: params.tools as ToolProfile };
}

/** The host's answer line to a preamble. */
export function preambleAnswer(reading: Exclude<PreambleReading, { kind: 'none' }>): string {
  const body =
    reading.kind === 'accepted'
      ? { result: { version: PREAMBLE_VERSION, tools: reading.tools } }
      : { error: { code: -32602, message: reading.message } };
  return `${JSON.stringify({ jsonrpc: '2.0', id: PREAMBLE_ID, ...body })}\n`;
}

/** The launcher's reading of the host's answer: accepted, or why not in a sentence for stderr. */
export function readPreambleAnswer(line: string, requested: ToolProfile): { ok: true } | { ok: false; message: string } {
  let answer: { id?: unknown; result?: { tools?: unknown }; error?: { code?: unknown; message?: unknown } };
  try {
    answer = JSON.parse(line) as typeof answer;
  } catch {
    return { ok: false, message: 'the Tandem host answered the connection preamble with something that is not JSON.' };
  }
  if (answer.id === PREAMBLE_ID && answer.result?.tools === requested) return { ok: true };
  if (answer.error?.code === -32601) {
    return {
      ok: false,
      message:
        `the running Tandem host is older than this launcher and cannot offer a tool profile (--tools ${requested}). ` +
        'Quit the Tandem app (or `tandem serve`) so a current one starts, run without --tools, or use `tandem mcp --direct --tools ' + requested + '`.',
    };
  }
  if (typeof answer.error?.message === 'string') return { ok: false, message: `the Tandem host refused --tools ${requested}: ${answer.error.message}` };
  return { ok: false, message: `the Tandem host did not confirm the tool profile ${requested}.` };
}

/**
 * Reads a connection's first line and stops there: the socket is left paused with nothing lost
 * (`rest` holds what came after the line, or everything when no line came within `maxBytes` or
 * before the connection ended; `line` is then null).
 */
export function readFirstLine(socket: NodeJS.ReadableStream & { pause(): unknown }, maxBytes = MAX_PREAMBLE_BYTES): Promise<{ line: string | null; rest: Buffer }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: { line: string | null; rest: Buffer }): void => {
      socket.pause();
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      const all = Buffer.concat(chunks, size);
      const newline = all.indexOf(0x0a);
      if (newline >= 0 && newline <= maxBytes) finish({ line: all.subarray(0, newline).toString('utf8').replace(/\r$/, ''), rest: all.subarray(newline + 1) });
      else if (size > maxBytes) finish({ line: null, rest: all });
    };
    const onEnd = (): void => finish({ line: null, rest: Buffer.concat(chunks, size) });
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
  });
}
