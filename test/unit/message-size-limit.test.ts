import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineSizeLimiter, oversizedError, requestId } from '../../src/mcp/messageSizeLimit.js';

describe('incoming message size limit', () => {
  it('should pass lines within the limit whole, however the chunks split them', () => {
    const limiter = new LineSizeLimiter(64);
    const first = limiter.push(Buffer.from('{"a":1}\n{"b":'));
    const second = limiter.push(Buffer.from('2}\n'));
    assert.deepEqual([...first.lines, ...second.lines].map(String), ['{"a":1}\n', '{"b":2}\n']);
    assert.deepEqual([...first.oversized, ...second.oversized], []);
  });

  it('should drop an oversized line as it streams, report its id and size, and go on with the next line', () => {
    const limiter = new LineSizeLimiter(64);
    const big = `{"method":"tools/call","params":{"text":"${'x'.repeat(500)}"},"jsonrpc":"2.0","id":42}`;
    const parts = [big.slice(0, 100), big.slice(100, 300), `${big.slice(300)}\n{"ok":true}\n`].map((part) => Buffer.from(part));
    const results = parts.map((part) => limiter.push(part));
    assert.deepEqual(results.flatMap((result) => result.lines).map(String), ['{"ok":true}\n']);
    assert.deepEqual(results.flatMap((result) => result.oversized), [{ id: 42, bytes: big.length + 1 }]);
  });

  it('should read the top-level id at the start or the end of the line, never one inside the arguments', () => {
    assert.equal(requestId(Buffer.from('{"jsonrpc":"2.0","id":"a\\"b","method":"x"')), 'a"b');
    assert.equal(requestId(Buffer.from('{"id": -7,')), -7);
    assert.equal(requestId(Buffer.from('{"method":"tools/call","params":{"arguments":{"id":1,'), Buffer.from('xxxx"}},"jsonrpc":"2.0","id":12}\n')), 12);
    assert.equal(requestId(Buffer.from('{"method":"tools/call","params":{"arguments":{"id":1,'), Buffer.from('xxxx"}}}')), null);
    assert.equal(requestId(Buffer.from('{"jsonrpc":"2.0","method":"notifications/cancelled"')), null);
  });

  it('should answer an oversized request with an error that names the limit, and a notification with nothing', () => {
    const answer = oversizedError({ id: 3, bytes: 2 * 1024 * 1024 });
    assert.equal(answer?.id, 3);
    assert.equal(answer?.error.code, -32600);
    assert.match(answer?.error.message ?? '', /Request too large \(2\.0 MiB\): Tandem takes at most 1\.0 MiB per message/);
    assert.equal(oversizedError({ id: null, bytes: 10 }), null);
  });
});
