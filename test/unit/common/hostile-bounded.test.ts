// Issue 18, "bounded in one place, not in the next": `accuracy --inputs` loaded a 1 GiB sparse
// .npy whole (13.4 GB: the body, then float64, then float32 copies) before its shape check; a 1 MB
// PNG declaring 16384×16384 took the device worker and `chat --image` to 3.1 GB (JPEG had a pixel
// limit, PNG none); `--alls` on a FIFO blocked forever and on /dev/zero grew to gigabytes (calib,
// accuracy); a million-entry calibration set printed a 9.4 MB "duplicate entries" message. The
// inputs are generated here (sparse files, a PNG deflated as it is generated); memory is the
// process's ArrayBuffer total, where typed arrays and Buffers live.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import { compareOracles, CompareError } from '../../../server/src/processes/accuracy/compare';
import { readNpyFile } from '../../../server/src/core/calib/npyRead';
import { inspectCalibrationSet } from '../../../server/src/core/calib/inspect';
import { decodeImage, InputError, makeInputs } from '../../../server/src/core/device/inputs';
import type { StreamInfo } from '../../../server/src/core/device/protocol';
import { makeFifo, releaseFifo } from '../../helpers/hostile';
import { repoRoot } from '../../helpers/shared';

const MODEL = join(repoRoot, 'examples', 'model');
const cli = join(repoRoot, 'bin', 'hailo-tools.js');
const MiB = 1024 * 1024;

function scratch(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-bounded-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A .npy (format 1.0) whose header says `shape` of `descr`, its body sparse (zeros, no disk). */
function sparseNpy(path: string, descr: string, shape: number[], itemBytes: number): number {
  const dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const total = Math.ceil((10 + dict.length + 1) / 64) * 64;
  const header = dict.padEnd(total - 11, ' ') + '\n';
  const head = Buffer.alloc(total);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(head);
  head.writeUInt16LE(header.length, 8);
  head.write(header, 10, 'latin1');
  const fd = openSync(path, 'w');
  writeSync(fd, head);
  const size = total + shape.reduce((a, b) => a * b, 1) * itemBytes;
  ftruncateSync(fd, size);
  closeSync(fd);
  return size;
}

const arrayBuffers = () => process.memoryUsage().arrayBuffers;

test('accuracy --inputs: a 1 GiB .npy of the wrong shape is refused from its header; of the right shape only the N entries used are read', async () => {
  const s = scratch();
  try {
    const wrong = join(s.dir, 'wrong.npy');
    sparseNpy(wrong, '|u1', [87381, 64, 48, 4], 1); // 1 GiB on paper, a few bytes on disk
    const base = { onnx: join(MODEL, 'tinycnn.onnx'), har: join(MODEL, 'tinycnn_hailo_model.har'), contexts: [], workDir: s.dir };
    const before = arrayBuffers();
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, arrayBuffers())), 5);
    try {
      await assert.rejects(
        compareOracles({ ...base, inputsNpy: wrong }, {}),
        (e: unknown) => e instanceof CompareError && e.message === `The inputs ${wrong} have shape (87381, 64, 48, 4); the model wants (N, 64, 64, 3).`,
      );
      const right = join(s.dir, 'right.npy');
      sparseNpy(right, '<f4', [21845, 64, 64, 3], 4); // 1 GiB of float32
      const doc = await compareOracles({ ...base, inputsNpy: right, count: 2 }, {});
      assert.equal(doc.inputs.count, 2);
    } finally {
      clearInterval(timer);
    }
    assert.ok(peak - before < 64 * MiB, `ArrayBuffers grew by ${((peak - before) / MiB).toFixed(0)} MiB`);
    // The reader itself: header first (a check that throws reads nothing), then only what is asked.
    assert.throws(
      () =>
        readNpyFile(wrong, {
          check: () => {
            throw new Error('refused from the header');
          },
        }),
      /refused from the header/,
    );
    assert.throws(() => readNpyFile(wrong), /more than the 1 GiB this reader holds in memory/, 'as float32, 2³⁰ bytes of uint8 are 4 GiB');
  } finally {
    s.cleanup();
  }
});

test('device inputs: a 64 MiB uint8 .npy feeds frames 0 and 1 without decoding the rest at 8 bytes a value', () => {
  const s = scratch();
  try {
    const path = join(s.dir, 'frames.npy');
    sparseNpy(path, '|u1', [16384, 64, 64, 1], 1); // 16,384 frames of 64×64×1
    const input: StreamInfo = { name: 'in', direction: 'input', shape: [64, 64, 1], order: 'NHWC', type: 'UINT8', frameSize: 4096, quant: [], isNms: false };
    const before = arrayBuffers();
    const made = makeInputs({ kind: 'npy', path }, [input]);
    // the file (64 MiB) is held while it is read; the whole of it as float64 would be 512 MiB more
    const grew = arrayBuffers() - before;
    assert.ok(grew < 128 * MiB, `ArrayBuffers grew by ${(grew / MiB).toFixed(0)} MiB`);
    assert.deepEqual(
      made.frames.map((f) => f.length),
      [4096, 4096],
    );
    assert.match(made.description.text, /^frames\.npy, frames 0 and 1$/);
    // the whole-frames check still counts every value the header declares
    const odd = join(s.dir, 'odd.npy');
    sparseNpy(odd, '|u1', [4097], 1);
    assert.throws(() => makeInputs({ kind: 'npy', path: odd }, [input]), /odd\.npy has shape \(4097\) = 4097 values, which is not a whole number of frames/);
  } finally {
    s.cleanup();
  }
});

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/** A complete RGB PNG of `width`×`height` black pixels: its IDAT is a deflated run of zeros (about 1 MB for 8192×8192). */
function blackPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const row = Buffer.alloc(1 + width * 3); // filter byte 0, then black pixels
  // Deflate row by row into one stream would need a streaming API; rows of zeros compress the
  // same way, so deflate a block of rows and repeat it (a valid zlib stream per IDAT is not
  // required: one stream is built from the whole raw image in 64-row pieces).
  const rows = Buffer.concat(Array.from({ length: Math.min(64, height) }, () => row));
  const raw: Buffer[] = [];
  for (let y = 0; y < height; y += 64) raw.push(y + 64 <= height ? rows : Buffer.concat(Array.from({ length: height - y }, () => row)));
  const idat = deflateSync(Buffer.concat(raw), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

test('a PNG declaring more than 64 MP is refused from its header, like a JPEG; a small one still decodes', () => {
  const small = decodeImage(blackPng(4, 3), 'small.png');
  assert.deepEqual([small.width, small.height, small.rgba.length], [4, 3, 48]);
  // The audit's 16384×16384 header (an image of 1 MB would inflate to 805 MB, then 1 GiB of RGBA).
  const huge = blackPng(1, 1);
  huge.writeUInt32BE(16384, 16);
  huge.writeUInt32BE(16384, 20);
  assert.throws(
    () => decodeImage(huge, 'huge.png'),
    (e: unknown) =>
      e instanceof InputError &&
      e.message ===
        'huge.png (16384x16384) has 268,435,456 pixels, over the limit of 64,000,000 pixels: the image is not decoded (one sentence); nothing runs on the device.',
  );
  // A real one just over the limit, 1 MB on disk: refused before a byte is inflated.
  const big = blackPng(8193, 8192);
  assert.ok(big.length < 2 * MiB);
  const before = arrayBuffers();
  assert.throws(() => decodeImage(big, 'big.png'), /8193x8192\) has 67,117,056 pixels, over the limit/);
  assert.ok(arrayBuffers() - before < 16 * MiB);
  // JPEG: the SOF0 marker's size, read the same way.
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x23, 0x28, 0x23, 0x28, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]);
  assert.throws(() => decodeImage(jpeg, 'big.jpg'), /big\.jpg \(9000x9000\) has 81,000,000 pixels, over the limit/);
});

test('device inputs and --alls: a FIFO or /dev/zero is one sentence at once, never a hang or gigabytes', (t) => {
  const s = scratch();
  const fifo = join(s.dir, 'image.png');
  const fifoAlls = join(s.dir, 'model.alls');
  try {
    if (!makeFifo(fifo) || !makeFifo(fifoAlls)) {
      t.skip('NOTE: mkfifo is not available on this platform');
      return;
    }
    // In child processes: a reader that blocks on the FIFO must fail this test, not freeze the runner.
    const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 30_000 });
    // chat reads its images (device/inputs readLimited) before it asks for a device.
    const hef = join(repoRoot, 'examples', 'qwen3vl-vision-encoder.hef');
    for (const [image, kind] of [
      [fifo, 'a FIFO \\(named pipe\\)'],
      ['/dev/zero', 'a character device'],
    ]) {
      const r = run(['chat', '--image', image, hef, 'what is this?']);
      assert.equal(r.signal, null, `chat --image ${image} blocked and was killed`);
      assert.equal(r.status, 2);
      assert.match(r.stderr, new RegExp(`cannot read the input: '.*${image === fifo ? 'image\\.png' : '/dev/zero'}' is ${kind}, not a regular file; not read`));
    }
    const calib = run(['calib', '--alls', fifoAlls, join(MODEL, 'tinycnn_calib.npy')]);
    assert.equal(calib.signal, null, 'calib --alls blocked on the FIFO and was killed');
    assert.equal(calib.status, 2);
    assert.match(calib.stderr, /is a FIFO \(named pipe\), not a regular file; not read/);
    const zero = run(['calib', '--alls', '/dev/zero', join(MODEL, 'tinycnn_calib.npy')]);
    assert.equal(zero.signal, null);
    assert.equal(zero.status, 2);
    assert.match(zero.stderr, /'\/dev\/zero' is a character device, not a regular file; not read/);
    const acc = run([
      'accuracy',
      '--onnx',
      join(MODEL, 'tinycnn.onnx'),
      '--har',
      join(MODEL, 'tinycnn_hailo_model.har'),
      '--alls',
      fifoAlls,
      '--count',
      '1',
      '--contexts',
      'none',
    ]);
    assert.equal(acc.signal, null, 'accuracy --alls blocked on the FIFO and was killed');
    assert.equal(acc.status, 2, acc.stdout + acc.stderr);
    assert.match(acc.stderr, /is a FIFO \(named pipe\), not a regular file; not read/);
  } finally {
    releaseFifo(fifo);
    releaseFifo(fifoAlls);
    s.cleanup();
  }
});

test('a million copies of one calibration entry: the duplicate-entries message is a summary of a few hundred characters', async () => {
  const s = scratch();
  try {
    const npy = join(s.dir, 'million.npy');
    const dict = "{'descr': '|u1', 'fortran_order': False, 'shape': (1000000, 1, 1, 1), }";
    const header = dict.padEnd(128 - 11, ' ') + '\n';
    const head = Buffer.alloc(128);
    Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(head);
    head.writeUInt16LE(header.length, 8);
    head.write(header, 10, 'latin1');
    writeFileSync(npy, Buffer.concat([head, Buffer.alloc(1_000_000, 7)]));
    const report = await inspectCalibrationSet(npy, { inputs: [] });
    const dup = report.findings.find((f) => f.code === 'calib/duplicate-entries');
    assert.ok(dup, JSON.stringify(report.findings.map((f) => f.code)));
    assert.ok(dup.message.length < 400, `${dup.message.length} characters: ${dup.message.slice(0, 200)}…`);
    assert.match(dup.message, /^999,999 entries repeat others \(0 = 1 = 2 = 3 = … \(1,000,000 equal entries\); same 64-bit content hash\)/);
    for (const f of report.findings) assert.ok(f.message.length < 1000, `${f.code}: ${f.message.length} characters`);
  } finally {
    s.cleanup();
  }
});
