// What each HailoRT line does with a HEF at `Hef::create`: load it, refuse it with which status, or
// crash. The checks and their order are hef.cpp's (`parse_hef_file` for a path, `parse_hef_memview`
// for a buffer; v4.20.0, v4.21–v4.23.0, v5.0.0, v5.1.0–v5.2.0 read), and the answers were checked
// against a real libhailort 5.2.0 on every corpus HEF and its 108 damaged copies
// (../shared/corpus/hef/libhailort-5.2.0, test/unit/hef-verdict.test.ts). Damage a line tolerates
// is reported with its consequence: 5.1+ checks only the protobuf body's hash of a V3 file, so cut
// or flipped config words reach the device, which then fails to configure or computes garbage.
import { HEADER_SIZES, HEF_MAGIC } from './container';
import type { HefReport } from './model';
import type { HefProblem } from './problems';

export type RuntimeLineId = '4.20' | '4.21-4.23' | '5.0' | '5.1-5.2';

export interface RuntimeLine {
  id: RuntimeLineId;
  label: string;
  /** V3 with a non-zero proto hash: only the body's XXH3 is checked (5.1.0 on). */
  protoHashOnly: boolean;
  /** SUPPORTED_EXTENSIONS of hef_internal.hpp in that line. */
  extensions: ReadonlySet<number>;
}

// hef_internal.hpp SUPPORTED_EXTENSIONS, v4.20.0.
const EXT_4_20 = [0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29];
const EXT_4_21 = [...EXT_4_20, 30, 31, 32]; // CCW_PTR_SQUEEZE, EXTERNAL_RESOURCES, SHARED_CONFIG
const EXT_5_0 = [...EXT_4_21, 35]; // STRICT_RUNTIME_VERSIONING
const EXT_5_1 = [...EXT_5_0, 33, 34]; // CSM_CRC, ENABLE_CONFIG_CHANNELS

export const RUNTIME_LINES: readonly RuntimeLine[] = [
  { id: '4.20', label: 'HailoRT 4.20', protoHashOnly: false, extensions: new Set(EXT_4_20) },
  { id: '4.21-4.23', label: 'HailoRT 4.21–4.23', protoHashOnly: false, extensions: new Set(EXT_4_21) },
  { id: '5.0', label: 'HailoRT 5.0', protoHashOnly: false, extensions: new Set(EXT_5_0) },
  { id: '5.1-5.2', label: 'HailoRT 5.1–5.2', protoHashOnly: true, extensions: new Set(EXT_5_1) },
];

/** The HailoRT status names this module can give (hailort.h; numbering stable since 4.20). */
export const HEF_STATUS_NAMES: Record<number, string> = {
  2: 'HAILO_INVALID_ARGUMENT',
  7: 'HAILO_NOT_IMPLEMENTED',
  8: 'HAILO_INTERNAL_FAILURE',
  14: 'HAILO_FILE_OPERATION_FAILURE',
  26: 'HAILO_INVALID_HEF',
  61: 'HAILO_NOT_FOUND',
  91: 'HAILO_HEF_FILE_CORRUPTED',
  92: 'HAILO_HEF_NOT_SUPPORTED',
};

export function hefStatusName(status: number): string {
  return HEF_STATUS_NAMES[status] ?? `hailo_status ${status}`;
}

/** `Hef::create(path)` (file) or `Hef::create(MemoryView)` (buffer: llama.cpp's mtmd loader). */
export type OpenMode = 'file' | 'buffer';

export interface RuntimeVerdict {
  line: RuntimeLineId;
  label: string;
  mode: OpenMode;
  outcome: 'loads' | 'refuses' | 'crashes';
  /** For `refuses`: the hailo_status number and name. */
  status?: number;
  statusName?: string;
  /** One sentence: why (HailoRT's own words first where it has them). */
  reason: string;
  /** Damage this line lets through, each with its consequence. */
  tolerated: string[];
  /** Among the tolerated damage: config words (CCWs) cut or changed — the device fails or computes garbage. */
  damagesConfig?: boolean;
}

interface Raw {
  size: number;
  magic?: number;
  version?: number;
  protoSize?: number;
}

function rawHeader(report: HefReport): Raw {
  const c = report.container;
  if (c) return { size: report.fileSize, magic: c.magic, version: c.version, protoSize: c.protoSize };
  return { size: report.fileSize, magic: report.rawHeader?.magic, version: report.rawHeader?.version, protoSize: report.rawHeader?.protoSize };
}

const refuse = (status: number, reason: string): Omit<RuntimeVerdict, 'line' | 'label' | 'mode' | 'tolerated'> => ({
  outcome: 'refuses',
  status,
  statusName: hefStatusName(status),
  reason,
});

function check(report: HefReport, name: string): boolean | undefined {
  return report.integrity.checks.find((c) => c.name === name)?.ok;
}

const CCW_CONSEQUENCE = 'the device then gets config words that are not the compiled ones: configuring the network fails, or it runs and computes garbage';

/** The verdict of one HailoRT line on the report's file. */
export function verdictFor(report: HefReport, line: RuntimeLine, mode: OpenMode = 'file'): RuntimeVerdict {
  const tolerated: string[] = [];
  let damagesConfig = false;
  const out = (v: Omit<RuntimeVerdict, 'line' | 'label' | 'mode' | 'tolerated'>): RuntimeVerdict => ({
    line: line.id,
    label: line.label,
    mode,
    tolerated,
    ...(damagesConfig ? { damagesConfig } : {}),
    ...v,
  });
  const raw = rawHeader(report);
  const c = report.container;

  // 1. The common header (magic, version, proto size) and the version's own header part.
  if (mode === 'buffer' && raw.size < 56) {
    return out(refuse(91, `Invalid HEF header: the buffer is ${raw.size} bytes, less than the 56-byte header HailoRT reads from a buffer.`));
  }
  if (raw.size < 12 || raw.version === undefined) return out(refuse(14, `The 12-byte common header cannot be read: the file is ${raw.size} bytes.`));
  const headerSize = HEADER_SIZES[raw.version];
  if (headerSize === undefined) return out(refuse(92, `Unsupported hef version ${raw.version} (the header's version field at offset 4; HailoRT reads 0-3).`));
  if (raw.size < headerSize)
    return out(refuse(14, `The version-${raw.version} header is ${headerSize} bytes but the file has only ${raw.size}: reading it fails.`));
  if (!c) return out(refuse(14, 'The header cannot be read.'));
  const magicOk = raw.magic === HEF_MAGIC;
  const lengthOk = check(report, 'length') !== false;
  const fullHashName = c.version === 0 ? 'md5' : c.version === 1 ? 'crc32' : 'xxh3';
  const fullHashOk = check(report, fullHashName) !== false;
  const hashWord = c.version === 0 ? 'md5' : c.version === 1 ? 'crc' : 'xxhash';

  // 2. Integrity, per container version and line.
  const protoHash = c.version === 3 && line.protoHashOnly && !!c.protoXxh3 && !/^0+$/.test(c.protoXxh3);
  if (c.version === 3 && mode === 'buffer' && (c.ccwsSizeWithPadding ?? 0) < (c.paddingSize ?? 0)) {
    return out(refuse(91, 'Invalid HEF - ccws size is smaller than padding size.'));
  }
  if (protoHash) {
    if (c.headerSize + c.protoSize > raw.size) {
      return out(
        mode === 'file'
          ? refuse(14, `The protobuf body [56, ${56 + c.protoSize}) runs past the end of the file (${raw.size} bytes): reading it for its hash fails.`)
          : refuse(
              91,
              `HEF proto xxhash does not match: the protobuf body runs past the end of the buffer (${raw.size} bytes), so libhailort hashes bytes that are not the file's.`,
            ),
      );
    }
    if (check(report, 'proto-xxh3') === false) return out(refuse(91, 'HEF proto xxhash does not match: the protobuf body is not the one the header hashes.'));
    // What 5.1+ does not check on such a file (the source: "CCW - on FW, external resources - hef parsing").
    if (!magicOk) tolerated.push(`a wrong magic (offset 0 holds ${hex8(raw.magic)}): ${line.label} does not check it on a V3 file with a proto hash`);
    if (!lengthOk) {
      const short = raw.size < c.expectedFileSize;
      damagesConfig = short;
      tolerated.push(
        short
          ? `a file cut inside its config words (${raw.size} of ${c.expectedFileSize} bytes): ${line.label} checks only the protobuf body's hash, so ${CCW_CONSEQUENCE}`
          : `${raw.size - c.expectedFileSize} bytes after the end the header gives (${c.expectedFileSize}): not checked; nothing reads them`,
      );
    } else if (!fullHashOk) {
      damagesConfig = true;
      tolerated.push(
        `config words or the tail that do not match the whole-file hash: ${line.label} checks only the protobuf body's hash, so ${CCW_CONSEQUENCE}`,
      );
    }
  } else {
    if (!magicOk) return out(refuse(92, `HEF magic does not match: offset 0 holds ${hex8(raw.magic)}, expected 0x01484546.`));
    if (!lengthOk) return out(refuse(91, `HEF file length does not match: the header accounts for ${c.expectedFileSize} bytes, the file has ${raw.size}.`));
    if (!fullHashOk) return out(refuse(91, `HEF ${hashWord} does not match: the bytes after the header are not the ones the header hashes.`));
  }

  // 3. The protobuf body.
  if (!report.protoComplete) return out(refuse(91, 'Failed parsing HEF file: the protobuf body does not decode.'));

  // 4. Structure, per core op, in HailoRT's order (the first fault decides).
  const structural = report.problems.find(
    (p) => p.area === 'compat' && p.severity !== 'info' && (p.crash || p.status !== undefined) && !EXTENSION_CODES.has(p.code),
  );
  if (structural?.crash) return { ...out({ outcome: 'crashes', reason: structural.message }) };
  if (structural?.status !== undefined) return out(refuse(structural.status, structural.message));

  // 5. Extensions, checked after the networks are parsed (validate_hef_extensions).
  const unsupported = report.extensions.filter((e) => !e.optional && !line.extensions.has(e.id));
  if (unsupported.length) {
    return out(
      refuse(
        92,
        `Failed opening non-compatible HEF with the following unsupported extensions: ${unsupported.map((e) => e.label || e.name).join(', ')} (type ${unsupported.map((e) => e.id).join(', ')}; ${line.label} does not know ${unsupported.length === 1 ? 'it' : 'them'}).`,
      ),
    );
  }
  const periph = (report.header?.protoVersion ?? 0) > 0 && report.extensions.some((e) => !e.optional && e.id === 26);
  if (!periph) {
    return out(
      refuse(
        92,
        'Hef has periph_calculation_in_hailort feature disabled - this HEF is outdated and no longer supported (extension 26 PERIPH_CALCULATION_IN_HAILORT is missing): recompile it with a current Dataflow Compiler.',
      ),
    );
  }
  return out({
    outcome: 'loads',
    reason: tolerated.length ? `loads, tolerating ${tolerated.length === 1 ? 'one fault' : `${tolerated.length} faults`}` : 'loads',
  });
}

const EXTENSION_CODES = new Set(['hef/unsupported-extension', 'hef/outdated']);

function hex8(v: number | undefined): string {
  return v === undefined ? '?' : '0x' + v.toString(16).toUpperCase().padStart(8, '0');
}

/** Every line's verdict. */
export function hefVerdicts(report: HefReport, mode: OpenMode = 'file'): RuntimeVerdict[] {
  return RUNTIME_LINES.map((l) => verdictFor(report, l, mode));
}

/** Hailo-8/8L/8R HEFs run on HailoRT 4.x (the hailo8 branch); Hailo-10/15 on 5.x. */
const HAILO8_ARCHS = new Set([0, 1, 2, 3, 100, 101, 102]);

/** The line the file's architecture targets: its newest release. */
export function targetLine(report: HefReport): RuntimeLine {
  const arch = report.header?.hwArch.id;
  return RUNTIME_LINES.find((l) => l.id === (arch !== undefined && HAILO8_ARCHS.has(arch) ? '4.21-4.23' : '5.1-5.2'))!;
}

/** The line a HailoRT library version belongs to (`5.2.0` → 5.1–5.2); undefined before 4.20. */
export function lineOfVersion(version: string): RuntimeLine | undefined {
  const m = /^(\d+)\.(\d+)/.exec(version);
  if (!m) return undefined;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  if (major === 4 && minor === 20) return RUNTIME_LINES[0];
  if (major === 4 && minor > 20) return RUNTIME_LINES[1];
  if (major === 5 && minor === 0) return RUNTIME_LINES[2];
  if (major >= 5) return RUNTIME_LINES[3];
  return undefined;
}

/** One sentence for a verdict: "HailoRT 5.1–5.2 refuses it with 91 HAILO_HEF_FILE_CORRUPTED: …". */
export function verdictSentence(v: RuntimeVerdict): string {
  if (v.outcome === 'loads') return `${v.label} loads it${v.tolerated.length ? `, although it has ${v.tolerated.join('; and ')}` : ''}.`;
  if (v.outcome === 'crashes') return `${v.label} crashes on it: ${v.reason}`;
  return `${v.label} refuses it with ${v.status} ${v.statusName}: ${v.reason}`;
}

/** Problems a line tolerates become warnings naming who refuses them; the ones it does not stay errors. */
export function applyTargetSeverity(report: HefReport, verdicts: RuntimeVerdict[]): void {
  const target = verdicts.find((v) => v.line === targetLine(report).id);
  if (!target || target.outcome !== 'loads') return;
  const refusing = verdicts.filter((v) => v.outcome !== 'loads');
  const who = refusing.length
    ? ` ${refusing.map((v) => (v.outcome === 'refuses' ? `${v.label} refuses it with ${v.status} ${v.statusName}` : `${v.label} crashes`)).join('; ')}.`
    : '';
  for (const p of report.problems) {
    if (p.severity !== 'error' || !TOLERABLE.has(p.code)) continue;
    p.severity = 'warning';
    p.message = `${p.message} ${target.label} opens it anyway (for a V3 file with a proto hash it checks only the protobuf body)${CCW_CODES.has(p.code) ? `, but ${CCW_CONSEQUENCE}` : ''}.${who}`;
  }
}

/** Container and checksum findings some line may let through (the body is intact and hashed). */
const TOLERABLE = new Set(['hef/bad-magic', 'hef/truncated', 'hef/trailing-bytes', 'hef/checksum', 'hef/implausible-header']);
const CCW_CODES = new Set(['hef/truncated', 'hef/checksum', 'hef/implausible-header']);

export type { HefProblem };
