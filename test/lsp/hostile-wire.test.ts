// Issue 18, the LSP wire (`hailo-tools lsp --stdio`): one malformed frame (Content-Length
// negative, not a number, missing, shorter than the body) left the server running and deaf; a
// huge Content-Length was buffered without a cap; an unterminated header cost quadratic CPU
// (32 MiB: 17.8 s); a `file://host/…` URI made two handlers throw with a logged stack trace.
// Now a frame that cannot be delimited ends the connection with one stderr line, a delimited
// frame that is not JSON-RPC gets a JSON-RPC error and the next frame is read, and a host-bearing
// URI is checked as text without touching files. Raw bytes go to the bundled server's stdin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../helpers/shared';
import { startTestServer } from '../helpers/lsp';

const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const request = (id: number, method: string, params: unknown = {}) => frame(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
const INITIALIZE = request(1, 'initialize', { processId: null, rootUri: null, capabilities: {} });

interface Wire {
  child: ChildProcess;
  write(bytes: string | Buffer): void;
  /** Resolves with the first response whose id (or error, for id null) matches. */
  response(
    accept: (m: { id?: unknown; error?: { code: number; message: string }; result?: unknown }) => boolean,
    ms?: number,
  ): Promise<{ id?: unknown; error?: { code: number } }>;
  /** Resolves with the exit code, or 'running' when it is still running after `ms`. */
  exited(ms: number): Promise<number | null | 'running'>;
  stderr(): string;
}

function wire(): Wire {
  const child = spawn(process.execPath, [join(repoRoot, 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = Buffer.alloc(0);
  let err = '';
  const messages: { id?: unknown; error?: { code: number; message: string } }[] = [];
  const waiters: (() => void)[] = [];
  child.stdout!.on('data', (d: Buffer) => {
    out = Buffer.concat([out, d]);
    for (;;) {
      const end = out.indexOf('\r\n\r\n');
      if (end < 0) break;
      const length = Number(/Content-Length: (\d+)/i.exec(out.subarray(0, end).toString())?.[1]);
      if (out.length < end + 4 + length) break;
      messages.push(JSON.parse(out.subarray(end + 4, end + 4 + length).toString()));
      out = out.subarray(end + 4 + length);
    }
    for (const w of waiters.splice(0)) w();
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  child.stdin!.on('error', () => undefined); // the server may close stdin first: that is what is tested
  let code: number | null | undefined;
  const exit = new Promise<number | null>((r) => child.once('exit', (c) => r((code = c))));
  return {
    child,
    write: (b) => child.stdin!.write(b),
    response: (accept, ms = 20_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching response within ${ms} ms; stderr: ${err}`)), ms);
        const look = () => {
          const m = messages.find(accept);
          if (m) {
            clearTimeout(timer);
            resolve(m);
          } else waiters.push(look);
        };
        look();
      }),
    exited: (ms) => (code !== undefined ? Promise.resolve(code) : Promise.race([exit, new Promise<'running'>((r) => setTimeout(() => r('running'), ms))])),
    stderr: () => err,
  };
}

/** Stops a server a test left running (one that stayed deaf: the regression). */
function stop(w: Wire) {
  if (w.child.exitCode === null) w.child.kill('SIGKILL');
}

for (const [name, header] of [
  ['a negative Content-Length', 'Content-Length: -5\r\n\r\n'],
  ['a Content-Length that is not a number', 'Content-Length: abc\r\n\r\n'],
  ['a header without Content-Length', 'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}'],
  ['a header line without a colon', 'Content-Length 12\r\n\r\n'],
  ['a Content-Length of a terabyte', 'Content-Length: 1000000000000\r\n\r\n'],
] as const) {
  test(`lsp wire: ${name} ends the connection with one log line, at once`, async () => {
    const w = wire();
    try {
      w.write(INITIALIZE);
      await w.response((m) => m.id === 1);
      w.write(header);
      w.write(request(2, 'shutdown'));
      const code = await w.exited(10_000);
      assert.notEqual(code, 'running', `the server is still running (deaf) after ${name}; stderr: ${w.stderr()}`);
      assert.equal(code, 1);
      const lines = w.stderr().trim().split('\n');
      assert.equal(lines.length, 1, w.stderr());
      assert.match(lines[0], /^hailo language server: malformed LSP frame on stdin: .*; closing the connection$/);
    } finally {
      stop(w);
    }
  });
}

test('lsp wire: a body that is not JSON gets a parse error (-32700) and the next request is answered', async () => {
  const w = wire();
  try {
    w.write(INITIALIZE);
    await w.response((m) => m.id === 1);
    w.write('Content-Length: 5\r\n\r\nhello');
    const bad = await w.response((m) => m.id === null && m.error?.code === -32700);
    assert.ok(bad.error);
    w.write(frame('[1, 2]'));
    await w.response((m) => m.id === null && m.error?.code === -32600);
    w.write(request(3, 'shutdown'));
    await w.response((m) => m.id === 3);
    assert.equal(w.stderr(), '');
  } finally {
    stop(w);
  }
});

test('lsp wire: a Content-Length shorter than its body is a parse error, then an answer or one closing line — never deaf', async () => {
  const w = wire();
  try {
    w.write(INITIALIZE);
    await w.response((m) => m.id === 1);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'shutdown' });
    w.write(`Content-Length: 10\r\n\r\n${body}`);
    await w.response((m) => m.id === null && m.error?.code === -32700);
    w.write(request(3, 'shutdown'));
    const answered = w
      .response((m) => m.id === 3, 10_000)
      .then(
        () => 'answered',
        () => 'no answer',
      );
    const outcome = await Promise.race([answered, w.exited(10_000).then((c) => (c === 'running' ? 'running' : `exit ${c}`))]);
    assert.ok(outcome === 'answered' || outcome === 'exit 1', `${outcome}; stderr: ${w.stderr()}`);
    if (outcome === 'exit 1') assert.match(w.stderr(), /^hailo language server: malformed LSP frame on stdin: [^\n]*\n$/);
  } finally {
    stop(w);
  }
});

test('lsp wire: an unterminated header of 32 MiB is refused at its cap, at once', async () => {
  const w = wire();
  try {
    w.write(INITIALIZE);
    await w.response((m) => m.id === 1);
    const started = Date.now();
    const piece = Buffer.alloc(64 * 1024, 'a');
    for (let i = 0; i < 512 && w.child.exitCode === null; i++) w.write(piece);
    const code = await w.exited(15_000);
    assert.equal(code, 1, `still ${code}; stderr: ${w.stderr()}`);
    assert.ok(Date.now() - started < 15_000);
    assert.match(w.stderr(), /a header of more than 8,192 bytes without its end/);
  } finally {
    stop(w);
  }
});

test('lsp: a file://host/… URI is checked as text, politely: no handler throws, nothing is read beside it', async () => {
  const server = await startTestServer({});
  try {
    const uri = 'file://fileserver/share/models/model.alls';
    server.open(uri, 'alls', 'normalization1 = normalization([0, 0, 0], [255, 255, 255])\nbogus_command(\n');
    const d = await server.nextDiagnostics(uri);
    assert.ok(d.diagnostics.length > 0, 'still checked as text');
    const hover = await server.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 20 } });
    assert.ok(hover === null || typeof hover === 'object');
  } finally {
    await server.stop(); // fails on any error-level log line (a handler that threw)
  }
});
