import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DbusCallError, DbusClient, parseUnixAddresses } from '../../native/linux/dbusClient.js';
import { MESSAGE_TYPE, decodeMessage, encodeMessage, messageLength, type DbusMessage } from '../../native/linux/dbusWire.js';

type Answer = (call: DbusMessage, reply: (message: Omit<Parameters<typeof encodeMessage>[0], 'serial' | 'replySerial'>) => void) => void;

/** A bus that speaks just enough D-Bus: EXTERNAL auth, Hello, then `answer` for every call. */
async function fakeBus(answer: Answer, options: { dribble?: boolean } = {}): Promise<{ address: string; sockets: net.Socket[]; close: () => void; send: (message: Parameters<typeof encodeMessage>[0]) => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-dbus-'));
  const path = join(dir, 'bus');
  const sockets: net.Socket[] = [];
  let serial = 100;
  const server = net.createServer((socket) => {
    sockets.push(socket);
    let authed = false;
    let data = Buffer.alloc(0);
    const write = (bytes: Buffer): void => {
      if (!options.dribble) return void socket.write(bytes);
      for (const byte of bytes) socket.write(Buffer.from([byte]));
    };
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      if (!authed) {
        const text = data.toString('latin1');
        if (!text.includes('BEGIN\r\n')) {
          if (text.includes('AUTH EXTERNAL') && !text.includes('OK-SENT')) {
            socket.write('OK 0123456789abcdef0123456789abcdef\r\n');
            data = Buffer.concat([data, Buffer.from('OK-SENT')]);
          }
          return;
        }
        authed = true;
        data = data.subarray(text.indexOf('BEGIN\r\n') + 7);
      }
      for (;;) {
        const length = messageLength(data);
        if (length === null || data.length < length) break;
        const call = decodeMessage(data);
        data = data.subarray(length);
        const reply: Parameters<Answer>[1] = (message) => write(encodeMessage({ ...message, serial: ++serial, replySerial: call.serial }));
        if (call.member === 'Hello') reply({ type: MESSAGE_TYPE.methodReturn, signature: 's', body: [':1.42'] });
        else answer(call, reply);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    address: `unix:path=${path},guid=0123`,
    sockets,
    send: (message) => sockets.forEach((socket) => socket.write(encodeMessage(message))),
    close: () => {
      sockets.forEach((socket) => socket.destroy());
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const soon = (ms = 5_000): { deadline: number } => ({ deadline: Date.now() + ms });

test('should read path and abstract socket addresses, skipping other transports', () => {
  assert.deepEqual(parseUnixAddresses('tcp:host=x,port=1;unix:path=/run/user/1000/at-spi/bus_0,guid=ab'), [{ path: '/run/user/1000/at-spi/bus_0', label: '/run/user/1000/at-spi/bus_0' }]);
  assert.deepEqual(parseUnixAddresses('unix:abstract=/tmp/dbus-x%2Cy,guid=1'), [{ path: '\0/tmp/dbus-x,y', label: '@/tmp/dbus-x,y' }]);
  assert.deepEqual(parseUnixAddresses('tcp:host=localhost'), []);
});

test('should authenticate, say Hello and answer calls with their reply bodies', async () => {
  const bus = await fakeBus((call, reply) => reply({ type: MESSAGE_TYPE.methodReturn, signature: 's', body: [`${call.member} on ${call.path}`] }));
  const client = await DbusClient.connect(bus.address, 2_000);
  try {
    assert.equal(client.uniqueName, ':1.42');
    const replies = await Promise.all(Array.from({ length: 300 }, (_, i) => client.call({ destination: ':1.5', path: `/n/${i}`, member: 'GetRole' }, soon())));
    assert.deepEqual(replies.map((reply) => reply.body[0]), Array.from({ length: 300 }, (_, i) => `GetRole on /n/${i}`));
    assert.equal(client.pendingCalls, 0);
  } finally {
    client.close();
    bus.close();
  }
});

test('should reject a call with the error name and text of an error reply', async () => {
  const bus = await fakeBus((_call, reply) => reply({ type: MESSAGE_TYPE.error, errorName: 'org.freedesktop.DBus.Error.UnknownObject', signature: 's', body: ['no such object'] }));
  const client = await DbusClient.connect(bus.address, 2_000);
  try {
    const error = await client.call({ path: '/gone', member: 'GetState' }, soon()).catch((reason: unknown) => reason);
    assert.ok(error instanceof DbusCallError);
    assert.equal(error.type, 'org.freedesktop.DBus.Error.UnknownObject');
    assert.equal(error.text, 'no such object');
  } finally {
    client.close();
    bus.close();
  }
});

test('should give up on a frozen peer at the deadline and forget the call', async () => {
  const bus = await fakeBus(() => {});
  const client = await DbusClient.connect(bus.address, 2_000);
  try {
    const started = Date.now();
    const errors = await Promise.all([1, 2, 3].map(() => client.call({ path: '/frozen', member: 'GetItems' }, { deadline: started + 80 }).catch((reason: unknown) => reason)));
    for (const error of errors) assert.equal((error as DbusCallError).type, 'org.freedesktop.DBus.Error.NoReply');
    assert.ok(Date.now() - started >= 75, 'not before the deadline');
    assert.equal(client.pendingCalls, 0);
  } finally {
    client.close();
    bus.close();
  }
});

test('should stop waiting at once when the caller aborts, with the abort reason', async () => {
  const bus = await fakeBus(() => {});
  const client = await DbusClient.connect(bus.address, 2_000);
  try {
    const controller = new AbortController();
    const pending = client.call({ path: '/x', member: 'DoAction' }, { deadline: Date.now() + 60_000, signal: controller.signal });
    const reason = new Error('Esc pressed');
    controller.abort(reason);
    await assert.rejects(pending, (error) => error === reason);
    assert.equal(client.pendingCalls, 0);
    await assert.rejects(client.call({ path: '/x', member: 'DoAction' }, { deadline: Date.now() + 60_000, signal: controller.signal }), (error) => error === reason);
  } finally {
    client.close();
    bus.close();
  }
});

test('should fail pending and later calls as Disconnected when the bus goes away', async () => {
  const bus = await fakeBus(() => {});
  const client = await DbusClient.connect(bus.address, 2_000);
  let closedWith: Error | null = null;
  client.onClose((reason) => (closedWith = reason));
  const pending = client.call({ path: '/x', member: 'GetChildren' }, soon());
  bus.close();
  await assert.rejects(pending, (error) => (error as DbusCallError).type === 'org.freedesktop.DBus.Error.Disconnected');
  await assert.rejects(client.call({ path: '/x', member: 'GetChildren' }, soon()), (error) => (error as DbusCallError).type === 'org.freedesktop.DBus.Error.Disconnected');
  assert.ok(closedWith, 'close listeners are told');
});

test('should reassemble replies that arrive a byte at a time, and pass signals to listeners', async () => {
  const bus = await fakeBus((_call, reply) => reply({ type: MESSAGE_TYPE.methodReturn, signature: 'a(so)', body: [[[':1.5', '/a'], [':1.5', '/b']]] }), { dribble: true });
  const client = await DbusClient.connect(bus.address, 2_000);
  try {
    const signals: DbusMessage[] = [];
    client.onSignal((message) => signals.push(message));
    const reply = await client.call({ path: '/root', member: 'GetChildren' }, soon());
    assert.deepEqual(reply.body, [[[':1.5', '/a'], [':1.5', '/b']]]);
    bus.send({ type: MESSAGE_TYPE.signal, serial: 1, path: '/a', interface: 'org.a11y.atspi.Event.Object', member: 'StateChanged', signature: 'siiv', body: ['focused', 1, 0, new (await import('../../native/linux/dbusWire.js')).DbusVariant('i', 0)] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(signals.length, 1);
    assert.equal(signals[0].member, 'StateChanged');
    assert.equal(signals[0].body[0], 'focused');
  } finally {
    client.close();
    bus.close();
  }
});

test('should refuse to connect with a clear reason when nobody listens', async () => {
  await assert.rejects(DbusClient.connect('unix:path=/nonexistent/tandem-bus', 500), /nonexistent\/tandem-bus/);
  await assert.rejects(DbusClient.connect('tcp:host=localhost,port=1', 500), /no unix:path/);
});
