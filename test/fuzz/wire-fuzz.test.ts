// Issue 18's fuzz cases for the two byte streams the first round's suite did not reach: the
// language server's stdin (lsp/stdioReader.ts) and the `hailo` task terminal (TerminalStreamEscaper).
//
// The wire: seeded streams of LSP frames, good and malformed (negative, non-numeric, missing or
// 16-digit Content-Length, a length shorter or longer than the body, a header line without a colon,
// headers and bodies over their caps, non-JSON and non-JSON-RPC bodies, random bytes), cut into random
// chunks. The reader must give the same answer as a reference reading of the whole stream at once,
// written here from the base protocol (`Content-Length: N\r\n…\r\n\r\n` then N bytes) and the rules
// stdioReader.ts documents: every delimited frame is a message or a JSON-RPC error, a frame that
// cannot be delimited ends the connection — so the reader is never deaf: after any stream it has
// either closed, or is waiting for the rest of a frame it could delimit, or reads the next good frame.
//
// The terminal: random mixes of printable text, SGR colours, every C0/C1 control, OSC/CSI/DCS
// sequences and bidi marks, in random chunks: nothing but \n, \r, \t and SGR may reach the terminal
// raw, and the visible text is the same however the stream is cut.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Message } from 'vscode-languageserver/node';
import { SafeStdioReader } from '../../server/src/lsp/stdioReader';
import { TerminalStreamEscaper } from '../../server/src/core/common/escape';
import { prng } from '../../server/src/core/common/prng';

const LONG = process.env.HAILO_FUZZ_LONG === '1';
const CASES = LONG ? 20_000 : 800;
const SEED = Number(process.env.HAILO_FUZZ_SEED ?? 0x18_f022);
/** Small caps so that random streams reach them. */
const CAPS = { headerBytes: 256, bodyBytes: 2048 };
const CASE_MS = 2000;

type Rnd = () => number;
const int = (rnd: Rnd, n: number) => Math.floor(rnd() * n);
const pick = <T>(rnd: Rnd, xs: readonly T[]): T => xs[int(rnd, xs.length)];

type WireEvent = { message: string } | { bad: number } | { fatal: true } | { pending: 'header' | 'body' };

/** The whole stream read at once, from the protocol: what a correct reader reports, in order. */
function reference(bytes: Buffer): WireEvent[] {
  const events: WireEvent[] = [];
  const fatal = () => (events.push({ fatal: true }), events);
  let pos = 0;
  while (pos < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', pos, 'latin1');
    if (end < 0) {
      // No end yet: refused once the header is surely longer than the cap (its end could still start in the last 3 bytes).
      if (bytes.length - pos > CAPS.headerBytes + 3) return fatal();
      events.push({ pending: 'header' });
      return events;
    }
    if (end - pos > CAPS.headerBytes) return fatal();
    let length: number | undefined;
    for (const line of bytes.subarray(pos, end).toString('latin1').split('\r\n')) {
      const m = /^([^:]+):(.*)$/s.exec(line);
      if (!m || !m[1].trim().length || line.indexOf(':') === 0) return fatal();
      if (m[1].trim().toLowerCase() !== 'content-length') continue;
      const value = m[2].trim();
      if (!/^[0-9]+$/.test(value) || value.length > 15) return fatal();
      length = Number(value);
    }
    if (length === undefined || length > CAPS.bodyBytes) return fatal();
    const bodyStart = end + 4;
    if (bodyStart + length > bytes.length) {
      events.push({ pending: 'body' });
      return events;
    }
    const body = bytes.subarray(bodyStart, bodyStart + length).toString('utf8');
    pos = bodyStart + length;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      events.push({ bad: -32700 });
      continue;
    }
    const rpc = parsed && typeof parsed === 'object' && !Array.isArray(parsed) && (parsed as { jsonrpc?: unknown }).jsonrpc === '2.0';
    events.push(rpc ? { message: JSON.stringify(parsed) } : { bad: -32600 });
  }
  return events;
}

/** The reader under test, fed `chunks` one by one; its state at the end stands for "pending". */
function throughReader(chunks: Buffer[]): WireEvent[] {
  const events: WireEvent[] = [];
  const stdin = new EventEmitter();
  const reader = new SafeStdioReader(
    stdin as unknown as NodeJS.ReadableStream,
    { onBadMessage: (code) => void events.push({ bad: code }), onFatal: () => void events.push({ fatal: true }), log: () => {} },
    CAPS,
  );
  reader.listen((m: Message) => void events.push({ message: JSON.stringify(m) }));
  for (const c of chunks) stdin.emit('data', c);
  const state = reader as unknown as { failed: boolean; body?: unknown; header: Buffer };
  if (!state.failed && state.body) events.push({ pending: 'body' });
  else if (!state.failed && state.header.length) events.push({ pending: 'header' });
  return events;
}

const frame = (body: string | Buffer, length = Buffer.byteLength(body), extra = '') =>
  Buffer.concat([Buffer.from(`${extra}Content-Length: ${length}\r\n\r\n`, 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body)]);

function randomBytes(rnd: Rnd, n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = rnd() < 0.2 ? pick(rnd, [13, 10, 58, 48, 45]) : int(rnd, 256);
  return b;
}

/** One piece of a hostile stream: mostly frames, each with at most one thing wrong. */
function piece(rnd: Rnd, id: number): Buffer {
  const good = JSON.stringify({ jsonrpc: '2.0', id, method: 'ping', params: { s: 'é\u202e' } });
  switch (int(rnd, 16)) {
    case 0:
    case 1:
    case 2:
      return frame(good);
    case 3:
      return frame(good, undefined, 'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n');
    case 4:
      return Buffer.from(`content-length:   ${Buffer.byteLength(good)}  \r\n\r\n${good}`);
    case 5:
      return frame(good, pick(rnd, [-1, -Buffer.byteLength(good)]));
    case 6:
      return Buffer.from(`Content-Length: ${pick(rnd, ['abc', '1e3', '0x10', '', ' ', '12.5', '9999999999999999', '+5'])}\r\n\r\n${good}`);
    case 7:
      return Buffer.from(`Content-Type: text/plain\r\n\r\n${good}`);
    case 8:
      return frame(good, Math.max(0, Buffer.byteLength(good) - 1 - int(rnd, 20))); // shorter than the body
    case 9:
      return frame(good, Buffer.byteLength(good) + 1 + int(rnd, 200)); // longer: eats what follows
    case 10:
      return frame('x'.repeat(10), CAPS.bodyBytes + 1 + int(rnd, 1e9));
    case 11:
      return frame(pick(rnd, ['{', 'null', '[]', '"s"', '{"jsonrpc":"1.0","id":1}', '\uFFFD', '']));
    case 12:
      return Buffer.from(`X-${'h'.repeat(int(rnd, 2 * CAPS.headerBytes))}: 1\r\nContent-Length: 2\r\n\r\n{}`);
    case 13:
      return Buffer.from(pick(rnd, ['no colon here\r\n\r\n', '\r\n\r\n', ': 5\r\n\r\n', 'Content-Length: 2\r\n\r\n']));
    case 14:
      return randomBytes(rnd, 1 + int(rnd, 64));
    default:
      return frame(Buffer.from(good).subarray(0, int(rnd, good.length))); // a cut JSON body
  }
}

function chunked(rnd: Rnd, bytes: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length;) {
    const n = rnd() < 0.3 ? 1 + int(rnd, 4) : 1 + int(rnd, 400);
    chunks.push(bytes.subarray(i, i + n));
    i += n;
  }
  return chunks;
}

test('LSP stdin: any stream of good and malformed frames, cut anywhere, gets the answer of a reading of the whole stream — never deaf', () => {
  const rnd = prng(SEED);
  let fatal = 0;
  let bad = 0;
  for (let i = 0; i < CASES; i++) {
    const pieces: Buffer[] = [];
    const n = 1 + int(rnd, 6);
    for (let k = 0; k < n; k++) pieces.push(piece(rnd, k));
    // Always end on a good frame: a reader that is neither closed nor inside a frame must deliver it.
    pieces.push(frame(JSON.stringify({ jsonrpc: '2.0', id: 'last', method: 'ping' })));
    const bytes = Buffer.concat(pieces);
    const want = reference(bytes);
    const t0 = performance.now();
    const got = throughReader(chunked(rnd, bytes));
    const ms = performance.now() - t0;
    assert.deepEqual(got, want, `case ${i} (seed ${SEED}): ${JSON.stringify(bytes.toString('latin1'))}`);
    assert.ok(ms < CASE_MS, `case ${i} took ${ms} ms`);
    const last = want[want.length - 1];
    const deaf = !('fatal' in last) && !('pending' in last) && !('message' in last && last.message.includes('"last"'));
    assert.ok(!deaf, `case ${i}: the last good frame was neither read nor shadowed by an open frame`);
    if ('fatal' in last) fatal++;
    if (want.some((e) => 'bad' in e)) bad++;
  }
  // The generator reaches both outcomes often (a fuzz that never closes the connection tests little).
  assert.ok(fatal > CASES / 10 && bad > CASES / 10, `fatal ${fatal}, bad ${bad} of ${CASES}`);
});

test('LSP stdin: a header of one byte short of the cap plus its end, cut before the end, is still read', () => {
  // The case a chunk-by-chunk cap check gets wrong: the terminator straddles two chunks at the cap.
  const body = '{"jsonrpc":"2.0","id":1,"method":"m"}';
  const head = `Content-Length: ${body.length}\r\nX-Pad: ${'p'.repeat(CAPS.headerBytes - 29)}`;
  const bytes = Buffer.from(`${head}\r\n\r\n${body}`);
  const end = bytes.indexOf('\r\n\r\n');
  assert.ok(end <= CAPS.headerBytes && end + 3 > CAPS.headerBytes, `end ${end}`);
  for (let cut = end; cut <= end + 4; cut++) {
    assert.deepEqual(throughReader([bytes.subarray(0, cut), bytes.subarray(cut)]), reference(bytes), `cut at ${cut}`);
  }
  assert.ok('message' in reference(bytes)[0]);
});

/** Raw on a terminal only: newline, carriage return, tab and the ESC of an SGR colour. */
const UNSAFE = /\x1b(?!\[[0-9;]*m)|[\u0000-\u0008\u000b\u000c\u000e-\u001a\u001c-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function terminalPiece(rnd: Rnd): string {
  switch (int(rnd, 8)) {
    case 0:
      return 'epoch 3/4 loss 0.25 ██▌ ';
    case 1:
      return `\x1b[${pick(rnd, ['0', '1;31', '32', '38;5;208', ''])}m`;
    case 2:
      return String.fromCharCode(int(rnd, 0x20));
    case 3:
      return String.fromCharCode(0x7f + int(rnd, 0x21));
    case 4:
      return pick(rnd, ['\x1b]52;c;cHduZWQ=\x07', '\x1b]0;title\x1b\\', '\x1b[2J', '\x1b[?1049h', '\x1bP1;2q\x1b\\', '\x1b[', '\x1b', '\x1b[31', '\x1b[1;']);
    case 5:
      return pick(rnd, ['\u202e', '\u2066', '\u200f', '\u2028', '\u2029']);
    case 6:
      return pick(rnd, ['\n', '\r', '\r\n', '\t']);
    default:
      return 'Käse 名前 🙂';
  }
}

test('task terminal: no control character but \\n, \\r, \\t and SGR passes raw, and the output does not depend on the chunking', () => {
  const rnd = prng(SEED ^ 0x7e);
  for (let i = 0; i < CASES; i++) {
    let text = '';
    for (let k = 0, n = 1 + int(rnd, 30); k < n; k++) text += terminalPiece(rnd);
    const run = (cuts: number[]) => {
      const e = new TerminalStreamEscaper();
      let out = '';
      let at = 0;
      for (const c of [...cuts, text.length]) {
        out += e.push(text.slice(at, c));
        at = c;
      }
      return out + e.flush();
    };
    const whole = run([]);
    const cuts = [...new Set(Array.from({ length: int(rnd, 8) }, () => int(rnd, text.length + 1)))].sort((a, b) => a - b);
    assert.equal(UNSAFE.exec(whole), null, `case ${i}: ${JSON.stringify(text)} → ${JSON.stringify(whole)}`);
    assert.equal(run(cuts), whole, `case ${i} cut at ${cuts.join(',')}: ${JSON.stringify(text)}`);
  }
});
