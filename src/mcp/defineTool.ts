// Tools are declared as data (after Playwright's MCP tools): a name, the text a model reads, a
// `type`, zod schemas and a thin handler over the engine. The MCP annotation hints are derived
// from `type` in one place so no tool can drift from the others.

import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { CallContext, TandemEngine } from '../core/engineApi.js';
import type { ToolProfile } from '../core/settings.js';

/**
 * - readOnly: reads the desktop, never engages the guard, never moves anything (refresh, list).
 * - input: drives an app like a person would (synthetic input or accessibility actions): it can
 *   do anything the app can, so it is destructive and not idempotent (click, type, set value…).
 * - action: changes which app is running or in front without touching any document (open):
 *   safe to repeat.
 * - launch: starts a process (launch_app): touches no document, but a repeat may start another
 *   instance (new_instance), so not idempotent.
 * - process: ends a process (kill_app): destructive — with force, unsaved work may be lost — and
 *   not idempotent (the second call finds nothing, or a new process under a reused pid).
 * - settings: changes Tandem's own settings (a private file), touches no app: safe to repeat.
 */
export type ToolType = 'readOnly' | 'input' | 'action' | 'launch' | 'process' | 'settings';

/** A profile a tool can belong to; `all` offers every tool whatever it declares. */
export type NamedProfile = Exclude<ToolProfile, 'all'>;

/**
 * Where a tool that declares nothing belongs: `reference` is the closed set of the first tools
 * (the `_and_traverse` workflow), so every new tool is a driver-style tool unless it says so.
 */
export const DEFAULT_TOOL_PROFILES: readonly NamedProfile[] = ['driver'];

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  /**
   * The profiles (`tandem mcp --tools reference|driver`) that offer this tool; `all` offers
   * every tool. Default DEFAULT_TOOL_PROFILES (driver).
   */
  profiles?: readonly NamedProfile[];
  title: string;
  description: string;
  type: ToolType;
  inputSchema: Input;
  outputSchema: z.ZodObject;
  handle(engine: TandemEngine, args: z.output<Input>, context: CallContext): Promise<CallToolResult>;
}

/** The identity function, typed so a tool's handler sees its own parsed arguments. */
export function defineTool<Input extends z.ZodObject>(tool: ToolDefinition<Input>): ToolDefinition<Input> {
  return tool;
}

/** Whether `profile` offers `tool`. */
export function inProfile(tool: Pick<ToolDefinition, 'profiles'>, profile: ToolProfile): boolean {
  return profile === 'all' || (tool.profiles ?? DEFAULT_TOOL_PROFILES).includes(profile);
}

/** All four hints, always explicit: the protocol's defaults (destructive, open world) are the worst case. */
export function annotationsFor(type: ToolType): Required<Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>> {
  switch (type) {
    case 'readOnly':
      // Reads the person's own machine only.
      return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
    case 'input':
      // A click can press "Delete" or "Send": whatever the app reaches, this reaches.
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
    case 'action':
      return { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true };
    case 'launch':
      return { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
    case 'process':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
    case 'settings':
      // Only Tandem's own config file changes; sending the same settings twice changes nothing more.
      return { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  }
}
