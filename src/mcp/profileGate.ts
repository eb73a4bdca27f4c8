// A session offers one tool profile. Tools outside it are not registered, so tools/list never
// shows them; a call to one still deserves an answer that says why and what to do, rather than
// the SDK's bare "Tool … not found". The SDK keeps its call handler private, so the answer is
// given here, on the way in: a transport wrapper answers tools/call for those names itself and
// passes every other message through untouched.

import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { ToolProfile } from '../core/settings.js';

/** The answer to a call of a tool this session's profile leaves out. */
export function outsideProfileResult(name: string, profile: ToolProfile, profilesWithIt: readonly ToolProfile[]): CallToolResult {
  const where = profilesWithIt.map((p) => `--tools ${p}`).join(' or ');
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: `${name} is not offered in this session: it runs with the tool profile "${profile}" (tandem mcp --tools ${profile}, or the "tools" setting). ` +
          `Use the tools tools/list shows; the person can start Tandem with ${where} to get ${name}.`,
      },
    ],
  };
}

export class ProfileGateTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  /** `refuse(name)`: the answer for a tool left out of the profile, or undefined to pass the call on. */
  constructor(
    private readonly inner: Transport,
    private readonly refuse: (name: string) => CallToolResult | undefined,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const answer = this.answerFor(message);
      if (answer) void inner.send(answer).catch((error: Error) => this.onerror?.(error));
      else this.onmessage?.(message, extra);
    };
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private answerFor(message: JSONRPCMessage): JSONRPCMessage | undefined {
    if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return undefined;
    const name = (message.params as { name?: unknown } | undefined)?.name;
    const result = typeof name === 'string' ? this.refuse(name) : undefined;
    return result ? { jsonrpc: '2.0', id: message.id, result } : undefined;
  }
}
