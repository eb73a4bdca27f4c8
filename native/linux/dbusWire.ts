// The D-Bus wire format (marshalling and message framing), as the D-Bus specification defines it:
// https://dbus.freedesktop.org/doc/dbus-specification.html#message-protocol-marshaling
//
// Why our own and not dbus-next's: a snapshot of an app makes hundreds of small calls, and
// dbus-next spent ~100 µs of CPU on each (its `put`-based writer, per-value validation and the
// garbage they leave: measured at 128 ms of Node CPU for a 1,300-call snapshot that the app
// answered with 40 ms of its own). This codec writes into one growing Buffer and reads with
// precompiled signatures. Pure: no sockets here (see dbusClient.ts).
//
// Values: y n q i u d h → number, x t → bigint, b → boolean, s o g → string, ay → Buffer,
// a… → array, a{…} → plain object (keys as strings), (…) → array, v → DbusVariant.

export const MESSAGE_TYPE = { methodCall: 1, methodReturn: 2, error: 3, signal: 4 } as const;
export type MessageType = (typeof MESSAGE_TYPE)[keyof typeof MESSAGE_TYPE];

/** Header flag: the caller does not want a reply. */
export const FLAG_NO_REPLY_EXPECTED = 0x1;

const FIELD = { path: 1, interface: 2, member: 3, errorName: 4, replySerial: 5, destination: 6, sender: 7, signature: 8, unixFds: 9 } as const;

/** Longest message the specification allows (128 MiB for a message, 64 MiB for an array). */
export const MAX_MESSAGE_BYTES = 128 * 1024 * 1024;

export class DbusVariant<T = unknown> {
  constructor(readonly signature: string, readonly value: T) {}
}

export interface DbusMessage {
  type: MessageType;
  flags: number;
  serial: number;
  path?: string;
  interface?: string;
  member?: string;
  errorName?: string;
  replySerial?: number;
  destination?: string;
  sender?: string;
  /** Body signature; '' for an empty body. */
  signature: string;
  body: unknown[];
}

export class DbusWireError extends Error {}

// — signatures —

interface SigNode {
  code: string;
  /** Array element. */
  element?: SigNode;
  /** Struct or dict-entry members. */
  members?: SigNode[];
}

const ALIGNMENT: Record<string, number> = { y: 1, b: 4, n: 2, q: 2, i: 4, u: 4, x: 8, t: 8, d: 8, h: 4, s: 4, o: 4, g: 1, v: 1, a: 4, '(': 8, '{': 8 };

const parsedSignatures = new Map<string, SigNode[]>();

/** Complete types of a signature, parsed once and kept (a client uses a handful of them). */
export function parseSignature(signature: string): SigNode[] {
  let parsed = parsedSignatures.get(signature);
  if (!parsed) {
    const nodes: SigNode[] = [];
    let at = 0;
    while (at < signature.length) {
      const [node, next] = parseOne(signature, at, 0);
      nodes.push(node);
      at = next;
    }
    parsed = nodes;
    if (parsedSignatures.size < 1024) parsedSignatures.set(signature, parsed);
  }
  return parsed;
}

function parseOne(signature: string, at: number, depth: number): [SigNode, number] {
  if (depth > 64) throw new DbusWireError(`signature nests too deep: ${signature}`);
  const code = signature[at];
  if (code === undefined) throw new DbusWireError(`signature ends early: ${signature}`);
  if (code === 'a') {
    const [element, next] = parseOne(signature, at + 1, depth + 1);
    return [{ code, element }, next];
  }
  if (code === '(' || code === '{') {
    const close = code === '(' ? ')' : '}';
    const members: SigNode[] = [];
    let next = at + 1;
    while (signature[next] !== close) {
      if (next >= signature.length) throw new DbusWireError(`unclosed ${code} in signature ${signature}`);
      const [member, after] = parseOne(signature, next, depth + 1);
      members.push(member);
      next = after;
    }
    if (members.length === 0 || (code === '{' && members.length !== 2)) throw new DbusWireError(`bad ${code}…${close} in signature ${signature}`);
    return [{ code, members }, next + 1];
  }
  if (!(code in ALIGNMENT)) throw new DbusWireError(`unknown type '${code}' in signature ${signature}`);
  return [{ code }, at + 1];
}

// — writing —

class WireWriter {
  buf: Buffer;
  pos = 0;

  constructor(size = 256) {
    this.buf = Buffer.allocUnsafe(size);
  }

  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  align(boundary: number): void {
    const padding = (boundary - (this.pos % boundary)) % boundary;
    if (padding === 0) return;
    this.ensure(padding);
    this.buf.fill(0, this.pos, this.pos + padding);
    this.pos += padding;
  }

  u8(value: number): void {
    this.ensure(1);
    this.buf[this.pos++] = value;
  }

  /** A fixed-size value: aligned to its size, room made, then written. */
  private fixed(size: number, write: (at: number) => void): void {
    this.align(size);
    this.ensure(size);
    write(this.pos);
    this.pos += size;
  }

  u32(value: number): void {
    this.fixed(4, (at) => this.buf.writeUInt32LE(value >>> 0, at));
  }

  string(value: string): void {
    const length = Buffer.byteLength(value);
    this.u32(length);
    this.ensure(length + 1);
    this.buf.write(value, this.pos, 'utf8');
    this.pos += length;
    this.buf[this.pos++] = 0;
  }

  signature(value: string): void {
    const length = Buffer.byteLength(value);
    if (length > 255) throw new DbusWireError('a signature is at most 255 bytes');
    this.u8(length);
    this.ensure(length + 1);
    this.buf.write(value, this.pos, 'latin1');
    this.pos += length;
    this.buf[this.pos++] = 0;
  }

  value(node: SigNode, value: unknown): void {
    switch (node.code) {
      case 'y':
        this.u8(Number(value) & 0xff);
        return;
      case 'b':
        this.u32(value ? 1 : 0);
        return;
      case 'n':
        return this.fixed(2, (at) => this.buf.writeInt16LE(Number(value), at));
      case 'q':
        return this.fixed(2, (at) => this.buf.writeUInt16LE(Number(value), at));
      case 'i':
        return this.fixed(4, (at) => this.buf.writeInt32LE(Number(value), at));
      case 'u':
      case 'h':
        return this.u32(Number(value));
      case 'x':
        return this.fixed(8, (at) => this.buf.writeBigInt64LE(BigInt(value as bigint | number), at));
      case 't':
        return this.fixed(8, (at) => this.buf.writeBigUInt64LE(BigInt(value as bigint | number), at));
      case 'd':
        return this.fixed(8, (at) => this.buf.writeDoubleLE(Number(value), at));
      case 's':
      case 'o':
        this.string(String(value));
        return;
      case 'g':
        this.signature(String(value));
        return;
      case 'v': {
        if (!(value instanceof DbusVariant)) throw new DbusWireError('a variant value must be a DbusVariant');
        const [inner, ...rest] = parseSignature(value.signature);
        if (!inner || rest.length > 0) throw new DbusWireError(`a variant holds exactly one complete type, not '${value.signature}'`);
        this.signature(value.signature);
        this.value(inner, value.value);
        return;
      }
      case '(': {
        const items = value as unknown[];
        const members = node.members!;
        if (!Array.isArray(items) || items.length !== members.length) throw new DbusWireError(`a struct of ${members.length} members needs an array of as many values`);
        this.align(8);
        members.forEach((member, index) => this.value(member, items[index]));
        return;
      }
      case 'a': {
        const element = node.element!;
        this.u32(0);
        const lengthAt = this.pos - 4;
        this.align(ALIGNMENT[element.code]);
        const start = this.pos;
        if (element.code === 'y' && Buffer.isBuffer(value)) {
          this.ensure(value.length);
          value.copy(this.buf, this.pos);
          this.pos += value.length;
        } else if (element.code === '{') {
          const [keyType, valueType] = element.members!;
          const entries = value instanceof Map ? [...value.entries()] : Object.entries(value as Record<string, unknown>);
          for (const [key, entryValue] of entries) {
            this.align(8);
            this.value(keyType, keyType.code === 's' || keyType.code === 'o' || keyType.code === 'g' ? key : Number(key));
            this.value(valueType, entryValue);
          }
        } else {
          for (const item of value as unknown[]) this.value(element, item);
        }
        this.buf.writeUInt32LE(this.pos - start, lengthAt);
        return;
      }
      default:
        throw new DbusWireError(`cannot write type '${node.code}'`);
    }
  }
}

export interface OutgoingMessage {
  type: MessageType;
  flags?: number;
  serial: number;
  path?: string;
  interface?: string;
  member?: string;
  errorName?: string;
  replySerial?: number;
  destination?: string;
  signature?: string;
  body?: readonly unknown[];
}

/** One complete message, little-endian, ready for the socket. */
export function encodeMessage(message: OutgoingMessage): Buffer {
  const signature = message.signature ?? '';
  const types = parseSignature(signature);
  const body = message.body ?? [];
  if (body.length !== types.length) throw new DbusWireError(`signature '${signature}' needs ${types.length} values, got ${body.length}`);
  const writer = new WireWriter(256);
  writer.u8(0x6c); // 'l': little-endian
  writer.u8(message.type);
  writer.u8(message.flags ?? 0);
  writer.u8(1); // protocol version
  writer.u32(0); // body length, patched below
  writer.u32(message.serial);
  writer.u32(0); // header fields array length, patched below
  const fieldsStart = writer.pos;
  const field = (code: number, type: string, value: string | number): void => {
    writer.align(8);
    writer.u8(code);
    writer.signature(type);
    if (type === 'u') writer.u32(value as number);
    else if (type === 'g') writer.signature(value as string);
    else writer.string(value as string);
  };
  if (message.path !== undefined) field(FIELD.path, 'o', message.path);
  if (message.interface !== undefined) field(FIELD.interface, 's', message.interface);
  if (message.member !== undefined) field(FIELD.member, 's', message.member);
  if (message.errorName !== undefined) field(FIELD.errorName, 's', message.errorName);
  if (message.replySerial !== undefined) field(FIELD.replySerial, 'u', message.replySerial);
  if (message.destination !== undefined) field(FIELD.destination, 's', message.destination);
  if (signature !== '') field(FIELD.signature, 'g', signature);
  writer.buf.writeUInt32LE(writer.pos - fieldsStart, 12);
  writer.align(8);
  const bodyStart = writer.pos;
  types.forEach((type, index) => writer.value(type, body[index]));
  writer.buf.writeUInt32LE(writer.pos - bodyStart, 4);
  if (writer.pos > MAX_MESSAGE_BYTES) throw new DbusWireError('message longer than D-Bus allows');
  return writer.buf.subarray(0, writer.pos);
}

// — reading —

class WireReader {
  pos: number;

  constructor(
    readonly buf: Buffer,
    readonly little: boolean,
    /** Offset of the message start: alignment is relative to it. */
    readonly base: number,
    readonly end: number,
  ) {
    this.pos = base;
  }

  private need(bytes: number): void {
    if (this.pos + bytes > this.end) throw new DbusWireError('message ends inside a value');
  }

  align(boundary: number): void {
    const offset = (this.pos - this.base) % boundary;
    if (offset !== 0) this.pos += boundary - offset;
  }

  u8(): number {
    this.need(1);
    return this.buf[this.pos++];
  }

  /** A fixed-size value: aligned to its size, bounds-checked, then read. */
  private fixed<T>(size: number, read: (at: number) => T): T {
    this.align(size);
    this.need(size);
    const value = read(this.pos);
    this.pos += size;
    return value;
  }

  u32(): number {
    return this.fixed(4, (at) => (this.little ? this.buf.readUInt32LE(at) : this.buf.readUInt32BE(at)));
  }

  string(): string {
    const length = this.u32();
    this.need(length + 1);
    const value = this.buf.toString('utf8', this.pos, this.pos + length);
    this.pos += length + 1;
    return value;
  }

  signature(): string {
    const length = this.u8();
    this.need(length + 1);
    const value = this.buf.toString('latin1', this.pos, this.pos + length);
    this.pos += length + 1;
    return value;
  }

  value(node: SigNode): unknown {
    const { buf, little } = this;
    switch (node.code) {
      case 'y':
        return this.u8();
      case 'b':
        return this.u32() !== 0;
      case 'n':
        return this.fixed(2, (at) => (little ? buf.readInt16LE(at) : buf.readInt16BE(at)));
      case 'q':
        return this.fixed(2, (at) => (little ? buf.readUInt16LE(at) : buf.readUInt16BE(at)));
      case 'i':
        return this.fixed(4, (at) => (little ? buf.readInt32LE(at) : buf.readInt32BE(at)));
      case 'u':
      case 'h':
        return this.u32();
      case 'x':
        return this.fixed(8, (at) => (little ? buf.readBigInt64LE(at) : buf.readBigInt64BE(at)));
      case 't':
        return this.fixed(8, (at) => (little ? buf.readBigUInt64LE(at) : buf.readBigUInt64BE(at)));
      case 'd':
        return this.fixed(8, (at) => (little ? buf.readDoubleLE(at) : buf.readDoubleBE(at)));
      case 's':
      case 'o':
        return this.string();
      case 'g':
        return this.signature();
      case 'v': {
        const signature = this.signature();
        const [inner, ...rest] = parseSignature(signature);
        if (!inner || rest.length > 0) throw new DbusWireError(`a variant holds exactly one complete type, not '${signature}'`);
        return new DbusVariant(signature, this.value(inner));
      }
      case '(': {
        this.align(8);
        return node.members!.map((member) => this.value(member));
      }
      case 'a': {
        const length = this.u32();
        const element = node.element!;
        this.align(ALIGNMENT[element.code]);
        const stop = this.pos + length;
        if (stop > this.end) throw new DbusWireError('array runs past the end of the message');
        if (element.code === 'y') {
          const bytes = Buffer.from(buf.subarray(this.pos, stop));
          this.pos = stop;
          return bytes;
        }
        if (element.code === '{') {
          const [keyType, valueType] = element.members!;
          const object: Record<string, unknown> = {};
          while (this.pos < stop) {
            this.align(8);
            const key = this.value(keyType);
            object[String(key)] = this.value(valueType);
          }
          return object;
        }
        const items: unknown[] = [];
        while (this.pos < stop) items.push(this.value(element));
        if (this.pos !== stop) throw new DbusWireError('array elements overrun its declared length');
        return items;
      }
      default:
        throw new DbusWireError(`cannot read type '${node.code}'`);
    }
  }
}

/**
 * Total length of the message starting at `offset`, once its first 16 bytes are there;
 * null while fewer are buffered.
 */
export function messageLength(buf: Buffer, offset = 0): number | null {
  if (buf.length - offset < 16) return null;
  const endian = buf[offset];
  if (endian !== 0x6c && endian !== 0x42) throw new DbusWireError(`not a D-Bus message (endianness byte 0x${endian.toString(16)})`);
  const little = endian === 0x6c;
  const bodyLength = little ? buf.readUInt32LE(offset + 4) : buf.readUInt32BE(offset + 4);
  const fieldsLength = little ? buf.readUInt32LE(offset + 12) : buf.readUInt32BE(offset + 12);
  const headerLength = 16 + fieldsLength + ((8 - (fieldsLength % 8)) % 8);
  const total = headerLength + bodyLength;
  if (total > MAX_MESSAGE_BYTES) throw new DbusWireError(`message of ${total} bytes is longer than D-Bus allows`);
  return total;
}

/** Decodes one complete message at `offset` (messageLength() bytes must be there). */
export function decodeMessage(buf: Buffer, offset = 0): DbusMessage {
  const total = messageLength(buf, offset);
  if (total === null || buf.length - offset < total) throw new DbusWireError('incomplete message');
  const little = buf[offset] === 0x6c;
  const reader = new WireReader(buf, little, offset, offset + total);
  reader.pos = offset + 1;
  const type = reader.u8() as MessageType;
  const flags = reader.u8();
  reader.u8(); // protocol version
  reader.u32(); // body length (already in total)
  const serial = reader.u32();
  const fieldsLength = reader.u32();
  const fieldsEnd = reader.pos + fieldsLength;
  const message: DbusMessage = { type, flags, serial, signature: '', body: [] };
  while (reader.pos < fieldsEnd) {
    reader.align(8);
    const code = reader.u8();
    const fieldSignature = reader.signature();
    const [fieldType] = parseSignature(fieldSignature);
    const value = reader.value(fieldType);
    switch (code) {
      case FIELD.path: message.path = value as string; break;
      case FIELD.interface: message.interface = value as string; break;
      case FIELD.member: message.member = value as string; break;
      case FIELD.errorName: message.errorName = value as string; break;
      case FIELD.replySerial: message.replySerial = value as number; break;
      case FIELD.destination: message.destination = value as string; break;
      case FIELD.sender: message.sender = value as string; break;
      case FIELD.signature: message.signature = value as string; break;
      default: break; // unknown fields are ignored, as the specification asks
    }
  }
  reader.align(8);
  message.body = parseSignature(message.signature).map((node) => reader.value(node));
  return message;
}
