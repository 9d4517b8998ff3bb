// Issue 14, reads: a HEF body of 2 GiB, FIFOs, folders and devices where a model file should be,
// gzip bombs and oversized JSON in a HAR. Each one must end in one sentence — never an abort, a hang
// or unbounded memory. Crashes and hangs are observed from a child process (the CLI), so that a
// regression fails this test instead of killing or freezing the test runner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readHefFile } from '../../../server/src/core/hef';
import { readHar } from '../../../server/src/core/har/harReader';
import { createHarLayerProvider } from '../../../server/src/lsp/modelLayers';
import { OnnxModelCache } from '../../../server/src/lsp/onnxCache';
import { FileAccessError } from '../../../server/src/core/common/fileAccess';
import { FileRoots } from '../../../server/src/core/common/confined';
import { LIMITS } from '../../../server/src/core/common/limits';
import { resolveSettings } from '../../../server/src/core/common/settings';
import { repoRoot } from '../../helpers/shared';
import { harGzipBomb, harHugeJson, makeFifo, releaseFifo, tinyHn, tarMember, TAR_END, writeHugeBodyHef } from '../../helpers/hostile';

const cli = join(repoRoot, 'bin', 'hailo-tools.js');

/** Runs the bundled CLI with a deadline: a hang is killed and reported, an abort shows as a signal. */
function runCli(args: string[], timeoutMs = 60_000) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: timeoutMs });
  return { status: r.status, signal: r.signal, out: r.stdout, err: r.stderr };
}

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'hailo-hostile-'));
}

test('a HEF whose protobuf body is 2 GiB (a sparse file of a few KB) is one hef/limit error, not an abort', async () => {
  const dir = scratch();
  try {
    const hef = join(dir, 'huge-body.hef');
    writeHugeBodyHef(hef);
    const r = runCli(['hef', '--json', hef]);
    assert.equal(r.signal, null, `the CLI was killed by ${r.signal} (Node aborts on a read of 2 GiB): ${r.err.slice(0, 400)}`);
    assert.equal(r.status, 2, r.err);
    const j = JSON.parse(r.out);
    const problem = j.problems.find((p: { code: string }) => p.code === 'hef/limit');
    assert.ok(problem, `no hef/limit problem in ${JSON.stringify(j.problems)}`);
    assert.match(problem.message, /The protobuf body \[28, 2,147,483,676\) has 2,147,483,648 bytes, over the limit of 256 MiB: the body is not decoded/);
    // The container is still read: the header and its section layout.
    assert.equal(j.container.version, 1);
    // In process too (the inspector and the language server call the reader directly).
    const report = await readHefFile(hef);
    assert.ok(report.problems.some((p) => p.code === 'hef/limit'));
    assert.ok(
      report.problems.some((p) => p.code === 'hef/truncated'),
      'the length check still runs',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a FIFO named like a model file is refused at once by every reader (HEF, ONNX, .alls, HAR), never opened', async (t) => {
  const dir = scratch();
  const fifos = ['model.hef', 'model.onnx', 'script.alls', 'model.har'].map((n) => join(dir, n));
  if (!fifos.every(makeFifo)) {
    t.skip('NOTE: mkfifo is not available on this platform');
    return;
  }
  try {
    const hef = runCli(['hef', fifos[0]], 20_000);
    assert.equal(hef.signal, null, 'hef: the CLI hung on the FIFO and was killed');
    assert.equal(hef.status, 2);
    assert.match(hef.err, /model\.hef' is a FIFO \(named pipe\), not a regular file; not read/);

    const onnx = runCli(['onnx', fifos[1]], 20_000);
    assert.equal(onnx.signal, null, 'onnx: the CLI hung on the FIFO and was killed');
    assert.equal(onnx.status, 2);
    assert.match(onnx.err, /model\.onnx' is a FIFO \(named pipe\), not a regular file; not read/);

    // A folder holding a FIFO named *.alls: the FIFO is one problem, the real script is checked.
    writeFileSync(join(dir, 'good.alls'), 'normalization1 = normalization([0, 0, 0], [255, 255, 255])\n');
    const check = runCli(['check', '--json', dir], 20_000);
    assert.equal(check.signal, null, 'check: the CLI hung on the FIFO and was killed');
    assert.equal(check.status, 2);
    assert.match(check.err, /script\.alls' is a FIFO \(named pipe\), not a regular file; not read/);
    assert.equal(JSON.parse(check.out).summary.files, 1);

    // The HAR reader runs inside the language server: in process, with a deadline.
    const outcome = await Promise.race([
      readHar(fifos[3]).then(
        () => 'read',
        (err: Error) => err.message,
      ),
      new Promise<string>((resolve) => setTimeout(() => resolve('hung'), 5000)),
    ]);
    assert.match(outcome, /model\.har' is a FIFO \(named pipe\), not a regular file; not read/);
  } finally {
    for (const f of fifos) releaseFifo(f); // frees a reader stuck in open() if the guard regressed
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a folder or a device where a file should be is one sentence naming what it is', async () => {
  const dir = scratch();
  try {
    mkdirSync(join(dir, 'folder.hef'));
    mkdirSync(join(dir, 'folder.onnx'));
    const hef = await readHefFile(join(dir, 'folder.hef'));
    assert.deepEqual(
      hef.problems.map((p) => [p.code, p.message]),
      [['hef/unreadable', `'${join(dir, 'folder.hef')}' is a folder, not a regular file; not read.`]],
    );
    const onnx = runCli(['onnx', join(dir, 'folder.onnx')]);
    assert.equal(onnx.status, 2);
    assert.match(onnx.err, /folder\.onnx' is a folder, not a regular file; not read/);
    await assert.rejects(
      () => FileRoots.of(['/dev']).open('/dev/null'),
      (e: FileAccessError) => e.code === 'not-regular' && /is a character device/.test(e.message),
    );
    assert.throws(
      () => FileRoots.of(['/dev']).readSync('/dev/zero', 1024),
      (e: FileAccessError) => e.code === 'not-regular',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a 1 MB HAR that inflates to 1 GiB stops at the limit with one sentence (total over the archive, not per member)', async () => {
  const dir = scratch();
  try {
    const bomb = harGzipBomb();
    assert.ok(bomb.length < 2 * 1024 * 1024, `the bomb is ${bomb.length} bytes on disk`);
    const path = join(dir, 'bomb.har');
    writeFileSync(path, bomb);
    const rss = process.memoryUsage().rss;
    await assert.rejects(readHar(path), (e: Error) => {
      assert.match(e.message, /bomb\.har: the gzip stream has inflated to more than [\d,]+ bytes, over the limit of 256 MiB: the HAR is not read/);
      return true;
    });
    const grown = (process.memoryUsage().rss - rss) / 2 ** 20;
    assert.ok(grown < 256, `RSS grew by ${grown.toFixed(0)} MB while streaming the bomb`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a HAR whose JSON members add up to more than 64 MiB is refused before they are buffered', async () => {
  const dir = scratch();
  try {
    const path = join(dir, 'big.har');
    writeFileSync(path, harHugeJson());
    await assert.rejects(readHar(path), /the JSON members \(up to net\.original_model_meta\.json\) has [\d,]+ bytes, over the limit of 64 MiB/);
    assert.equal(LIMITS.harJsonBytes.value, 64 * 1024 * 1024);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a broken HAR is read once per version of the file, not on every keystroke (and logged once)', async () => {
  const dir = scratch();
  try {
    const har = join(dir, 'net.har');
    const broken = harHugeJson();
    writeFileSync(har, broken);
    const mtime = new Date(1_700_000_000_000); // whole milliseconds: utimes can put it back exactly
    utimesSync(har, mtime, mtime);
    writeFileSync(join(dir, 'net.alls'), 'normalization1 = normalization([0], [1])\n');
    const logs: string[] = [];
    const host = { log: (m: string) => logs.push(m) };
    const defaults = resolveSettings(undefined);
    const provider = createHarLayerProvider(new OnnxModelCache(), host as never);
    const uri = 'file://' + join(dir, 'net.alls');
    for (let i = 0; i < 5; i++) assert.equal(await provider(uri, defaults), undefined);
    assert.equal(logs.filter((l) => l.includes('over the limit of 64 MiB')).length, 1, logs.join('\n'));
    // Swap in a readable HAR of the same size and put the old mtime back: a reader that re-reads on
    // every call would now find layers; one that keeps the failed read of this version does not.
    const good = Buffer.concat([tarMember('net.hn', Buffer.from(tinyHn(['conv1']))), TAR_END]);
    writeFileSync(har, Buffer.concat([good, Buffer.alloc(broken.length - good.length)]));
    utimesSync(har, mtime, mtime);
    assert.equal(await provider(uri, defaults), undefined, 'the HAR was read again although its size and mtime did not change');
    // A new version of the file is read again.
    utimesSync(har, new Date(mtime.getTime() + 5000), new Date(mtime.getTime() + 5000));
    const index = await provider(uri, defaults);
    assert.deepEqual([...(index?.layers.keys() ?? [])], ['input_layer1', 'conv1']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('FileRoots.readSync refuses a file over its limit without reading it', () => {
  const dir = scratch();
  try {
    const p = join(dir, 'big.alls');
    writeFileSync(p, Buffer.alloc(2048, 0x61));
    assert.throws(
      () => FileRoots.of([dir]).readSync(p, 1024),
      (e: FileAccessError) => e.code === 'too-large' && /is 2,048 bytes, more than the 1 KiB limit; not read/.test(e.message),
    );
    assert.equal(FileRoots.of([dir]).readSync(p, 4096).length, 2048);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
