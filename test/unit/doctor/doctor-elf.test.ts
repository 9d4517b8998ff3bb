// The doctor's ELF dynamic-section reader (server/src/core/doctor/elf.ts) against `readelf -d` (binutils,
// an independent reader) on files the system's linker builds here — a library with the SONAME
// HailoRT gives libhailort, a plugin needing two libraries through a $ORIGIN RUNPATH, an executable
// with an old-style RPATH — on a 32-bit big-endian file written byte by byte from the gABI, on the
// real libhailort 5.2.0 when it is on this machine, and on hostile files: every prefix of a real
// file, seeded byte flips, tables that claim to be huge, strings without their NUL, a FIFO.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { ElfError, bufferSource, parseElfDynamic, readElfDynamic, type ElfDynamicInfo } from '../../../server/src/core/doctor/elf';
import { FileAccessError } from '../../../server/src/core/common/fileAccess';
import { FileRoots } from '../../../server/src/core/common/confined';
import { limit } from '../../../server/src/core/common/limits';
import { readelfDynamic, toolchain, writeStub } from '../../helpers/elfStubs';
import { prng } from '../../helpers/random';
import { skipUnless } from '../../helpers/shared';

const tools = toolchain();
const needTools = skipUnless(tools.cxx && tools.readelf, 'a C++ compiler (g++) and readelf (binutils)');
const dir = mkdtempSync(join(tmpdir(), 'hailo-elf-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const ours = (path: string) => {
  const e = readElfDynamic(FileRoots.near(path), path);
  return { needed: e.needed, soname: e.soname, runpath: e.runpath, rpath: e.rpath };
};

test('built files: SONAME, NEEDED in order, RUNPATH with $ORIGIN and RPATH read as readelf -d reads them', { skip: needTools }, () => {
  const lib = join(dir, 'libhailort.so.4.20.0');
  writeStub(lib, { kind: 'shared', soname: 'libhailort.so.4.20.0' });
  const plugin = join(dir, 'libgsthailo.so');
  writeStub(plugin, { kind: 'shared', needs: ['libhailort.so.4.20.0', 'libgsthailometa.so.3'], runpath: ['$ORIGIN/../lib', '/opt/hailo/lib'] });
  const cli = join(dir, 'hailortcli');
  writeStub(cli, { kind: 'exe', needs: ['libhailort.so.5.1.1'], rpath: ['/usr/local/lib'] });
  for (const f of [lib, plugin, cli]) assert.deepEqual(ours(f), readelfDynamic(f), f);
  // And the values themselves, so that the comparison cannot pass on two empty readings.
  assert.equal(readElfDynamic(FileRoots.near(lib), lib).soname, 'libhailort.so.4.20.0');
  assert.deepEqual(readElfDynamic(FileRoots.near(plugin), plugin).needed.slice(0, 2), ['libhailort.so.4.20.0', 'libgsthailometa.so.3']);
  assert.deepEqual(readElfDynamic(FileRoots.near(plugin), plugin).runpath, ['$ORIGIN/../lib', '/opt/hailo/lib']);
  assert.deepEqual(readElfDynamic(FileRoots.near(cli), cli).rpath, ['/usr/local/lib']);
  assert.equal(readElfDynamic(FileRoots.near(cli), cli).runpath.length, 0);
  const host = readElfDynamic(FileRoots.near(cli), cli);
  assert.equal(host.bits, process.arch === 'x64' || process.arch === 'arm64' ? 64 : 32);
  assert.equal(host.machineName, process.arch === 'x64' ? 'x86-64' : process.arch === 'arm64' ? 'AArch64' : host.machineName);
});

const ORACLE = '/work/oracle/build-5.2.0/hailort/libhailort/src/libhailort.so.5.2.0';
test(
  'the real libhailort 5.2.0 (built from the public source, where present): SONAME libhailort.so.5.2.0',
  { skip: existsSync(ORACLE) ? false : 'NOTE: the libhailort 5.2.0 oracle is not on this machine' },
  () => {
    const e = readElfDynamic(FileRoots.near(ORACLE), ORACLE);
    assert.equal(e.soname, 'libhailort.so.5.2.0');
    if (tools.readelf) assert.deepEqual(ours(ORACLE), readelfDynamic(ORACLE));
  },
);

/** A 32-bit big-endian shared object, laid out by hand from the gABI: header, 2 program headers, dynamic, strings. */
function elf32be(strings: string[], opts: { strszDelta?: number } = {}): Uint8Array {
  const str = Buffer.concat([Buffer.from([0]), ...strings.map((s) => Buffer.from(`${s}\0`, 'latin1'))]);
  const offsets: number[] = [];
  let at = 1;
  for (const s of strings) {
    offsets.push(at);
    at += Buffer.byteLength(s, 'latin1') + 1;
  }
  const ehsize = 52;
  const phoff = ehsize;
  const phnum = 2;
  const dynOff = phoff + 32 * phnum;
  // tags: NEEDED×(n-1), SONAME (last string), STRTAB, STRSZ, NULL
  const entries: [number, number][] = strings.slice(0, -1).map((_, i) => [1, offsets[i]]);
  entries.push([14, offsets[strings.length - 1]]);
  const strOff = dynOff + (entries.length + 3) * 8;
  const vaddr = 0x10000;
  entries.push([5, vaddr + strOff], [10, str.length + (opts.strszDelta ?? 0)], [0, 0]);
  const size = strOff + str.length;
  const b = Buffer.alloc(size);
  b.set([0x7f, 0x45, 0x4c, 0x46, 1, 2, 1], 0); // ELFCLASS32, ELFDATA2MSB, EV_CURRENT
  b.writeUInt16BE(3, 16); // ET_DYN
  b.writeUInt16BE(20, 18); // EM_PPC
  b.writeUInt32BE(1, 20);
  b.writeUInt32BE(phoff, 28);
  b.writeUInt16BE(ehsize, 40);
  b.writeUInt16BE(32, 42);
  b.writeUInt16BE(phnum, 44);
  b.writeUInt16BE(40, 46); // e_shentsize
  // PT_LOAD: the whole file at vaddr
  b.writeUInt32BE(1, phoff);
  b.writeUInt32BE(0, phoff + 4);
  b.writeUInt32BE(vaddr, phoff + 8);
  b.writeUInt32BE(vaddr, phoff + 12);
  b.writeUInt32BE(size, phoff + 16);
  b.writeUInt32BE(size, phoff + 20);
  b.writeUInt32BE(5, phoff + 24);
  b.writeUInt32BE(0x1000, phoff + 28);
  // PT_DYNAMIC
  const p2 = phoff + 32;
  b.writeUInt32BE(2, p2);
  b.writeUInt32BE(dynOff, p2 + 4);
  b.writeUInt32BE(vaddr + dynOff, p2 + 8);
  b.writeUInt32BE(vaddr + dynOff, p2 + 12);
  b.writeUInt32BE(entries.length * 8, p2 + 16);
  b.writeUInt32BE(entries.length * 8, p2 + 20);
  b.writeUInt32BE(6, p2 + 24);
  b.writeUInt32BE(4, p2 + 28);
  entries.forEach(([tag, val], i) => {
    b.writeUInt32BE(tag, dynOff + i * 8);
    b.writeUInt32BE(val, dynOff + i * 8 + 4);
  });
  b.set(str, strOff);
  return b;
}

test('a 32-bit big-endian file written from the format: read as readelf reads it', () => {
  const bytes = elf32be(['libhailort.so.4.18.0', 'libc.so.6', 'libgsthailo.so']);
  const e = parseElfDynamic(bufferSource(bytes));
  assert.deepEqual([e.bits, e.littleEndian, e.machineName, e.type], [32, false, 'machine 20', 'shared object']);
  assert.deepEqual(e.needed, ['libhailort.so.4.18.0', 'libc.so.6']);
  assert.equal(e.soname, 'libgsthailo.so');
  if (tools.readelf) {
    const f = join(dir, 'be32.so');
    writeFileSync(f, bytes);
    assert.deepEqual(ours(f), readelfDynamic(f));
  }
});

function expectElfError(bytes: Uint8Array, code?: string): ElfError {
  try {
    parseElfDynamic(bufferSource(bytes));
  } catch (err) {
    assert.ok(err instanceof ElfError, `not an ElfError: ${String(err)}`);
    if (code) assert.equal(err.code, code, err.message);
    return err;
  }
  assert.fail('expected an ElfError');
}

test('hostile files: not ELF, cut short, huge tables, strings past their table or without a NUL — one ElfError each', () => {
  assert.match(expectElfError(Buffer.from('ELF'), 'not-elf').message, /not an ELF file/);
  assert.match(expectElfError(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1]), 'truncated').message, /cut short/);
  assert.match(expectElfError(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 9, 1, 1, ...new Array(60).fill(0)]), 'unsupported').message, /class byte is 9/);
  const good = elf32be(['libhailort.so.4.18.0', 'x.so']);
  // e_phnum × e_phentsize beyond the limit: refused before anything is read.
  const many = Buffer.from(good);
  many.writeUInt16BE(0xfffe, 44);
  many.writeUInt16BE(0xffff, 42);
  assert.match(expectElfError(many, 'limit').message, new RegExp(`over the ${limit('elfTableBytes')}-byte limit`));
  // A dynamic section that claims 1 GiB.
  const bigDyn = Buffer.from(good);
  bigDyn.writeUInt32BE(1 << 30, 52 + 32 + 16);
  expectElfError(bigDyn, 'limit');
  // A string table that claims more bytes than the file has, and strings that lose their NUL.
  const noNul = Buffer.from(good);
  noNul[noNul.length - 1] = 0x41;
  assert.match(expectElfError(noNul, 'bad-dynamic').message, /no terminating NUL/);
  // A name offset past DT_STRSZ (the SONAME starts where the table is said to end), and a table
  // cut inside a name.
  const short = elf32be(['a.so', 'libhailort.so.4.18.0'], { strszDelta: -21 });
  assert.match(expectElfError(elf32be(['libhailort.so.4.18.0', 'x.so'], { strszDelta: -10 }), 'bad-dynamic').message, /no terminating NUL/);
  assert.match(expectElfError(short, 'bad-dynamic').message, /past the \d+-byte string table/);
  // A string longer than PATH_MAX.
  const long = elf32be([`lib${'a'.repeat(limit('elfStringBytes') + 10)}.so`, 'x.so']);
  expectElfError(long, 'limit');
  // A 64-bit offset beyond 2^53 (no file is that large).
  const b64 = Buffer.alloc(64);
  b64.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]);
  b64.writeBigUInt64LE(1n << 60n, 32);
  b64.writeUInt16LE(56, 54);
  b64.writeUInt16LE(1, 56);
  expectElfError(b64, 'truncated');
});

test('every prefix of a real file and 3,000 seeded byte flips end in a reading or an ElfError, with bounded strings', { skip: needTools }, () => {
  const f = join(dir, 'flip-target.so');
  writeStub(f, { kind: 'shared', needs: ['libhailort.so.4.20.0'], runpath: ['$ORIGIN'], soname: 'libgsthailo.so' });
  const bytes = readFileSync(f);
  const check = (b: Uint8Array) => {
    let e: ElfDynamicInfo;
    try {
      e = parseElfDynamic(bufferSource(b));
    } catch (err) {
      if (err instanceof ElfError) return;
      throw err;
    }
    for (const s of [...e.needed, ...e.runpath, ...e.rpath, e.soname ?? '']) assert.ok(s.length <= limit('elfStringBytes'));
  };
  for (let n = 0; n <= bytes.length; n += n < 4096 ? 1 : 97) check(bytes.subarray(0, n));
  const rnd = prng(0x19e1f);
  // The header, the program headers and the dynamic section are where a flip changes the reading.
  const hot = Math.min(bytes.length, 4096);
  for (let i = 0; i < 3000; i++) {
    const b = Buffer.from(bytes);
    for (let k = 0; k < 1 + Math.floor(rnd() * 4); k++) b[Math.floor(rnd() * (rnd() < 0.8 ? hot : b.length))] = Math.floor(rnd() * 256);
    check(b);
  }
});

test('a FIFO or a folder named like a plugin is refused without blocking', { skip: process.platform === 'win32' ? 'no FIFOs' : false }, () => {
  const fifo = join(dir, 'libgsthailo.so.fifo');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  assert.throws(() => readElfDynamic(FileRoots.near(fifo), fifo), FileAccessError);
  assert.throws(() => readElfDynamic(FileRoots.near(dir), dir), FileAccessError);
});
