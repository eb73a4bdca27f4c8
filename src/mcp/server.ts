// The MCP server over a TandemEngine: every tool of the registry, the workflow instructions, and
// a per-call context (who is calling, and the request's abort signal so a client that cancels or
// goes away cancels its own action). SDK imports stay inside src/mcp.

import { PassThrough } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallContext, TandemEngine } from '../core/engineApi.js';
import { DEFAULT_SETTINGS, TOOL_PROFILES, type ToolProfile } from '../core/settings.js';
import { annotationsFor, inProfile, type ToolDefinition } from './defineTool.js';
import { registerArtifactResources } from './artifactResources.js';
import { errorResult } from './errors.js';
import { withInlineContent } from './inlineContent.js';
import { LineSizeLimiter, oversizedError } from './messageSizeLimit.js';
import { progressListener } from './progressNotifications.js';
import { serverInstructions } from './instructions.js';
import { outsideProfileResult, ProfileGateTransport } from './profileGate.js';
import { withOfferedWords } from './profileWords.js';
import { tools } from './tools/index.js';

export const SERVER_NAME = 'tandem';

export interface McpServerOptions {
  /** Reported in serverInfo; the launcher passes package.json's version. */
  version?: string;
  /** `inline` for calls that do not send it; default: the engine's `inline` setting at each call. */
  inlineByDefault?: boolean;
  /** The tool profile this session offers (default: the `tools` setting's default, driver); the launcher and the host pass the flag's, else the `tools` setting. */
  profile?: ToolProfile;
  /** Session label for the feed; defaults to the client's own name from initialize. */
  clientId?: string;
}

interface RequestExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (notification: { method: 'notifications/progress'; params: { progressToken: string | number; progress: number; total: number; message: string } }) => Promise<void>;
}

function registerTool(server: McpServer, engine: TandemEngine, tool: ToolDefinition, clientId: () => string, inlineByDefault: boolean | undefined, offered: ReadonlySet<string>): void {
  // The SDK has already parsed `args` with tool.inputSchema, so they have its output type.
  const handler = async (args: Record<string, unknown>, extra: RequestExtra): Promise<CallToolResult> => withOfferedWords(await answer(args, extra), offered);
  const answer = async (args: Record<string, unknown>, extra: RequestExtra): Promise<CallToolResult> => {
    const context: CallContext = { clientId: clientId(), signal: extra.signal };
    const progressToken = extra._meta?.progressToken;
    if (progressToken !== undefined) {
      context.onEvent = progressListener((notice) => {
        void extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...notice } }).catch(() => {});
      });
    }
    let rendered: CallToolResult;
    try {
      rendered = await tool.handle(engine, args, context);
    } catch (error) {
      // Thrown = refused before anything ran (bad input, unknown pid, paused…): still an answer.
      return errorResult(error);
    }
    if (!('inline' in tool.inputSchema.shape)) return rendered;
    try {
      // The settings as they are now: a set_config (from any connection) applies to the next call.
      const settings = (await engine.getConfig()).settings;
      const inline = typeof args.inline === 'boolean' ? args.inline : (inlineByDefault ?? settings.inline.value === true);
      return inline ? await withInlineContent(engine, rendered, { maxSide: settings.inline_image_max_side.value as number }) : rendered;
    } catch (error) {
      // The call ran: its answer stands, with the files it names, whatever went wrong inlining them.
      console.error('[tandem] could not put the files in the answer:', error);
      return rendered;
    }
  };
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
      annotations: { title: tool.title, ...annotationsFor(tool.type) },
    },
    handler,
  );
}

/** The MCP server of one session: it connects through a gate that answers calls of tools its profile leaves out. */
class ProfiledMcpServer extends McpServer {
  constructor(
    info: ConstructorParameters<typeof McpServer>[0],
    options: ConstructorParameters<typeof McpServer>[1],
    private readonly refuse: (name: string) => CallToolResult | undefined,
  ) {
    super(info, options);
  }

  override connect(transport: Transport): Promise<void> {
    return super.connect(new ProfileGateTransport(transport, this.refuse));
  }
}

/** The tools `profile` offers, in registry order. */
export function toolsOf(profile: ToolProfile): ToolDefinition[] {
  return tools.filter((tool) => inProfile(tool, profile));
}

export function createMcpServer(engine: TandemEngine, options: McpServerOptions = {}): McpServer {
  const profile = options.profile ?? DEFAULT_SETTINGS.tools;
  const offered = toolsOf(profile);
  const offeredNames = new Set(offered.map((tool) => tool.name));
  const refuse = (name: string): CallToolResult | undefined => {
    const tool = tools.find((candidate) => candidate.name === name);
    if (!tool || offeredNames.has(name)) return undefined;
    return outsideProfileResult(name, profile, TOOL_PROFILES.filter((p) => inProfile(tool, p)));
  };
  const server = new ProfiledMcpServer(
    { name: SERVER_NAME, title: 'Tandem', version: options.version ?? '0.0.0' },
    { instructions: serverInstructions(offeredNames), capabilities: { tools: {}, resources: {} } },
    refuse,
  );
  const clientId = (): string => options.clientId ?? server.server.getClientVersion()?.name ?? 'mcp-client';
  for (const tool of offered) registerTool(server, engine, tool, clientId, options.inlineByDefault, offeredNames);
  registerArtifactResources(server, engine);
  return server;
}

/**
 * Serves MCP over this process's stdin/stdout until the client closes stdin. Only protocol goes
 * to stdout; anything else must go to stderr.
 */
export async function serveStdio(engine: TandemEngine, options: McpServerOptions = {}): Promise<void> {
  const server = createMcpServer(engine, options);
  // stdin reaches the SDK line by line, each within MAX_MESSAGE_BYTES; an oversized request is
  // answered with an error here and never buffered whole.
  const input = new PassThrough();
  const transport = new StdioServerTransport(input, process.stdout);
  const limiter = new LineSizeLimiter();
  const onData = (chunk: Buffer): void => {
    const { lines, oversized } = limiter.push(chunk);
    for (const line of lines) input.write(line);
    for (const message of oversized) {
      console.error(`[mcp] dropped a ${message.bytes}-byte message (limit per message exceeded)`);
      const answer = oversizedError(message);
      if (answer) void transport.send(answer).catch(() => {});
    }
  };
  process.stdin.on('data', onData);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  // The SDK's stdio transport does not watch for end of input: a client that exits closes stdin.
  const onEnd = (): void => {
    void server.close();
  };
  process.stdin.once('end', onEnd);
  process.stdin.once('close', onEnd);
  await server.connect(transport);
  await closed;
  process.stdin.off('end', onEnd);
  process.stdin.off('close', onEnd);
  process.stdin.off('data', onData);
}
