// The architecture a script targets is inferred before the setting (issue 11), the same in the
// editor and the CLI: a HEF beside the script (its header's hw_arch), its HAR (metadata hw_arch), a
// folder named after an architecture (the model zoo's layout), then `hailo.hwArch` / `--hw-arch`.
// Each case runs the bundled CLI (`check --json`) and the bundled server and compares every
// diagnostic; the first-line hover says which architecture and why. Real files from ../shared:
// Hailo-8 and Hailo-10H HEFs, the hailo8l HAR, and the model zoo's own hailo15l folder.
//
// The script's diagnostics depend on the architecture (rules R16 and the DFC 5.3.0 fault):
// `precision_mode=a16_w8` is a known DFC fault on hailo10h and appears only in hailo15l scripts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HoverRequest, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { buildHef } from '../helpers/hefBuilder';
import { archHefSpec } from '../helpers/inlineHefs';
import { makeFifo, releaseFifo } from '../helpers/hostile';
import { startTestServer, type TestServer } from '../helpers/lsp';
import { repoRoot, sharedPath, SKIP_NO_SHARED } from '../helpers/shared';

const SCRIPT = ['normalization1 = normalization([0.0, 0.0, 0.0], [255.0, 255.0, 255.0])', 'quantization_param(conv1, precision_mode=a16_w8)', ''].join('\n');
const SEVERITY = ['', 'error', 'warning', 'info', 'hint'];

let server: TestServer;
let dir: string;
const fifos: string[] = [];

/** A tiny HEF compiled "for" `hwArch` (ProtoHEFHeader.hw_arch), built from the format facts. */
const hefFor = (hwArch: number) => buildHef(archHefSpec(hwArch));

function place(sub: string, files: Record<string, string | Uint8Array> = {}): string {
  const d = join(dir, sub);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'model.alls'), SCRIPT);
  for (const [name, body] of Object.entries(files)) writeFileSync(join(d, name), body);
  return join(d, 'model.alls');
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'alls-arch-'));
  server = await startTestServer();
});

after(async () => {
  for (const f of fifos) releaseFifo(f);
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Flat {
  range: string;
  severity: string;
  code: string;
  message: string;
}
interface CliArch {
  name: string;
  source: string;
  from: string;
  why: string;
}

function cli(args: string[]): { diagnostics: Flat[]; arch: CliArch; stdout: string } {
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'check', '--json', ...args], { encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, `hailo-tools check exited ${r.status}: ${r.stderr}`);
  const f = JSON.parse(r.stdout).files[0];
  const diagnostics = f.diagnostics.map(
    (d: { line: number; column: number; endLine: number; endColumn: number; severity: string; code: string; message: string }) => ({
      range: `${d.line - 1}:${d.column - 1}-${d.endLine - 1}:${d.endColumn - 1}`,
      severity: d.severity,
      code: d.code,
      message: d.message,
    }),
  );
  return { diagnostics: sorted(diagnostics), arch: f.arch, stdout: r.stdout };
}

const sorted = (xs: Flat[]) => [...xs].sort((a, b) => (a.range < b.range ? -1 : a.range > b.range ? 1 : a.code < b.code ? -1 : 1));

/** Diagnostics and the first-line hover from the server; a fresh URI per path keeps caches honest. */
async function lsp(path: string, settings: Record<string, unknown> = {}): Promise<{ diagnostics: Flat[]; hover: string }> {
  server.settings = settings;
  const uri = pathToFileURL(path).href;
  const next = server.nextDiagnostics(uri, 1);
  server.open(uri, 'alls', SCRIPT, 1);
  const p = await next;
  const h = await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 2 } });
  server.close(uri);
  const diagnostics = p.diagnostics.map((d) => ({
    range: `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`,
    severity: SEVERITY[d.severity!],
    code: String(d.code),
    message: d.message,
  }));
  return { diagnostics: sorted(diagnostics), hover: (h?.contents as MarkupContent | undefined)?.value ?? '' };
}

/** Both sides, compared; returns them for the case's own assertions. */
async function both(path: string, cliArgs: string[] = [], settings: Record<string, unknown> = {}) {
  const c = cli([...cliArgs, path]);
  const l = await lsp(path, settings);
  assert.deepEqual(c.diagnostics, l.diagnostics, 'the CLI and the editor disagree');
  return { ...c, hover: l.hover };
}

const codes = (ds: Flat[]) => ds.map((d) => d.code).sort();

test('arch: nothing beside the script — the setting (hailo10h) decides: a16_w8 is the DFC 5.3.0 fault there', async () => {
  const r = await both(place('plain'));
  assert.equal(r.arch.name, 'hailo10h');
  assert.equal(r.arch.source, 'setting');
  assert.deepEqual(codes(r.diagnostics), ['alls/dfc-known-fault']);
  assert.match(r.diagnostics[0].message, /Known DFC 5\.3\.0 fault on hailo10h/);
  assert.match(r.hover, /\*\*Target architecture: hailo10h\*\* — the setting/);
});

test('arch: a HEF beside the script (hw_arch 3 = hailo8l) decides before the setting, and the hover says so', async () => {
  const r = await both(place('hef', { 'model.hef': await hefFor(3) }));
  assert.deepEqual([r.arch.name, r.arch.source, r.arch.from], ['hailo8l', 'hef', 'from model.hef beside this script']);
  // hailo8l is not hailo10h: no DFC 5.3.0 fault; a16_w8 is still a hailo15l-only form.
  assert.deepEqual(codes(r.diagnostics), ['alls/arch-specific']);
  assert.match(r.diagnostics[0].message, /the target is hailo8l \(from model\.hef beside this script\)/);
  assert.match(r.hover, /\*\*Target architecture: hailo8l\*\* — from the HEF beside it/);
  assert.match(r.hover, /model\.hef beside this script was compiled for it \\\(HEF hw\\_arch 3\\\)/);
  // Only the first line carries it.
  const uri = pathToFileURL(join(dir, 'hef', 'model.alls')).href;
  server.open(uri, 'alls', SCRIPT, 1);
  const h2 = await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 2 } });
  server.close(uri);
  assert.ok(!JSON.stringify(h2 ?? '').includes('Target architecture'));
});

test('arch: a folder named after an architecture (the model zoo layout) decides before the setting', async () => {
  const r = await both(place('hailo_model_zoo/cfg/alls/hailo15l/base'));
  assert.deepEqual([r.arch.name, r.arch.source], ['hailo15l', 'folder']);
  assert.deepEqual(codes(r.diagnostics), [], 'a16_w8 is a hailo15l form');
  assert.match(r.hover, /Target architecture: hailo15l\*\* — from its folder/);
  // The zoo's hailo15h folder serves hailo10h too: the setting picks among the two.
  const h = await both(place('zoo/hailo15h/base'), ['--hw-arch', 'hailo15h'], { hwArch: 'hailo15h' });
  assert.equal(h.arch.name, 'hailo15h');
  assert.deepEqual(codes(h.diagnostics), ['alls/arch-specific']);
});

test('arch: a HEF wins over the folder, and the --hw-arch / hailo.hwArch pick between hailo10h and hailo15h for hw_arch 103', async () => {
  const path = place('hailo15l/with-hef', { 'model.hef': await hefFor(103) });
  const ten = await both(path);
  assert.deepEqual([ten.arch.name, ten.arch.source], ['hailo10h', 'hef']);
  assert.ok(codes(ten.diagnostics).includes('alls/dfc-known-fault'));
  const fifteen = cli(['--hw-arch', 'hailo15h', path]);
  assert.equal(fifteen.arch.name, 'hailo15h');
  assert.ok(!codes(fifteen.diagnostics).includes('alls/dfc-known-fault'));
});

test("arch: a HEF that links outside the script's folder, or is a FIFO, is not read; the setting decides and says why", async () => {
  const outside = join(dir, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'elsewhere.hef'), await hefFor(3));
  const linked = place('linked');
  symlinkSync(join(outside, 'elsewhere.hef'), join(dir, 'linked', 'model.hef'));
  const l = await both(linked);
  assert.deepEqual([l.arch.name, l.arch.source], ['hailo10h', 'setting']);
  assert.match(l.arch.why, /model\.hef beside it could not be read \(it is a link to a file outside the script's folder; not read\)/);

  const fifoScript = place('fifo');
  if (!makeFifo(join(dir, 'fifo', 'model.hef'))) return;
  fifos.push(join(dir, 'fifo', 'model.hef'));
  const f = await both(fifoScript);
  assert.deepEqual([f.arch.name, f.arch.source], ['hailo10h', 'setting']);
  assert.match(f.arch.why, /FIFO/);
});

test('arch: real HEFs and the real HAR beside a script (../shared)', { skip: sharedPath('corpus', 'hef') ? false : SKIP_NO_SHARED }, async () => {
  const hef = sharedPath('corpus', 'hef')!;
  const har = sharedPath('corpus', 'har')!;
  // arcface_mobilefacenet.hef: Hailo-8, hw_arch 1 (corpus/hef/SOURCES.md).
  const h8 = place('real-h8');
  copyFileSync(join(hef, 'arcface_mobilefacenet.hef'), join(dir, 'real-h8', 'arcface_mobilefacenet.hef'));
  const a = await both(h8);
  assert.deepEqual([a.arch.name, a.arch.source, a.arch.from], ['hailo8', 'hef', 'from arcface_mobilefacenet.hef beside this script']);
  // seeed10h__lightface_slim.hef: the Hailo-10H class, hw_arch 103 (SOURCES.md).
  const h10 = place('real-h10');
  copyFileSync(join(hef, 'seeed10h__lightface_slim.hef'), join(dir, 'real-h10', 'lightface_slim.hef'));
  const b = await both(h10);
  assert.deepEqual([b.arch.name, b.arch.source], ['hailo10h', 'hef']);
  assert.match(b.arch.why, /HEF hw_arch 103, which is hailo10h and hailo15h/);
  // whisper-hailo8l_hailo_model.har: made by ClientRunner(hw_arch="hailo8l") (corpus/har/SOURCES.md).
  const w = place('real-har');
  copyFileSync(join(har, 'whisper-hailo8l_hailo_model.har'), join(dir, 'real-har', 'whisper-hailo8l_hailo_model.har'));
  const c = await both(w);
  assert.deepEqual([c.arch.name, c.arch.source, c.arch.from], ['hailo8l', 'har', 'from whisper-hailo8l_hailo_model.har beside this script']);
});

test(
  "arch: the model zoo's own hailo15l scripts get no wrong-architecture warnings — the same files elsewhere do (../shared)",
  { skip: sharedPath('corpus', 'alls', 'alls', 'hailo15l') ? false : SKIP_NO_SHARED },
  () => {
    const zoo = sharedPath('corpus', 'alls', 'alls', 'hailo15l')!;
    const run = (p: string) => {
      const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'check', '--json', p], { encoding: 'utf8' });
      return JSON.parse(r.stdout) as { files: { arch: CliArch; diagnostics: { code: string }[] }[] };
    };
    const wrongArch = (r: ReturnType<typeof run>) =>
      r.files.flatMap((f) => f.diagnostics.filter((d) => d.code === 'alls/arch-specific' || d.code === 'alls/dfc-known-fault'));
    const inPlace = run(zoo);
    assert.ok(inPlace.files.length >= 20, `only ${inPlace.files.length} scripts`);
    assert.deepEqual([...new Set(inPlace.files.map((f) => `${f.arch.name} ${f.arch.from}`))], ['hailo15l from the folder hailo15l/']);
    assert.deepEqual(wrongArch(inPlace), []);
    // The control: copied to a folder that names no architecture, they are checked for hailo10h.
    const copy = join(dir, 'zoo-copy');
    cpSync(zoo, copy, { recursive: true });
    const elsewhere = run(copy);
    assert.equal(elsewhere.files.length, inPlace.files.length);
    assert.ok(wrongArch(elsewhere).length >= 20, `${wrongArch(elsewhere).length} wrong-architecture warnings`);
  },
);
