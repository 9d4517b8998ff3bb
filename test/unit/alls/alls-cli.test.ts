// `hailo-tools check`: argument handling, JSON shape (1-based positions), exit codes 0/1/2,
// recursive folders, unreadable input — through main() with captured output, on real files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli/main';
import { repoRoot } from '../../helpers/shared';
import { captureIO } from '../../fakes/cliIO';

function scratch(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'alls-cli-'));
  for (const [name, content] of Object.entries(files)) {
    const p = join(dir, name);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, content);
  }
  return dir;
}

test('check --json: one JSON document with the specified shape, 1-based lines/columns, exit 1 on errors', async () => {
  const dir = scratch({ 'a.alls': 'performance_param(fps=30)\nquantization_param(conv1, precision_mode=a8_w9)\n' });
  try {
    const io = captureIO();
    const code = await main(['check', '--json', join(dir, 'a.alls')], io);
    assert.equal(code, 1);
    const doc = JSON.parse(io.outText);
    assert.deepEqual(Object.keys(doc).sort(), ['files', 'skipped', 'summary']);
    assert.deepEqual(doc.summary, { files: 1, errors: 1, warnings: 0, skipped: 0 });
    assert.equal(doc.files[0].path, join(dir, 'a.alls'));
    const [d] = doc.files[0].diagnostics;
    assert.deepEqual(Object.keys(d).sort(), ['code', 'column', 'endColumn', 'endLine', 'line', 'message', 'severity']);
    assert.deepEqual([d.line, d.column, d.endLine, d.endColumn], [2, 42, 2, 47]);
    assert.equal(d.severity, 'error');
    assert.equal(d.code, 'alls/invalid-value');
    assert.match(d.message, /a8_w9/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check: exit 0 for clean files; warnings alone do not fail', async () => {
  const dir = scratch({ 'ok.alls': 'normalization1 = normalization([0.0], [255.0])\nperformance_param(fsp=30)\n' });
  try {
    const io = captureIO();
    assert.equal(await main(['check', '--json', dir], io), 0);
    const doc = JSON.parse(io.outText);
    assert.deepEqual(doc.summary, { files: 1, errors: 0, warnings: 1, skipped: 0 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check: folders are searched recursively for *.alls only; explicit files of any name are checked', async () => {
  const dir = scratch({
    'top.alls': 'transpose()\n',
    'deep/er/inner.alls': 'frobnicate(x)\n',
    'deep/notes.txt': 'not a script(',
    'other.txt': 'transpose()\n',
  });
  try {
    const io = captureIO();
    const code = await main(['check', '--json', dir, join(dir, 'other.txt')], io);
    assert.equal(code, 1);
    const paths = JSON.parse(io.outText).files.map((f: { path: string }) => f.path);
    assert.deepEqual(paths, [join(dir, 'deep/er/inner.alls'), join(dir, 'top.alls'), join(dir, 'other.txt')]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check: human output is file:line:col severity code message, then a summary', async () => {
  const dir = scratch({ 'b.alls': 'quantizaton_param(conv1)\n' });
  try {
    const io = captureIO();
    assert.equal(await main(['check', join(dir, 'b.alls')], io), 1);
    const lines = io.outText.trimEnd().split('\n');
    assert.match(lines[0], new RegExp(`^${join(dir, 'b.alls').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:1:1 error alls/unknown-command Unknown command`));
    assert.equal(lines[lines.length - 1], '1 file checked: 1 error, 0 warnings, 0 info/hints');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check: --hw-arch drives architecture rules; an unknown architecture is a usage error', async () => {
  const dir = scratch({ 'q.alls': 'quantization_param(conv5, precision_mode=a16_w8)\n' });
  try {
    let io = captureIO();
    assert.equal(await main(['check', '--json', join(dir, 'q.alls')], io), 0);
    assert.equal(JSON.parse(io.outText).files[0].diagnostics[0].code, 'alls/dfc-known-fault');
    io = captureIO();
    assert.equal(await main(['check', '--json', '--hw-arch', 'hailo15l', join(dir, 'q.alls')], io), 0);
    assert.deepEqual(JSON.parse(io.outText).files[0].diagnostics, []);
    io = captureIO();
    assert.equal(await main(['check', '--hw-arch=hailo99', join(dir, 'q.alls')], io), 2);
    assert.match(io.errText, /unknown architecture 'hailo99'/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check: usage errors exit 2 (no path, unknown option, missing --hw-arch value); --help exits 0', async () => {
  for (const args of [[], ['--frob', 'x.alls'], ['--hw-arch']]) {
    const io = captureIO();
    assert.equal(await main(['check', ...args], io), 2, args.join(' '));
    assert.match(io.errText, /usage: hailo-tools check/);
  }
  const io = captureIO();
  assert.equal(await main(['check', '--help'], io), 0);
  assert.match(io.outText, /exit status/);
});

test('check: unreadable input exits 2 with a message, after checking what it could', async () => {
  const dir = scratch({ 'good.alls': 'transpose()\n', 'locked.alls': 'transpose()\n' });
  try {
    const io = captureIO();
    const code = await main(['check', '--json', join(dir, 'good.alls'), join(dir, 'missing.alls')], io);
    assert.equal(code, 2);
    assert.match(io.errText, /missing\.alls: no such file or folder/);
    assert.equal(JSON.parse(io.outText).summary.files, 1);
    if (process.getuid?.() !== 0) {
      // root reads anything; elsewhere a permission error must be reported, not crash
      chmodSync(join(dir, 'locked.alls'), 0o000);
      const io2 = captureIO();
      assert.equal(await main(['check', join(dir, 'locked.alls')], io2), 2);
      assert.match(io2.errText, /cannot open '[^']*locked\.alls': permission denied/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check: binary junk, invalid UTF-8 and an empty file give clear diagnostics, never a crash', async () => {
  const dir = scratch({
    'junk.alls': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0xff, 0xfe]),
    'latin1.alls': Buffer.from('performance_param(fps=30)\n# caf\xe9\n', 'latin1'),
    'empty.alls': '',
  });
  try {
    const io = captureIO();
    assert.equal(await main(['check', '--json', dir], io), 1);
    const files = Object.fromEntries(
      JSON.parse(io.outText).files.map((f: { path: string; diagnostics: { code: string }[] }) => [
        f.path.slice(dir.length + 1),
        f.diagnostics.map((d) => d.code),
      ]),
    );
    assert.deepEqual(files['empty.alls'], []);
    assert.deepEqual(files['junk.alls'], ['alls/binary-file', 'alls/invalid-encoding']);
    assert.deepEqual(files['latin1.alls'], ['alls/invalid-encoding']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check: the bundled examples show errors in broken/ and none in good/', async () => {
  let io = captureIO();
  assert.equal(await main(['check', '--json', join(repoRoot, 'examples', 'good')], io), 0);
  const good = JSON.parse(io.outText);
  assert.ok(good.summary.files >= 4);
  assert.equal(good.summary.warnings, 0, JSON.stringify(good.files.filter((f: { diagnostics: unknown[] }) => f.diagnostics.length)));
  io = captureIO();
  assert.equal(await main(['check', '--json', join(repoRoot, 'examples', 'broken')], io), 1);
  const broken = JSON.parse(io.outText);
  for (const f of broken.files) {
    const codes = new Set(f.diagnostics.map((d: { code: string }) => d.code));
    assert.ok(codes.size >= 4, `${f.path} shows only ${[...codes].join(', ')}`);
  }
});

test('check --har/--onnx: a named model file that is missing or not a file is one sentence and exit 2', async () => {
  const dir = scratch({ 'a.alls': 'quantization_param(conv1, precision_mode=a8_w8)\n' });
  try {
    for (const [flag, file, why] of [
      ['--har', join(dir, 'nope.har'), /^hailo-tools check: --har .*nope\.har: no such file\n$/],
      ['--onnx', dir, /^hailo-tools check: --onnx .*: not a file\n$/],
      ['--har', '', /--har needs a file/],
    ] as const) {
      const io = captureIO();
      assert.equal(await main(['check', flag, file, join(dir, 'a.alls')], io), 2);
      assert.match(io.errText, why);
    }
    // A named file that is not a HAR: the scripts are still checked (without it), exit 2.
    writeFileSync(join(dir, 'x.har'), 'not a tar');
    const io = captureIO();
    assert.equal(await main(['check', '--json', '--har', join(dir, 'x.har'), join(dir, 'a.alls')], io), 2);
    assert.equal(JSON.parse(io.outText).summary.files, 1);
    assert.match(io.errText, /x\.har.*not a readable \.har/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
