// The HEF container: a big-endian header (magic, version, proto size, then a version-specific
// part), the protobuf body, and for V1-V3 the CCW (config words) section; V3 adds 4 KiB padding
// before the CCWs and an "additional info" tail. Layout facts: docs/research/hef-format.md#container-layout.
import { hex, n, type HefProblem } from './problems';
import { pushAll } from '../common/arrays';

export const HEF_MAGIC = 0x01484546; // bytes 01 48 45 46, "\x01HEF"
export const HEF_COMMON_SIZE = 12;
export const HEADER_SIZES: Record<number, number> = { 0: 32, 1: 28, 2: 44, 3: 56 };
/** Enough bytes to parse any header version. */
export const MAX_HEADER_SIZE = 56;

export type SectionName = 'header' | 'proto' | 'padding' | 'ccws' | 'additional-info';

export interface HefSection {
  name: SectionName;
  /** Absolute [start, end) the header promises. */
  start: number;
  end: number;
  /** Bytes of it actually present in the file (end - start when complete). */
  present: number;
}

export interface HeaderField {
  name: string;
  offset: number;
  size: number;
  /** Decimal for sizes, upper-case hex for hashes and the magic. */
  value: string;
}

export interface HefContainer {
  /** The magic as read (0x01484546 in every sound file; HailoRT 5.1+ does not check it on a V3 file with a proto hash). */
  magic: number;
  version: number;
  headerSize: number;
  protoSize: number;
  fileSize: number;
  /** Every header field as read, for the inspector's header table. */
  fields: HeaderField[];
  /** V0: expected MD5 (32 hex digits). */
  md5?: string;
  /** V1: expected CRC32 (8 hex digits). */
  crc32?: string;
  /** V2/V3: expected XXH3-64 over everything after the header (16 hex digits). */
  xxh3?: string;
  /** V3: expected XXH3-64 over the protobuf body only; 0 means "not populated". */
  protoXxh3?: string;
  ccwsSize?: number;
  /** V3 only. */
  ccwsSizeWithPadding?: number;
  paddingSize?: number;
  additionalInfoSize?: number;
  /** Base of CCW pointers and external-resource offsets (0 for V0). */
  zeroPoint: number;
  /** The size the header says the file has. */
  expectedFileSize: number;
  sections: HefSection[];
  /** The protobuf body's range, clipped to the file. */
  protoStart: number;
  protoEnd: number;
}

export interface ContainerResult {
  container?: HefContainer;
  /** The common header's three fields as read, whatever they say (what HailoRT reads first). */
  raw?: { magic: number; version: number; protoSize: number };
  problems: HefProblem[];
}

function u64(view: DataView, offset: number): bigint {
  return view.getBigUint64(offset, false);
}

function safe(v: bigint): number {
  // Sizes above 2^53 cannot be real (and cannot be read anyway); keep them huge but finite.
  return v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(v);
}

function hex64(v: bigint): string {
  return v.toString(16).toUpperCase().padStart(16, '0');
}

/**
 * Parses the header from the first bytes of the file (`head` holds at least
 * min(fileSize, MAX_HEADER_SIZE) bytes) and lays out the sections it promises.
 */
export function parseContainer(head: Uint8Array, fileSize: number): ContainerResult {
  const problems: HefProblem[] = [];
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (head.length < HEF_COMMON_SIZE) {
    const missing = ['magic @0 (4 bytes)', 'version @4 (4 bytes)', 'hef_proto_size @8 (4 bytes)'].filter((_, i) => head.length < (i + 1) * 4);
    problems.push({
      code: 'hef/too-short',
      severity: 'error',
      area: 'container',
      offset: head.length,
      message: `File is ${n(fileSize)} bytes; a HEF header needs at least ${HEF_COMMON_SIZE}. Missing: ${missing.join(', ')}.`,
    });
    if (head.length >= 4 && view.getUint32(0, false) !== HEF_MAGIC) problems.push(badMagic(view.getUint32(0, false), head));
    return { problems };
  }
  const magic = view.getUint32(0, false);
  const version = view.getUint32(4, false);
  const protoSize = view.getUint32(8, false);
  const raw = { magic, version, protoSize };
  const headerSize = HEADER_SIZES[version];
  // A wrong magic with a sound version still lays out: HailoRT checks the magic only after the
  // hashes (and 5.1+ not at all on a V3 file with a proto hash), so the verdict needs the rest.
  if (magic !== HEF_MAGIC) {
    problems.push(badMagic(magic, head, headerSize !== undefined));
    if (headerSize === undefined) return { raw, problems };
  }
  if (headerSize === undefined) {
    problems.push({
      code: 'hef/unsupported-version',
      severity: 'error',
      area: 'container',
      offset: 4,
      message: `Unsupported HEF container version ${n(version)} at offset 4 (HailoRT reads versions 0-3).`,
    });
    return { raw, problems };
  }
  const fields: HeaderField[] = [
    { name: 'magic', offset: 0, size: 4, value: hex(magic, 8) },
    { name: 'version', offset: 4, size: 4, value: String(version) },
    { name: 'hef_proto_size', offset: 8, size: 4, value: String(protoSize) },
  ];
  if (head.length < headerSize) {
    problems.push({
      code: 'hef/truncated-header',
      severity: 'error',
      area: 'container',
      offset: head.length,
      message: `Header truncated: a version-${version} header is ${headerSize} bytes but the file has only ${n(fileSize)}; fields from offset ${head.length} on are missing.`,
    });
    return { raw, problems };
  }

  const c: HefContainer = {
    magic,
    version,
    headerSize,
    protoSize,
    fileSize,
    fields,
    zeroPoint: 0,
    expectedFileSize: headerSize + protoSize,
    sections: [],
    protoStart: headerSize,
    protoEnd: Math.min(fileSize, headerSize + protoSize),
  };
  const section = (name: SectionName, start: number, length: number) => {
    const end = start + length;
    c.sections.push({ name, start, end, present: Math.max(0, Math.min(end, fileSize) - start) });
    return end;
  };
  section('header', 0, headerSize);
  let end = section('proto', headerSize, protoSize);

  switch (version) {
    case 0: {
      const md5 = Array.from(head.subarray(16, 32), (b) => b.toString(16).padStart(2, '0'))
        .join('')
        .toUpperCase();
      c.md5 = md5;
      fields.push({ name: 'reserved', offset: 12, size: 4, value: String(view.getUint32(12, false)) });
      fields.push({ name: 'expected_md5', offset: 16, size: 16, value: md5 });
      break;
    }
    case 1: {
      const crc = view.getUint32(12, false);
      c.crc32 = crc.toString(16).toUpperCase().padStart(8, '0');
      c.ccwsSize = safe(u64(view, 16));
      fields.push({ name: 'crc', offset: 12, size: 4, value: c.crc32 });
      fields.push({ name: 'ccws_size', offset: 16, size: 8, value: u64(view, 16).toString() });
      fields.push({ name: 'reserved', offset: 24, size: 4, value: String(view.getUint32(24, false)) });
      c.zeroPoint = end;
      end = section('ccws', end, c.ccwsSize);
      break;
    }
    case 2: {
      c.xxh3 = hex64(u64(view, 12));
      c.ccwsSize = safe(u64(view, 20));
      fields.push({ name: 'xxh3_64bits', offset: 12, size: 8, value: c.xxh3 });
      fields.push({ name: 'ccws_size', offset: 20, size: 8, value: u64(view, 20).toString() });
      fields.push({ name: 'reserved1', offset: 28, size: 8, value: u64(view, 28).toString() });
      fields.push({ name: 'reserved2', offset: 36, size: 8, value: u64(view, 36).toString() });
      c.zeroPoint = end;
      end = section('ccws', end, c.ccwsSize);
      break;
    }
    case 3: {
      c.xxh3 = hex64(u64(view, 12));
      c.ccwsSizeWithPadding = safe(u64(view, 20));
      c.paddingSize = view.getUint32(28, false);
      c.additionalInfoSize = safe(u64(view, 32));
      c.protoXxh3 = hex64(u64(view, 40));
      fields.push({ name: 'xxh3_64bits', offset: 12, size: 8, value: c.xxh3 });
      fields.push({ name: 'ccws_size_with_padding', offset: 20, size: 8, value: u64(view, 20).toString() });
      fields.push({ name: 'hef_padding_size', offset: 28, size: 4, value: String(c.paddingSize) });
      fields.push({ name: 'additional_info_size', offset: 32, size: 8, value: u64(view, 32).toString() });
      fields.push({ name: 'proto_xxh3_64bits', offset: 40, size: 8, value: c.protoXxh3 });
      fields.push({ name: 'reserved', offset: 48, size: 8, value: u64(view, 48).toString() });
      if (c.ccwsSizeWithPadding < c.paddingSize) {
        problems.push({
          code: 'hef/bad-padding',
          severity: 'error',
          area: 'container',
          offset: 20,
          message: `Invalid HEF - ccws size is smaller than padding size: ccws_size_with_padding ${n(c.ccwsSizeWithPadding)} (offset 20) < hef_padding_size ${n(c.paddingSize)} (offset 28).`,
        });
        c.ccwsSize = 0;
        c.zeroPoint = end + c.paddingSize;
        end = section('padding', end, c.paddingSize);
      } else {
        c.ccwsSize = c.ccwsSizeWithPadding - c.paddingSize;
        end = section('padding', end, c.paddingSize);
        c.zeroPoint = end;
        end = section('ccws', end, c.ccwsSize);
      }
      end = section('additional-info', end, c.additionalInfoSize);
      break;
    }
  }
  c.expectedFileSize = end;
  pushAll(problems, lengthProblems(c));
  return { container: c, raw, problems };
}

const LFS_POINTER = 'version https://git-lfs';

function badMagic(magic: number, head: Uint8Array, versionSound = false): HefProblem {
  const text = String.fromCharCode(...head.subarray(0, LFS_POINTER.length));
  const lfs = text === LFS_POINTER ? ' This is a Git LFS pointer file, not the HEF itself: fetch the real file (git lfs pull).' : '';
  return {
    code: 'hef/bad-magic',
    severity: 'error',
    area: 'container',
    offset: 0,
    message: versionSound
      ? `HEF magic does not match: offset 0 holds ${hex(magic, 8)}, expected ${hex(HEF_MAGIC, 8)} ("\\x01HEF"); the rest of the header is a sound HEF header, so the file was damaged.`
      : `Not a HEF: magic at offset 0 is ${hex(magic, 8)}, expected ${hex(HEF_MAGIC, 8)} ("\\x01HEF").${lfs}`,
  };
}

const SECTION_LABEL: Record<SectionName, string> = {
  header: 'header',
  proto: 'protobuf body',
  padding: 'padding',
  ccws: 'CCW section',
  'additional-info': 'additional info',
};

/** What the length check says, section by section: what is missing and where. */
function lengthProblems(c: HefContainer): HefProblem[] {
  const out: HefProblem[] = [];
  if (c.fileSize < c.expectedFileSize) {
    const parts = c.sections
      .filter((s) => s.present < s.end - s.start)
      .map((s) =>
        s.present === 0
          ? `${SECTION_LABEL[s.name]} [${n(s.start)}, ${n(s.end)}) missing entirely`
          : `${SECTION_LABEL[s.name]} [${n(s.start)}, ${n(s.end)}) cut after ${n(s.present)} of ${n(s.end - s.start)} bytes`,
      );
    out.push({
      code: 'hef/truncated',
      severity: 'error',
      area: 'container',
      offset: c.fileSize,
      message: `Truncated: the header promises ${n(c.expectedFileSize)} bytes but the file has ${n(c.fileSize)} (${n(c.expectedFileSize - c.fileSize)} missing): ${parts.join('; ')}.`,
    });
  } else if (c.fileSize > c.expectedFileSize) {
    out.push({
      code: 'hef/trailing-bytes',
      severity: 'error',
      area: 'container',
      offset: c.expectedFileSize,
      message: `HEF file length does not match: ${n(c.fileSize - c.expectedFileSize)} unexpected bytes after offset ${n(c.expectedFileSize)} (the header accounts for ${n(c.expectedFileSize)} of ${n(c.fileSize)}).`,
    });
  }
  return out;
}

/** True when the protobuf body is entirely inside the file. */
export function protoComplete(c: HefContainer): boolean {
  return c.headerSize + c.protoSize <= c.fileSize;
}
