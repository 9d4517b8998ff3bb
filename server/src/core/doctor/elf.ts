// The dynamic section of an ELF file: which shared libraries it needs (DT_NEEDED), its own name
// (DT_SONAME) and where it asks the loader to look first (DT_RUNPATH, DT_RPATH) — what `readelf -d`
// prints, read the way the dynamic loader finds it (program headers: PT_DYNAMIC, and the string
// table's address mapped through the PT_LOAD segments), so stripped files read too. The doctor uses
// it to tell which libhailort the GStreamer plugin, `_pyhailort`, `hailortcli` and `hailo-ollama`
// load. Every read is bounded (LIMITS.elfTableBytes, elfStringBytes) and every offset is checked
// against the file's size: a hostile file gives one ElfError sentence, never a crash or a large
// allocation. Formats: ELF32/ELF64, little and big endian (System V gABI, "Dynamic Section").
import { closeFile, readIntoSync } from '../common/fileAccess';
import type { FileRoots } from '../common/confined';
import { limit } from '../common/limits';
import { pushAll } from '../common/arrays';

const PT_LOAD = 1;
const PT_DYNAMIC = 2;
const DT_NULL = 0;
const DT_NEEDED = 1;
const DT_STRTAB = 5;
const DT_STRSZ = 10;
const DT_SONAME = 14;
const DT_RPATH = 15;
const DT_RUNPATH = 29;

/** e_machine values of the machines Hailo ships for (ELF gABI, Linux's elf-em.h). */
const MACHINES: Record<number, string> = { 3: 'x86', 40: 'ARM', 62: 'x86-64', 183: 'AArch64', 243: 'RISC-V' };
const TYPES: Record<number, string> = { 1: 'relocatable', 2: 'executable', 3: 'shared object', 4: 'core' };

export interface ElfDynamicInfo {
  bits: 32 | 64;
  littleEndian: boolean;
  /** e_machine, and its name (`AArch64`, `x86-64`, or `machine 42`). */
  machine: number;
  machineName: string;
  /** `shared object` (libraries and PIE executables), `executable`, … */
  type: string;
  /** DT_NEEDED, in order. */
  needed: string[];
  soname?: string;
  /** DT_RUNPATH / DT_RPATH split at `:` (unexpanded: `$ORIGIN` stays). */
  runpath: string[];
  rpath: string[];
}

export class ElfError extends Error {
  constructor(
    message: string,
    /** `not-elf`, `truncated`, `unsupported`, `bad-dynamic`, `no-dynamic`, `limit`. */
    readonly code: string,
  ) {
    super(message);
    this.name = 'ElfError';
  }
}

/** Random access to the bytes of a file (or a buffer in tests). */
export interface ByteSource {
  size: number;
  /** `length` bytes at `position`, fewer only at the end of the source. */
  read(position: number, length: number): Uint8Array;
}

export function bufferSource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: (position, length) => bytes.subarray(position, Math.min(bytes.length, position + length)) };
}

/** Reads the dynamic section of the ELF file at `path`, opened inside `roots` (regular files only). */
export function readElfDynamic(roots: FileRoots, path: string): ElfDynamicInfo {
  const { fd, size } = roots.openSync(path);
  try {
    return parseElfDynamic({
      size,
      read(position, length) {
        const out = new Uint8Array(Math.max(0, Math.min(length, size - position)));
        const n = out.length > 0 ? readIntoSync(fd, out, 0, out.length, position) : 0;
        return n === out.length ? out : out.subarray(0, n);
      },
    });
  } finally {
    closeFile(fd);
  }
}

/** Only the identification and the type of an ELF file (the loader skips libraries of another class or machine). */
export function readElfIdent(roots: FileRoots, path: string): { bits: 32 | 64; littleEndian: boolean; machine: number } | undefined {
  try {
    const { fd, size } = roots.openSync(path);
    try {
      const head = new Uint8Array(Math.min(20, size));
      readIntoSync(fd, head, 0, head.length, 0);
      const h = identify(bufferSource(head), head.length);
      return { bits: h.bits, littleEndian: h.littleEndian, machine: h.u16(18) };
    } finally {
      closeFile(fd);
    }
  } catch {
    return undefined;
  }
}

interface Reader {
  bits: 32 | 64;
  littleEndian: boolean;
  u16(at: number): number;
  u32(at: number): number;
  /** A 32- or 64-bit word as a number; words beyond 2^53 (never a real offset) are Infinity. */
  word(at: number): number;
  wordSize: number;
}

function view(bytes: Uint8Array, bits: 32 | 64, littleEndian: boolean): Reader {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at: number) => dv.getUint32(at, littleEndian);
  return {
    bits,
    littleEndian,
    u16: (at) => dv.getUint16(at, littleEndian),
    u32,
    word(at) {
      if (bits === 32) return u32(at);
      const v = dv.getBigUint64(at, littleEndian);
      return v > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(v);
    },
    wordSize: bits === 32 ? 4 : 8,
  };
}

function identify(src: ByteSource, size: number): Reader {
  const ident = src.read(0, Math.min(size, 64));
  if (ident.length < 4 || ident[0] !== 0x7f || ident[1] !== 0x45 || ident[2] !== 0x4c || ident[3] !== 0x46) {
    throw new ElfError('not an ELF file (it does not start with \\x7fELF)', 'not-elf');
  }
  if (ident.length < 20) throw new ElfError(`the ELF file is cut short (${size} bytes, shorter than its header)`, 'truncated');
  const cls = ident[4];
  const data = ident[5];
  if (cls !== 1 && cls !== 2) throw new ElfError(`the ELF class byte is ${cls} (1 = 32-bit, 2 = 64-bit)`, 'unsupported');
  if (data !== 1 && data !== 2) throw new ElfError(`the ELF data-encoding byte is ${data} (1 = little, 2 = big endian)`, 'unsupported');
  return view(ident, cls === 1 ? 32 : 64, data === 1);
}

export function parseElfDynamic(src: ByteSource): ElfDynamicInfo {
  const size = src.size;
  const head = identify(src, size);
  const bits = head.bits;
  const headerSize = bits === 64 ? 64 : 52;
  if (size < headerSize) throw new ElfError(`the ELF file is cut short (${size} bytes, its header alone is ${headerSize})`, 'truncated');
  const h = view(src.read(0, headerSize), bits, head.littleEndian);
  const type = h.u16(16);
  const machine = h.u16(18);
  const phoff = h.word(bits === 64 ? 32 : 28);
  const phentsize = h.u16(bits === 64 ? 54 : 42);
  const phnum = h.u16(bits === 64 ? 56 : 44);
  const minEntry = bits === 64 ? 56 : 32;
  const tableMax = limit('elfTableBytes');
  if (phnum === 0) throw new ElfError('the ELF file has no program headers, so nothing is loaded dynamically (a relocatable object?)', 'no-dynamic');
  if (phnum === 0xffff)
    throw new ElfError('the ELF file keeps its program-header count in a section header (PN_XNUM), which no shared library does', 'unsupported');
  if (phentsize < minEntry) throw new ElfError(`the ELF program headers are ${phentsize} bytes each, less than the ${minEntry} of the format`, 'bad-dynamic');
  const tableBytes = phentsize * phnum;
  if (tableBytes > tableMax) throw new ElfError(`the ELF program-header table is ${tableBytes} bytes, over the ${tableMax}-byte limit; not read`, 'limit');
  if (!(phoff + tableBytes <= size)) throw new ElfError(`the ELF program headers (at ${phoff}) lie past the end of the ${size}-byte file`, 'truncated');
  const ph = view(src.read(phoff, tableBytes), bits, head.littleEndian);

  const loads: { vaddr: number; offset: number; filesz: number }[] = [];
  let dynamic: { offset: number; filesz: number } | undefined;
  for (let i = 0; i < phnum; i++) {
    const at = i * phentsize;
    const pType = ph.u32(at);
    const offset = ph.word(at + (bits === 64 ? 8 : 4));
    const vaddr = ph.word(at + (bits === 64 ? 16 : 8));
    const filesz = ph.word(at + (bits === 64 ? 32 : 16));
    if (pType === PT_LOAD) loads.push({ vaddr, offset, filesz });
    else if (pType === PT_DYNAMIC && !dynamic) dynamic = { offset, filesz };
  }
  const base = { bits, littleEndian: head.littleEndian, machine, machineName: MACHINES[machine] ?? `machine ${machine}`, type: TYPES[type] ?? `type ${type}` };
  if (!dynamic) throw new ElfError('the ELF file has no dynamic section (a statically linked program needs no libraries)', 'no-dynamic');
  if (dynamic.filesz > tableMax) throw new ElfError(`the ELF dynamic section is ${dynamic.filesz} bytes, over the ${tableMax}-byte limit; not read`, 'limit');
  if (!(dynamic.offset + dynamic.filesz <= size))
    throw new ElfError(`the ELF dynamic section (at ${dynamic.offset}) lies past the end of the ${size}-byte file`, 'truncated');
  const entrySize = 2 * ph.wordSize;
  const dyn = view(src.read(dynamic.offset, dynamic.filesz), bits, head.littleEndian);

  const names: { tag: number; at: number }[] = [];
  let strtab: number | undefined;
  let strsz: number | undefined;
  for (let at = 0; at + entrySize <= dynamic.filesz; at += entrySize) {
    const tag = dyn.word(at);
    const val = dyn.word(at + dyn.wordSize);
    if (tag === DT_NULL) break;
    if (tag === DT_STRTAB) strtab = val;
    else if (tag === DT_STRSZ) strsz = val;
    else if (tag === DT_NEEDED || tag === DT_SONAME || tag === DT_RPATH || tag === DT_RUNPATH) names.push({ tag, at: val });
  }
  if (names.length === 0) return { ...base, needed: [], runpath: [], rpath: [] };
  if (strtab === undefined || strsz === undefined)
    throw new ElfError('the ELF dynamic section names libraries but has no string table (DT_STRTAB, DT_STRSZ)', 'bad-dynamic');
  // The loader finds DT_STRTAB by address: the PT_LOAD segment holding it gives its file offset.
  const segment = loads.find((l) => strtab! >= l.vaddr && strtab! < l.vaddr + l.filesz);
  if (!segment) throw new ElfError(`the ELF string table's address 0x${strtab.toString(16)} is in no loaded segment of the file`, 'bad-dynamic');
  const strOffset = strtab - segment.vaddr + segment.offset;
  // Strings past the segment's file bytes or the file are not there to read.
  const strEnd = Math.min(strOffset + strsz, segment.offset + segment.filesz, size);
  const stringMax = limit('elfStringBytes');
  const str = (at: number): string => {
    if (!(at < strEnd - strOffset)) throw new ElfError(`an ELF dynamic entry points at string ${at}, past the ${strsz}-byte string table`, 'bad-dynamic');
    const bytes = src.read(strOffset + at, Math.min(stringMax + 1, strEnd - strOffset - at));
    const nul = bytes.indexOf(0);
    if (nul < 0) {
      throw new ElfError(
        bytes.length > stringMax
          ? `an ELF dynamic string is longer than ${stringMax} bytes; not read`
          : 'an ELF dynamic string runs past its string table (no terminating NUL)',
        bytes.length > stringMax ? 'limit' : 'bad-dynamic',
      );
    }
    return Buffer.from(bytes.subarray(0, nul)).toString('latin1');
  };
  const out: ElfDynamicInfo = { ...base, needed: [], runpath: [], rpath: [] };
  for (const n of names) {
    const s = str(n.at);
    if (n.tag === DT_NEEDED) out.needed.push(s);
    else if (n.tag === DT_SONAME) out.soname ??= s;
    else if (n.tag === DT_RUNPATH) pushAll(out.runpath, s.split(':').filter(Boolean));
    else pushAll(out.rpath, s.split(':').filter(Boolean));
  }
  return out;
}
