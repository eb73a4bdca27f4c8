// An MCP Transport over one connected net.Socket: newline-delimited JSON-RPC, exactly the
// framing of the SDK's stdio transport, whose ReadBuffer/serializeMessage we reuse. Used on
// both ends: the app's socket host (one per connection) and tests' clients.

import type { Socket } from 'node:net';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineSizeLimiter, oversizedError } from '../../mcp/messageSizeLimit.js';

export class SocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  sessionId?: string;

  private readonly readBuffer = new ReadBuffer();
  /** Lines within MAX_MESSAGE_BYTES reach the read buffer; an oversized request is answered with an error. */
  private readonly limiter = new LineSizeLimiter();
  private started = false;
  private closed = false;

  /**
   * `observe` sees every incoming message before the MCP session does (the host reads
   * clientInfo). `pending`: bytes already read off the socket (after the host's preamble), read
   * first; the socket may have been paused to read them and is resumed.
   */
  constructor(
    private readonly socket: Socket,
    private readonly observe?: (message: JSONRPCMessage) => void,
    private readonly pending?: Buffer,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('SocketTransport already started');
    this.started = true;
    this.socket.on('data', this.onData);
    this.socket.on('error', this.onSocketError);
    this.socket.on('close', this.onSocketClose);
    if (this.pending?.length) this.onData(this.pending);
    this.socket.resume();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed || this.socket.destroyed) throw new Error('The connection is closed.');
    await new Promise<void>((resolve, reject) => {
      this.socket.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.socket.end();
    this.socket.destroy();
    this.finish();
  }

  private readonly onData = (chunk: Buffer): void => {
    const { lines, oversized } = this.limiter.push(chunk);
    for (const message of oversized) {
      this.onerror?.(new Error(`dropped a ${message.bytes}-byte message (limit per message exceeded)`));
      const answer = oversizedError(message);
      if (answer) void this.send(answer).catch(() => {});
    }
    for (const line of lines) this.readBuffer.append(line);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.readBuffer.readMessage();
      } catch (error) {
        // A garbage line is skipped (like the SDK's stdio transport); later lines still count.
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) break;
      this.observe?.(message);
      this.onmessage?.(message);
    }
  };

  private readonly onSocketError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onSocketClose = (): void => {
    this.finish();
  };

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.readBuffer.clear();
    this.socket.off('data', this.onData);
    this.onclose?.();
  }
}
