// A cap on the size of one incoming JSON-RPC message (one line of the stdio/socket framing),
// applied before the line is parsed: a client that sends megabytes in one argument gets a
// JSON-RPC error naming the limit instead of a server that buffers, parses and validates the
// whole thing (a 2 MB string swings the server's memory by tens of MB). Only the first and last
// bytes of an oversized line are kept, to find its id; the rest is dropped as it streams in.

/** Larger than any valid call: 100,000 typed characters are at most ~600 KB of JSON. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;
/** Bytes kept from the start and the end of an oversized line to find its "id". */
const ID_PROBE_BYTES = 512;

export interface OversizedMessage {
  /** The request's id when it could be read from the line's start (null: a notification, or unknown). */
  id: string | number | null;
  bytes: number;
}

/** Splits a byte stream into lines, passing those within the limit and reporting the others. */
export class LineSizeLimiter {
  private current: Buffer[] = [];
  private currentBytes = 0;
  private oversized = false;
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);

  constructor(private readonly maxBytes: number = MAX_MESSAGE_BYTES) {}

  /** Feeds a chunk; returns the complete lines within the limit (newline included) and the oversized ones. */
  push(chunk: Buffer): { lines: Buffer[]; oversized: OversizedMessage[] } {
    const lines: Buffer[] = [];
    const oversized: OversizedMessage[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline < 0 ? chunk.length : newline + 1;
      this.add(chunk.subarray(start, end));
      if (newline >= 0) {
        if (this.oversized) oversized.push({ id: requestId(this.head, this.tail), bytes: this.currentBytes });
        else lines.push(Buffer.concat(this.current, this.currentBytes));
        this.reset();
      }
      start = end;
    }
    return { lines, oversized };
  }

  private add(part: Buffer): void {
    this.currentBytes += part.length;
    if (this.oversized) {
      this.keepTail(part);
      return;
    }
    this.current.push(part);
    if (this.currentBytes <= this.maxBytes) return;
    // Over the limit: keep the start and the end (for the id), drop the rest from now on.
    const whole = Buffer.concat(this.current);
    this.head = Buffer.from(whole.subarray(0, ID_PROBE_BYTES));
    this.keepTail(whole);
    this.current = [];
    this.oversized = true;
  }

  private keepTail(part: Buffer): void {
    const joined = part.length >= ID_PROBE_BYTES ? part : Buffer.concat([this.tail, part]);
    this.tail = Buffer.from(joined.subarray(Math.max(0, joined.length - ID_PROBE_BYTES)));
  }

  private reset(): void {
    this.current = [];
    this.currentBytes = 0;
    this.oversized = false;
    this.head = Buffer.alloc(0);
    this.tail = Buffer.alloc(0);
  }
}

const ID_VALUE = String.raw`("(?:[^"\\]|\\.)*"|-?\d+)`;
/** The last member of the top-level object (the SDK writes "id" last)… */
const ID_AT_END = new RegExp(String.raw`"id"\s*:\s*${ID_VALUE}\s*}\s*$`);
/** …or the first members (other clients write {"jsonrpc":"2.0","id":…} first). */
const ID_AT_START = new RegExp(String.raw`^\s*{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID_VALUE}`);

/**
 * The "id" of a JSON-RPC request from the first and last bytes of its line: only where the id is
 * a member of the top-level object, never an "id" inside the arguments.
 */
export function requestId(head: Buffer, tail: Buffer = Buffer.alloc(0)): string | number | null {
  const match = ID_AT_END.exec(tail.toString('utf8').trimEnd()) ?? ID_AT_START.exec(head.toString('utf8'));
  if (!match) return null;
  return match[1].startsWith('"') ? (JSON.parse(match[1]) as string) : Number(match[1]);
}

/** The JSON-RPC error answered to an oversized request. */
export function oversizedError(message: OversizedMessage): { jsonrpc: '2.0'; id: string | number; error: { code: number; message: string } } | null {
  if (message.id === null) return null;
  const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: {
      code: -32600,
      message: `Request too large (${mib(message.bytes)}): Tandem takes at most ${mib(MAX_MESSAGE_BYTES)} per message. Send long text in several calls (at most 100,000 characters each).`,
    },
  };
}
