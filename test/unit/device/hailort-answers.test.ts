// Issue 29: every buffer the device worker sizes by an answer of HailoRT (through the shim's
// size-then-copy exports: a resource, a saved context, a JSON answer, a generated chunk, a token
// count) is bounded by LIMITS before it is allocated, with one sentence — not by Node's own buffer
// limit. The shim's exports are stood in for by functions that keep their contract (native/
// hailo_shim.cpp answer_text and hts_resource: called with no room they answer the size; with room
// they copy) but answer one more than each bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bridge } from '../../../server/src/processes/device/worker/bridge';
import { HailortSession } from '../../../server/src/processes/device/worker/hailortSession';
import { failure } from '../../../server/src/processes/device/worker/chat';
import { LimitError, LIMITS } from '../../../server/src/core/common/limits';

const BLOB = LIMITS.hailortBlobBytes.value + 1;
const TEXT = LIMITS.hailortAnswerBytes.value + 1;
const TOKENS = LIMITS.hailortTokens.value + 1;

/** A Bridge over stand-in exports (no library loaded) that answer sizes one past each bound. */
function absurdBridge(): { bridge: Bridge; allocated: () => number } {
  let copies = 0;
  // counts every call handed a buffer of the answered size (one made by the answer)
  const sizeThenCopy =
    (size: number) =>
    (_h: number, ...rest: unknown[]): number => {
      if (rest.some((x) => (Buffer.isBuffer(x) || x instanceof Int32Array) && x.length >= size)) copies++;
      return size;
    };
  const bridge = Object.create(Bridge.prototype) as Bridge;
  Object.assign(bridge, {
    jsonBuffer: Buffer.alloc(64 << 10),
    textBuffer: Buffer.alloc(16 << 10),
    fn: {
      lastStatus: () => 0,
      lastStatusName: () => '',
      lastError: () => '',
      scanJson: (buf: Buffer) => sizeThenCopy(TEXT)(0, buf),
      modelJson: sizeThenCopy(TEXT),
      resource: sizeThenCopy(BLOB),
      genaiSave: sizeThenCopy(BLOB),
      genaiInfo: sizeThenCopy(TEXT),
      genaiHealth: sizeThenCopy(TEXT),
      speechResult: sizeThenCopy(TEXT),
      genaiTokenize: sizeThenCopy(TOKENS),
      genaiRead: sizeThenCopy(TEXT),
    },
  });
  return { bridge, allocated: () => copies };
}

const sentence = (what: string, n: number, limit: string, onHit: string) =>
  `HailoRT's answer for ${what} has ${n.toLocaleString('en-US')} ${what === 'the token count' ? 'items' : 'bytes'}, over the limit of ${limit}: ${onHit}.`;

test('bridge: every size HailoRT answers is bounded before it is allocated (resource, saved context, JSON answers, a generated chunk, a token count) — one sentence, nothing copied', () => {
  const { bridge, allocated } = absurdBridge();
  const cases: [string, () => unknown, string][] = [
    ["the resource 'tokenizer'", () => bridge.resource(1, 'tokenizer'), sentence("the resource 'tokenizer'", BLOB, '256 MiB', LIMITS.hailortBlobBytes.onHit)],
    ['the saved context', () => bridge.genaiSave(1), sentence('the saved context', BLOB, '256 MiB', LIMITS.hailortBlobBytes.onHit)],
    ['the device scan', () => bridge.scan(), sentence('the device scan', TEXT, '16 MiB', LIMITS.hailortAnswerBytes.onHit)],
    ["the model's streams", () => bridge.model(1), sentence("the model's streams", TEXT, '16 MiB', LIMITS.hailortAnswerBytes.onHit)],
    ["the model's info", () => bridge.genaiInfo(1), sentence("the model's info", TEXT, '16 MiB', LIMITS.hailortAnswerBytes.onHit)],
    ['device health', () => bridge.genaiHealth(1), sentence('device health', TEXT, '16 MiB', LIMITS.hailortAnswerBytes.onHit)],
    ['a generated chunk', () => bridge.genaiTryRead(1, 10), sentence('a generated chunk', TEXT, '16 MiB', LIMITS.hailortAnswerBytes.onHit)],
    ['the token count', () => bridge.genaiTokenize(1, 'hello'), sentence('the token count', TOKENS, '16,777,216 items', LIMITS.hailortTokens.onHit)],
  ];
  for (const [what, call, said] of cases) {
    assert.throws(call, (err: unknown) => err instanceof LimitError && err.message === said, what);
  }
  assert.equal(allocated(), 0, 'a buffer of the answered size was handed to the shim');
  // the worker turns it into the request's DeviceError with that sentence
  try {
    bridge.genaiSave(1);
  } catch (err) {
    assert.equal(failure(err, 'save_context').error.sentence, sentence('the saved context', BLOB, '256 MiB', LIMITS.hailortBlobBytes.onHit));
  }
  const session = new HailortSession(bridge, { hailortVersion: '5.2.0' } as never, { HAILO_TOOLS_SYSFS_ROOT: '/nonexistent-root' });
  assert.throws(
    () => session.scan(),
    (err: unknown) =>
      (err as { error?: { sentence: string } }).error?.sentence === sentence('the device scan', TEXT, '16 MiB', LIMITS.hailortAnswerBytes.onHit),
  );
});

test('bridge: answers within the bounds are copied as before', () => {
  const { bridge } = absurdBridge();
  const fn = (bridge as unknown as { fn: Record<string, unknown> }).fn;
  fn.resource = (_h: number, _n: string, buf: Buffer | null) => (buf ? (buf.write('abc'), 3) : 3);
  fn.genaiTokenize = (_h: number, _t: string, ids: Int32Array | null) => (ids ? (ids.set([7, 8]), 2) : 2);
  assert.equal(Buffer.from(bridge.resource(1, 'x')!).toString(), 'abc');
  assert.deepEqual(bridge.genaiTokenize(1, 'hi'), [7, 8]);
});
