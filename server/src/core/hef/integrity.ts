// The checksums libhailort verifies when it opens a HEF (docs/research/hef-format.md#integrity-checks), computed by
// streaming the file through hash-wasm in fixed-size chunks: memory stays at one chunk however
// large the CCW section is.
import { createCRC32, createMD5, createXXHash3, type IHasher } from 'hash-wasm';
import type { HefContainer } from './container';
import { n, type HefProblem } from './problems';
import type { ByteSource } from './source';

export type HashAlgorithm = 'md5' | 'crc32' | 'xxh3';

/** Bytes per read while hashing: large enough for ~GB/s, small enough to be irrelevant in RSS. */
export const HASH_CHUNK = 1 << 20;

export interface IntegrityCheck {
  /**
   * `length`, `md5`, `crc32`, `xxh3` (whole residue), `proto-xxh3` (V3 body only), or `layout`
   * (V3: the header fields no checksum covers place the CCW section where a compiler puts it).
   */
  name: 'length' | HashAlgorithm | 'proto-xxh3' | 'layout';
  /** undefined = not computed (e.g. the hash is skipped because the length is already wrong). */
  ok: boolean | undefined;
  /** Absolute byte range hashed, when a hash. */
  range?: [number, number];
  expected?: string;
  actual?: string;
  detail: string;
  /** Which HailoRT versions perform this check when opening the file. */
  enforcedBy: string;
}

export interface IntegrityReport {
  /** All performed checks passed and nothing was skipped. */
  ok: boolean;
  /** The container's hash: md5 (V0), crc32 (V1), xxh3 (V2/V3), none (container unreadable). */
  check: HashAlgorithm | 'none';
  /** One sentence summary. */
  detail: string;
  checks: IntegrityCheck[];
}

export async function createHasher(algo: HashAlgorithm): Promise<IHasher> {
  switch (algo) {
    case 'md5':
      return createMD5();
    case 'crc32':
      return createCRC32();
    case 'xxh3':
      return createXXHash3();
  }
}

/** Hash of [start, end) of the source, read in chunks; upper-case hex. */
export async function hashRange(src: ByteSource, algo: HashAlgorithm, start: number, end: number, chunk = HASH_CHUNK): Promise<string> {
  const h = await createHasher(algo);
  h.init();
  for (let pos = start; pos < end;) {
    const bytes = await src.read(pos, Math.min(chunk, end - pos));
    if (bytes.length === 0) break;
    h.update(bytes);
    pos += bytes.length;
  }
  return h.digest('hex').toUpperCase();
}

/** XXH3-64 of bytes in memory (external resources, small bodies); upper-case hex. */
export async function xxh3Hex(bytes: Uint8Array): Promise<string> {
  const h = await createXXHash3();
  h.init();
  h.update(bytes);
  return h.digest('hex').toUpperCase();
}

const ZERO64 = '0000000000000000';

/**
 * Runs every check libhailort would run for this container version, plus the stricter ones an
 * older HailoRT runs (V3 with a proto hash: 5.x checks only the body, 4.23 the length and the full
 * hash; we report both). Problems are appended to `problems`.
 */
export async function verifyIntegrity(src: ByteSource, c: HefContainer, problems: HefProblem[]): Promise<IntegrityReport> {
  const checks: IntegrityCheck[] = [];
  const residue: [number, number] = [c.headerSize, c.fileSize];
  const lengthOk = c.fileSize === c.expectedFileSize;
  const lengthCheck = (enforcedBy: string): IntegrityCheck => ({
    name: 'length',
    ok: lengthOk,
    detail: lengthOk ? `file is ${n(c.fileSize)} bytes, as the header promises` : `header promises ${n(c.expectedFileSize)} bytes, file has ${n(c.fileSize)}`,
    enforcedBy,
  });

  const fullHash = async (algo: HashAlgorithm, expected: string, enforcedBy: string): Promise<IntegrityCheck> => {
    if (!lengthOk) {
      return {
        name: algo,
        ok: undefined,
        range: residue,
        expected,
        detail: `not computed: the file length does not match, so the ${algo.toUpperCase()} over [${n(residue[0])}, EOF) cannot match`,
        enforcedBy,
      };
    }
    const actual = await hashRange(src, algo, residue[0], residue[1]);
    const ok = actual === expected;
    if (!ok) {
      problems.push({
        code: 'hef/checksum',
        severity: 'error',
        area: 'integrity',
        offset: algo === 'md5' ? 16 : 12,
        message: `HEF ${algo === 'xxh3' ? 'xxhash' : algo} does not match: the header (offset ${algo === 'md5' ? 16 : 12}) expects ${expected}, the bytes [${n(residue[0])}, ${n(residue[1])}) hash to ${actual}.`,
      });
    }
    return {
      name: algo,
      ok,
      range: residue,
      expected,
      actual,
      detail: ok
        ? `${algo.toUpperCase()} over [${n(residue[0])}, ${n(residue[1])}) matches ${expected}`
        : `${algo.toUpperCase()} over [${n(residue[0])}, ${n(residue[1])}) is ${actual}, header expects ${expected}`,
      enforcedBy,
    };
  };

  let check: IntegrityReport['check'] = 'none';
  switch (c.version) {
    case 0:
      check = 'md5';
      checks.push(lengthCheck('all'), await fullHash('md5', c.md5!, 'all'));
      break;
    case 1:
      check = 'crc32';
      checks.push(lengthCheck('all'), await fullHash('crc32', c.crc32!, 'all'));
      break;
    case 2:
      check = 'xxh3';
      checks.push(lengthCheck('all'), await fullHash('xxh3', c.xxh3!, 'all'));
      break;
    case 3: {
      check = 'xxh3';
      if (c.protoXxh3 && c.protoXxh3 !== ZERO64) {
        const range: [number, number] = [c.headerSize, c.headerSize + c.protoSize];
        if (c.protoEnd < range[1]) {
          checks.push({
            name: 'proto-xxh3',
            ok: false,
            range,
            expected: c.protoXxh3,
            detail: `protobuf body [${n(range[0])}, ${n(range[1])}) is cut off at ${n(c.protoEnd)}; its XXH3 cannot match`,
            enforcedBy: 'HailoRT ≥ 5.0',
          });
        } else {
          const actual = await hashRange(src, 'xxh3', range[0], range[1]);
          const ok = actual === c.protoXxh3;
          if (!ok) {
            problems.push({
              code: 'hef/proto-checksum',
              severity: 'error',
              area: 'integrity',
              offset: 40,
              message: `HEF proto xxhash does not match: the header (offset 40) expects ${c.protoXxh3}, the protobuf body [${n(range[0])}, ${n(range[1])}) hashes to ${actual}.`,
            });
          }
          checks.push({
            name: 'proto-xxh3',
            ok,
            range,
            expected: c.protoXxh3,
            actual,
            detail: ok ? `XXH3 of the protobuf body matches ${c.protoXxh3}` : `XXH3 of the protobuf body is ${actual}, header expects ${c.protoXxh3}`,
            enforcedBy: 'HailoRT ≥ 5.0',
          });
        }
        checks.push(lengthCheck('HailoRT 4.x'), await fullHash('xxh3', c.xxh3!, 'HailoRT 4.x'));
      } else {
        checks.push(lengthCheck('all'), await fullHash('xxh3', c.xxh3!, 'all'));
      }
      break;
    }
  }
  if (c.version === 3) checks.push(await layoutCheck(src, c, problems));
  const ok = checks.every((x) => x.ok === true);
  const failed = checks.filter((x) => x.ok !== true);
  const detail = ok
    ? checks
        .filter((x) => x.name !== 'length')
        .map((x) => x.detail)
        .concat([`length ${n(c.fileSize)} as promised`])
        .join('; ')
    : failed.map((x) => `${x.name}: ${x.detail}`).join('; ');
  return { ok, check, detail, checks };
}

/** CCW sections start on a 4 KiB boundary (docs/research/hef-format.md#container-layout: "so that the CCWs start 4 KiB-aligned"). */
export const CCW_ALIGNMENT = 4096;

/**
 * V3 plausibility: `hef_padding_size` (offset 28) is covered by no checksum — the hashes start after
 * the header — so a changed value moves the CCW section and every hash still matches. Every real V3
 * HEF pads the protobuf body with zeros up to the next 4 KiB boundary, exactly: anything else
 * means the config words the device gets are not the ones that were compiled.
 */
async function layoutCheck(src: ByteSource, c: HefContainer, problems: HefProblem[]): Promise<IntegrityCheck> {
  const padding = c.paddingSize ?? 0;
  const bodyEnd = c.headerSize + c.protoSize;
  const expected = (CCW_ALIGNMENT - (bodyEnd % CCW_ALIGNMENT)) % CCW_ALIGNMENT;
  const enforcedBy = 'none (a plausibility check: HailoRT reads the padding size without checking it)';
  const fail = (detail: string, message: string): IntegrityCheck => {
    problems.push({ code: 'hef/implausible-header', severity: 'error', area: 'integrity', offset: 28, message });
    return { name: 'layout', ok: false, detail, enforcedBy };
  };
  if (padding !== expected) {
    return fail(
      `hef_padding_size is ${n(padding)}, the CCW section would start at ${n(bodyEnd + padding)}; a compiler pads to ${n(bodyEnd + expected)} (4 KiB-aligned, padding ${n(expected)})`,
      `The header places the CCW section at ${n(bodyEnd + padding)}: hef_padding_size (offset 28) is ${n(padding)}, but every V3 HEF pads the protobuf body to the next 4 KiB boundary (padding ${n(expected)}, CCWs at ${n(bodyEnd + expected)}). No checksum covers this field, so the hashes can match while the device would get the wrong config words.`,
    );
  }
  const present = Math.max(0, Math.min(padding, src.size - bodyEnd));
  const bytes = present > 0 ? await src.read(bodyEnd, present) : new Uint8Array(0);
  const nonZero = bytes.findIndex((b) => b !== 0);
  if (nonZero >= 0) {
    return fail(
      `the padding [${n(bodyEnd)}, ${n(bodyEnd + padding)}) holds data (a non-zero byte at ${n(bodyEnd + nonZero)})`,
      `The padding before the CCW section [${n(bodyEnd)}, ${n(bodyEnd + padding)}) holds data (a non-zero byte at offset ${n(bodyEnd + nonZero)}); compilers write zeros there, so the header has probably moved the CCW section.`,
    );
  }
  return { name: 'layout', ok: true, detail: `CCW section at ${n(bodyEnd + padding)}, 4 KiB-aligned after ${n(padding)} bytes of zero padding`, enforcedBy };
}
