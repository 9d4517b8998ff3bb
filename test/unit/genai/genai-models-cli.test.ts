// `hailo-tools genai`: a folder's GenAI HEFs as HailoRT would take them, next to what hailo-ollama can
// pull. hailo-ollama is stood in for by a server on loopback answering its two list routes the way
// public clients read them (GET /hailo/v1/list → {"models": [names or {name}]}, GET /api/tags →
// {"models": [{name}]}); the HEFs are the GenAI fixtures, classified by HailoRT's server rules.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { hailoOllamaModels, loopbackUrl } from '../../../server/src/processes/genai/ollama';
import { writeGenAiHefs } from '../../helpers/genaiFixtures';
import { repoRoot } from '../../helpers/shared';

let dir: string;
let server: Server;
let url: string;
const asked: string[] = [];
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'genai-models-'));
  await writeGenAiHefs(dir);
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.setHeader('content-type', 'application/json');
    if (req.url === '/hailo/v1/list') res.end(JSON.stringify({ models: ['qwen2:1.5b', { name: 'qwen3:1.7b' }, 'whisper-base:latest'] }));
    else if (req.url === '/api/tags') res.end(JSON.stringify({ models: [{ name: 'qwen2:1.5b', size: 1640000000 }] }));
    else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'genai', ...args], { cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

test('genai --json: each GenAI HEF with its kind, and what hailo-ollama can pull and has pulled', async () => {
  const r = await cli(['--json', '--ollama', url, dir]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  const kinds = Object.fromEntries(
    doc.hefs.map((h: { path: string; kind: string | null; confidence: string }) => [basename(h.path), `${h.kind}/${h.confidence}`]),
  );
  assert.equal(kinds['qwen2-llm.hef'], 'llm/certain');
  assert.equal(kinds['qwen2vl-vlm.hef'], 'vlm/certain');
  assert.equal(kinds['whisper-base.hef'], 'speech/certain');
  assert.equal(kinds['whisper-no-config.hef'], 'speech/likely');
  assert.equal(kinds['llm-no-config.hef'], 'llm/likely');
  assert.equal(kinds['classifier.hef'], 'null/unlikely');
  assert.deepEqual(doc.ollama.pullable, ['qwen2:1.5b', 'qwen3:1.7b', 'whisper-base:latest']);
  assert.deepEqual(doc.ollama.installed, ['qwen2:1.5b']);
  assert.equal(doc.ollama.problem, undefined);
  assert.deepEqual(asked.sort(), ['/api/tags', '/hailo/v1/list']);
});

test('genai: the text names each kind and the pullable models; hailo-ollama not running is one line, not a failure', async () => {
  const r = await cli(['--ollama', url, dir]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^ {2}speech {1}certain {2}.*whisper-base\.hef$/m);
  assert.match(
    r.stdout,
    /hailo-ollama at http:\/\/127\.0\.0\.1:\d+ can pull 3 models: qwen2:1\.5b, qwen3:1\.7b, whisper-base:latest\n {2}pulled: qwen2:1\.5b\n/,
  );
  const closed = mkdtempSync(join(tmpdir(), 'genai-none-'));
  try {
    const srv = createServer();
    await new Promise<void>((res) => srv.listen(0, '127.0.0.1', res));
    const port = (srv.address() as AddressInfo).port;
    await new Promise<void>((res) => srv.close(() => res()));
    const none = await cli(['--ollama', `http://127.0.0.1:${port}`, closed]);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /^GenAI HEFs under .*: none\n/);
    assert.match(
      none.stdout,
      /hailo-ollama: hailo-ollama did not answer at http:\/\/127\.0\.0\.1:\d+: nothing listens there \(start it with `hailo-ollama`, or its service\)/,
    );
  } finally {
    rmSync(closed, { recursive: true, force: true });
  }
});

test('genai: hailo-ollama is asked on this machine only — another host is refused before any request', async () => {
  for (const bad of ['http://192.0.2.1:8000', 'http://example.com:8000', 'https://127.0.0.1:8000', 'file:///etc/passwd', 'not a url']) {
    const m = await hailoOllamaModels(bad);
    assert.equal(m.reachable, false, bad);
    assert.match(m.problem ?? '', /loopback only|only http:\/\/ on this machine|is not a URL/, bad);
  }
  assert.ok(loopbackUrl('http://localhost:8000') instanceof URL);
  assert.ok(loopbackUrl('http://[::1]:8000') instanceof URL);
});
