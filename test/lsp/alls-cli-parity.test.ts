// The CLI and the editor agree (issue 10: with a .har beside a script, VS Code reported an unknown
// layer that `hailo-tools check` did not). The same scripts go through the bundled CLI
// (bin/hailo-tools.js check --json, a child process) and the bundled language server (dist/server.js
// over JSON-RPC, publishDiagnostics); every diagnostic — range, severity, code, message — must be
// equal. Cases: a HAR beside the script, none, an explicit HAR (`--har` vs `hailo.model.har`), and a
// HAR beside the script that is not a HAR (both check without it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startTestServer, type TestServer } from '../helpers/lsp';
import { repoRoot } from '../helpers/shared';

const FIX = join(repoRoot, 'test', 'fixtures', 'har');
const SEVERITY = ['', 'error', 'warning', 'info', 'hint'];

/** Known layers (conv1), an unknown one with a near miss (conv9), a glob matching nothing, and rules that need no model. */
const SCRIPT = [
  'normalization1 = normalization([0.0, 0.0, 0.0], [255.0, 255.0, 255.0])',
  'quantization_param(conv1, precision_mode=a16_w16)',
  'quantization_param(conv9, precision_mode=a8_w8)',
  'compilation_param({dense*}, number_of_subclusters=2)',
  'performance_param(fsp=30)',
  '',
].join('\n');

let server: TestServer;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'alls-parity-'));
  for (const sub of ['beside', 'none', 'explicit', 'broken']) mkdirSync(join(dir, sub));
  // A HAR (and its ONNX) beside the script, found by name prefix as in the editor.
  copyFileSync(join(FIX, 'tinycnn_hailo_model.har'), join(dir, 'beside', 'tinycnn_hailo_model.har'));
  copyFileSync(join(FIX, 'tinycnn.onnx'), join(dir, 'beside', 'tinycnn.onnx'));
  writeFileSync(join(dir, 'beside', 'tinycnn.alls'), SCRIPT);
  writeFileSync(join(dir, 'none', 'tinycnn.alls'), SCRIPT);
  writeFileSync(join(dir, 'explicit', 'script.alls'), SCRIPT);
  writeFileSync(join(dir, 'broken', 'tinycnn.alls'), SCRIPT);
  writeFileSync(join(dir, 'broken', 'tinycnn.har'), 'not a tar archive');
  server = await startTestServer({ folders: [dir, FIX] }); // the explicit model lies in FIX: inside the opened folders
});

after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Flat {
  range: string;
  severity: string;
  code: string;
  message: string;
}

function cli(args: string[]): {
  files: {
    path: string;
    diagnostics: { line: number; column: number; endLine: number; endColumn: number; severity: string; code: string; message: string }[];
    model?: unknown;
  }[];
  stderr: string;
} {
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'check', '--json', ...args], { encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, `hailo-tools check exited ${r.status}: ${r.stderr}`);
  return { ...JSON.parse(r.stdout), stderr: r.stderr };
}

function fromCli(d: { line: number; column: number; endLine: number; endColumn: number; severity: string; code: string; message: string }): Flat {
  return { range: `${d.line - 1}:${d.column - 1}-${d.endLine - 1}:${d.endColumn - 1}`, severity: d.severity, code: d.code, message: d.message };
}

const sorted = (xs: Flat[]) => [...xs].sort((a, b) => (a.range < b.range ? -1 : a.range > b.range ? 1 : 0));

test('parity: a .har beside the script — the CLI reports the same unknown layers as the editor', async () => {
  const path = join(dir, 'beside', 'tinycnn.alls');
  const c = cli([path]);
  const lsp = await fromLspOnce(path);
  const cliDiags = sorted(c.files[0].diagnostics.map(fromCli));
  assert.deepEqual(cliDiags, lsp);
  // The model was really used by both: conv9 is unknown (conv1 is not), the glob matches nothing.
  assert.deepEqual(
    cliDiags.filter((d) => d.code === 'alls/unknown-layer').map((d) => d.range),
    ['2:19-2:24'],
  );
  assert.ok(cliDiags.some((d) => d.code === 'alls/glob-no-match'));
  assert.deepEqual(c.files[0].model, {
    har: join(dir, 'beside', 'tinycnn_hailo_model.har'),
    onnx: join(dir, 'beside', 'tinycnn.onnx'),
    network: 'tinycnn',
    layers: 15,
  });
});

test('parity: no .har — neither reports layer problems, and both agree on the rest', async () => {
  const path = join(dir, 'none', 'tinycnn.alls');
  const c = cli([path]);
  const lsp = await fromLspOnce(path);
  assert.deepEqual(sorted(c.files[0].diagnostics.map(fromCli)), lsp);
  assert.ok(!lsp.some((d) => d.code === 'alls/unknown-layer'));
  assert.ok(
    lsp.some((d) => d.code === 'alls/unknown-kwarg'),
    'the model-free rules still run',
  );
  assert.equal(c.files[0].model, undefined);
});

test('parity: an explicit model — `--har/--onnx` on the CLI equals `hailo.model.har/onnx` in the editor', async () => {
  const path = join(dir, 'explicit', 'script.alls');
  const har = join(FIX, 'tinycnn_hailo_model.har');
  const onnx = join(FIX, 'tinycnn.onnx');
  const c = cli(['--har', har, '--onnx', onnx, path]);
  const lsp = await fromLspOnce(path, { model: { har, onnx } });
  const cliDiags = sorted(c.files[0].diagnostics.map(fromCli));
  assert.deepEqual(cliDiags, lsp);
  assert.ok(cliDiags.some((d) => d.code === 'alls/unknown-layer'));
  // Without --har the script has no model (nothing beside it): the layer check is gone.
  assert.ok(!cli([path]).files[0].diagnostics.some((d) => d.code === 'alls/unknown-layer'));
});

test('parity: a broken .har beside the script — both check without it; the CLI says why on stderr', async () => {
  const path = join(dir, 'broken', 'tinycnn.alls');
  const c = cli([path]);
  const lsp = await fromLspOnce(path);
  assert.deepEqual(sorted(c.files[0].diagnostics.map(fromCli)), lsp);
  assert.ok(!lsp.some((d) => d.code === 'alls/unknown-layer'));
  assert.match(c.stderr, /note: .*tinycnn\.har.*checked without it/);
});

/** Each path is opened once (a fresh URI per test keeps the server's caches honest). */
async function fromLspOnce(path: string, settings: Record<string, unknown> = {}): Promise<Flat[]> {
  server.settings = settings;
  const uri = pathToFileURL(path).href;
  const next = server.nextDiagnostics(uri, 1);
  server.open(uri, 'alls', SCRIPT, 1);
  const p = await next;
  return sorted(
    p.diagnostics.map((d) => ({
      range: `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`,
      severity: SEVERITY[d.severity!],
      code: String(d.code),
      message: d.message,
    })),
  );
}
