// What each HailoRT release does with a HEF at `Hef::create`: load it, refuse it with which status,
// or crash. The checks and their order are hef.cpp's (`parse_hef_file` for a path,
// `parse_hef_memview` for a buffer), read tag by tag, v4.18.0 … v5.2.0, and the answers of the 5.x
// rules were checked against a real libhailort 5.2.0 on every corpus HEF and its 108 damaged
// copies (../shared/corpus/hef/libhailort-5.2.0, test/unit/hef/hef-verdict.test.ts). What changes
// between releases (rulesOf):
// - statuses: 91 HAILO_HEF_FILE_CORRUPTED / 92 HAILO_HEF_NOT_SUPPORTED / 93 exist from 4.21.0
//   (hailort.h); before, the same checks answer 26 HAILO_INVALID_HEF;
// - header versions: 4.18–4.19 read V0 and V1, and read any other version as V1, whose check then
//   fails (validate_hef_header: magic 26, then "HEF version does not match", 8); 4.20 reads V0–V2
//   (V3: "Unsupported hef version", 26); 4.21 on read V0–V3 (V4+: 92);
// - the smallest buffer Hef::create(MemoryView) takes is sizeof(hef__header_t): 32, 44, 56 bytes;
// - 5.1.0 on check only the protobuf body's XXH3 of a V3 file that carries one;
// - the outdated-HEF refusal (no PERIPH_CALCULATION_IN_HAILORT, 92) exists from 4.21.0;
// - SUPPORTED_EXTENSIONS (hef_internal.hpp): 4.21 adds 30-32, 5.0.0 adds 35, 5.0.1 adds 33-34;
// - parse_action: the debug action from 4.19.0, allow_config_channels / disable_data_channels from
//   5.0.1 (before: "Action N not implemented", 8) — structural findings carry `since`/`before`.
// A line (4.18–4.19, 4.20, 4.21–4.23, 5.0, 5.1–5.2) is judged at its newest release; a release of
// the line that answers otherwise is named in `others`. Damage a release tolerates is reported with
// its consequence: 5.1+ checks only the protobuf body's hash of a V3 file, so cut or flipped config
// words reach the device, which then fails to configure or computes garbage.
// Releases past the source (4.24, 5.3, 5.4, and any newer one) are judged by the nearest release read
// here plus what the release catalogue (server/src/core/releases) has on record; the verdict says so
// (`judgedBy`). Nothing is refused for being new.
import { judgeRelease, parseRelease, releaseHas, releaseUsageError } from '../releases';
import { HEADER_SIZES, HEF_MAGIC } from './container';
import type { HefReport } from './model';
import type { HefProblem } from './problems';
import type { OpenMode, RuntimeLineId, RuntimeVerdict } from './types';

export interface RuntimeLine {
  id: RuntimeLineId;
  label: string;
  /** The releases of the line (tags of github.com/hailo-ai/hailort), oldest first; judged at the last. */
  releases: readonly string[];
}

export const RUNTIME_LINES: readonly RuntimeLine[] = [
  { id: '4.18-4.19', label: 'HailoRT 4.18–4.19', releases: ['4.18.0', '4.19.0'] },
  { id: '4.20', label: 'HailoRT 4.20', releases: ['4.20.0', '4.20.1'] },
  { id: '4.21-4.23', label: 'HailoRT 4.21–4.23', releases: ['4.21.0', '4.22.0', '4.23.0'] },
  { id: '5.0', label: 'HailoRT 5.0', releases: ['5.0.0', '5.0.1'] },
  { id: '5.1-5.2', label: 'HailoRT 5.1–5.2', releases: ['5.1.0', '5.1.1', '5.2.0'] },
];

/** `4.20.1` → 42001 (major, minor, revision; missing parts 0). */
export function versionNumber(version: string): number {
  const [a, b, c] = version.split('.').map((x) => Number.parseInt(x, 10) || 0);
  return a * 10000 + (b ?? 0) * 100 + (c ?? 0);
}

/** What one HailoRT release's Hef::create checks (see the header of this file for the sources). */
export interface RuntimeRules {
  version: string;
  /** 91/92/93 exist (4.21.0 on); before, those checks answer 26. */
  newStatuses: boolean;
  /** The newest header version it reads (1, 2 or 3); 4.18–4.19 read any newer one as V1. */
  newestHeader: number;
  /** sizeof(hef__header_t): the smallest buffer Hef::create(MemoryView) accepts. */
  bufferHeaderMin: number;
  /** V3 with a non-zero proto hash: only the body's XXH3 is checked (5.1.0 on). */
  protoHashOnly: boolean;
  /** Refuses a HEF without PERIPH_CALCULATION_IN_HAILORT as outdated (4.21.0 on). */
  outdatedCheck: boolean;
  /** SUPPORTED_EXTENSIONS of hef_internal.hpp. */
  extensions: ReadonlySet<number>;
}

// hef_internal.hpp SUPPORTED_EXTENSIONS: v4.18.0-v4.20.1 (the same list), then what each release adds.
const EXT_4_18 = [0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29];

export function rulesOf(version: string): RuntimeRules {
  const v = versionNumber(version);
  const extensions = new Set(EXT_4_18);
  if (v >= 42100) [30, 31, 32].forEach((e) => extensions.add(e)); // CCW_PTR_SQUEEZE, EXTERNAL_RESOURCES, SHARED_CONFIG
  if (v >= 50000) extensions.add(35); // STRICT_RUNTIME_VERSIONING
  if (v >= 50001) [33, 34].forEach((e) => extensions.add(e)); // CSM_CRC, ENABLE_CONFIG_CHANNELS
  return {
    version,
    newStatuses: v >= 42100,
    newestHeader: v >= 42100 ? 3 : v >= 42000 ? 2 : 1,
    bufferHeaderMin: v >= 42100 ? 56 : v >= 42000 ? 44 : 32,
    protoHashOnly: v >= 50100,
    outdatedCheck: v >= 42100,
    extensions,
  };
}

/** Does a structural finding hold in this release (its `since` / `before` range, from the tags)? */
export function holdsIn(p: Pick<HefProblem, 'since' | 'before'>, version: string): boolean {
  const v = versionNumber(version);
  return (p.since === undefined || v >= versionNumber(p.since)) && (p.before === undefined || v < versionNumber(p.before));
}

/** The HailoRT status names this module can give (hailort.h). */
export const HEF_STATUS_NAMES: Record<number, string> = {
  2: 'HAILO_INVALID_ARGUMENT',
  7: 'HAILO_NOT_IMPLEMENTED',
  8: 'HAILO_INTERNAL_FAILURE',
  14: 'HAILO_FILE_OPERATION_FAILURE',
  26: 'HAILO_INVALID_HEF',
  61: 'HAILO_NOT_FOUND',
  91: 'HAILO_HEF_FILE_CORRUPTED',
  92: 'HAILO_HEF_NOT_SUPPORTED',
  93: 'HAILO_HEF_NOT_COMPATIBLE_WITH_DEVICE',
};

export function hefStatusName(status: number): string {
  return HEF_STATUS_NAMES[status] ?? `hailo_status ${status}`;
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

const refuse = (status: number, reason: string): Pick<RuntimeVerdict, 'outcome' | 'status' | 'statusName' | 'reason'> => ({
  outcome: 'refuses',
  status,
  statusName: hefStatusName(status),
  reason,
});

function check(report: HefReport, name: string): boolean | undefined {
  return report.integrity.checks.find((c) => c.name === name)?.ok;
}

const CCW_CONSEQUENCE = 'the device then gets config words that are not the compiled ones: configuring the network fails, or it runs and computes garbage';

/**
 * The line a release belongs to: the newest line of its major at or before it (4.24 → 4.21–4.23,
 * 5.3 → 5.1–5.2); another major goes to the nearest line. undefined only before 4.18.
 */
export function lineOfRelease(version: string): RuntimeLine | undefined {
  const v = versionNumber(version);
  if (v < 41800) return undefined;
  const major = Math.floor(v / 10000);
  const sameMajor = RUNTIME_LINES.filter((l) => Math.floor(versionNumber(l.releases[0]) / 10000) === major);
  const atOrBefore = sameMajor.filter((l) => versionNumber(l.releases[0]) <= v);
  if (atOrBefore.length) return atOrBefore[atOrBefore.length - 1];
  return major > 5 ? RUNTIME_LINES[RUNTIME_LINES.length - 1] : RUNTIME_LINES[0];
}

/** The release whose Hef::create was read from source that judges `version` (4.24.1 → 4.23.0). */
function sourceReleaseOf(version: string): string | undefined {
  const line = lineOfRelease(version);
  if (!line) return undefined;
  const v = versionNumber(version);
  const newest = line.releases[line.releases.length - 1];
  return v > versionNumber(newest) ? newest : undefined;
}

/** The compiler version a HEF records (header sdk_version), when it says one. */
function compilerOf(report: HefReport): { major: number; minor: number } | undefined {
  const v = parseRelease(report.header?.compilerVersion ?? '');
  return v && (v.major > 0 || v.minor > 0) ? v : undefined;
}

/** The verdict of one HailoRT release (X.Y.Z) on the report's file. */
export function verdictAt(report: HefReport, version: string, mode: OpenMode = 'file'): RuntimeVerdict {
  // Past the source: the newest source-read release's checks, plus what is on record after it.
  const source = sourceReleaseOf(version);
  const r = rulesOf(source ?? version);
  const line = lineOfRelease(version) ?? RUNTIME_LINES[0];
  const label = `HailoRT ${version}`;
  const judgedBy = source || versionNumber(version) < 41800 ? judgeRelease('hailort', version, ['hef']).sentence : undefined;
  const tolerated: string[] = [];
  let damagesConfig = false;
  const out = (v: Pick<RuntimeVerdict, 'outcome' | 'status' | 'statusName' | 'reason' | 'unreadableVersion'>): RuntimeVerdict => ({
    line: line.id,
    label,
    version,
    mode,
    tolerated,
    ...(damagesConfig ? { damagesConfig } : {}),
    ...(judgedBy ? { judgedBy } : {}),
    ...v,
  });
  // 91/92/93 came with 4.21.0; the same checks answered 26 before.
  const st = (status: number) => (r.newStatuses || (status !== 91 && status !== 92 && status !== 93) ? status : 26);
  const raw = rawHeader(report);
  const c = report.container;

  // 1. The common header (magic, version, proto size) and the version's own header part.
  if (mode === 'buffer' && raw.size < r.bufferHeaderMin) {
    return out(
      refuse(
        st(91),
        `Invalid HEF header: the buffer is ${raw.size} bytes, less than the ${r.bufferHeaderMin}-byte header ${label} reads from a buffer (sizeof(hef__header_t)).`,
      ),
    );
  }
  if (raw.size < 12 || raw.version === undefined) return out(refuse(14, `The 12-byte common header cannot be read: the file is ${raw.size} bytes.`));
  // 4.18–4.19 have two branches, V0 and "else" (V1): any other version is read as V1.
  const readAs = raw.version <= r.newestHeader ? raw.version : r.newestHeader === 1 ? 1 : undefined;
  if (readAs === undefined) {
    return out({
      unreadableVersion: true,
      ...refuse(
        st(92),
        `Unsupported hef version ${raw.version} (the header's version field at offset 4; ${label} reads ${r.newestHeader === 2 ? 'versions 0-2: version 3 is what the Dataflow Compiler 5.x writes' : '0-3'}).`,
      ),
    });
  }
  const headerSize = HEADER_SIZES[readAs];
  if (raw.size < headerSize) return out(refuse(14, `The version-${readAs} header is ${headerSize} bytes but the file has only ${raw.size}: reading it fails.`));
  const magicOk = raw.magic === HEF_MAGIC;
  if (readAs !== raw.version) {
    // validate_hef_header of V1: the magic, then the version.
    if (!magicOk) return out(refuse(26, `HEF magic does not match: offset 0 holds ${hex8(raw.magic)}, expected 0x01484546.`));
    return out({
      unreadableVersion: true,
      ...refuse(
        8,
        `HEF version does not match. Should be 1 but detected ${raw.version}: ${label} reads header versions 0 and 1 only (it reads this one as version 1, then refuses it)${raw.version === 2 || raw.version === 3 ? `; version ${raw.version} is read from HailoRT ${raw.version === 2 ? '4.20' : '4.21'} on` : ''}.`,
      ),
    });
  }
  if (!c) return out(refuse(14, 'The header cannot be read.'));
  const lengthOk = check(report, 'length') !== false;
  const fullHashName = c.version === 0 ? 'md5' : c.version === 1 ? 'crc32' : 'xxh3';
  const fullHashOk = check(report, fullHashName) !== false;
  const hashWord = c.version === 0 ? 'md5' : c.version === 1 ? 'crc' : 'xxhash';

  // 2. Integrity, per container version and release.
  const protoHash = c.version === 3 && r.protoHashOnly && !!c.protoXxh3 && !/^0+$/.test(c.protoXxh3);
  if (c.version === 3 && mode === 'buffer' && (c.ccwsSizeWithPadding ?? 0) < (c.paddingSize ?? 0)) {
    return out(refuse(st(91), 'Invalid HEF - ccws size is smaller than padding size.'));
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
    if (!magicOk) tolerated.push(`a wrong magic (offset 0 holds ${hex8(raw.magic)}): ${label} does not check it on a V3 file with a proto hash`);
    if (!lengthOk) {
      const short = raw.size < c.expectedFileSize;
      damagesConfig = short;
      tolerated.push(
        short
          ? `a file cut inside its config words (${raw.size} of ${c.expectedFileSize} bytes): ${label} checks only the protobuf body's hash, so ${CCW_CONSEQUENCE}`
          : `${raw.size - c.expectedFileSize} bytes after the end the header gives (${c.expectedFileSize}): not checked; nothing reads them`,
      );
    } else if (!fullHashOk) {
      damagesConfig = true;
      tolerated.push(`config words or the tail that do not match the whole-file hash: ${label} checks only the protobuf body's hash, so ${CCW_CONSEQUENCE}`);
    }
  } else {
    if (!magicOk) return out(refuse(st(92), `HEF magic does not match: offset 0 holds ${hex8(raw.magic)}, expected 0x01484546.`));
    if (!lengthOk) return out(refuse(st(91), `HEF file length does not match: the header accounts for ${c.expectedFileSize} bytes, the file has ${raw.size}.`));
    if (!fullHashOk) return out(refuse(st(91), `HEF ${hashWord} does not match: the bytes after the header are not the ones the header hashes.`));
  }

  // 3. The protobuf body.
  if (!report.protoComplete) return out(refuse(st(91), 'Failed parsing HEF file: the protobuf body does not decode.'));

  // 4. Structure, per core op, in HailoRT's order (the first fault that holds in this release decides).
  const holds = (p: HefProblem) =>
    p.area === 'compat' && p.severity !== 'info' && (p.crash || p.status !== undefined) && !EXTENSION_CODES.has(p.code) && holdsIn(p, version);
  const structural = report.problems.find((p) => holds(p) && !AFTER_CREATE_CODES.has(p.code));
  if (structural?.crash) return out({ outcome: 'crashes', reason: structural.message });
  if (structural?.status !== undefined) return out(refuse(st(structural.status), structural.message));

  // 4b. HEFs from DFC 3.34 on need HailoRT 4.24 on the 4.x line: older 4.x answered HAILO_INVALID_HEF
  // (a user's deploy note, docs/research/hailo-users.md#which-hef-runs-where row 4; which check refuses is not public).
  const dfc = compilerOf(report);
  if (dfc && dfc.major === 3 && dfc.minor >= 34 && Math.floor(versionNumber(version) / 10000) === 4 && !releaseHas('hailort', version, 'hef-dfc-3.34')) {
    return out(
      refuse(
        26,
        `this HEF was compiled by Dataflow Compiler ${report.header?.compilerVersion}, and HEFs from DFC 3.34 on need HailoRT 4.24 or newer: ${label} refuses them (users report HAILO_INVALID_HEF); install HailoRT 4.24, or compile with DFC 3.33 or older.`,
      ),
    );
  }

  // 5. Extensions, checked after the networks are parsed (validate_hef_extensions).
  const unsupported = report.extensions.filter((e) => !e.optional && !r.extensions.has(e.id));
  if (unsupported.length) {
    return out(
      refuse(
        st(92),
        `Failed opening non-compatible HEF with the following unsupported extensions: ${unsupported.map((e) => e.label || e.name).join(', ')} (type ${unsupported.map((e) => e.id).join(', ')}; ${label} does not know ${unsupported.length === 1 ? 'it' : 'them'}).`,
      ),
    );
  }
  const periph = (report.header?.protoVersion ?? 0) > 0 && report.extensions.some((e) => !e.optional && e.id === 26);
  if (!periph && r.outdatedCheck) {
    return out(
      refuse(
        92,
        'Hef has periph_calculation_in_hailort feature disabled - this HEF is outdated and no longer supported (extension 26 PERIPH_CALCULATION_IN_HAILORT is missing): recompile it with a current Dataflow Compiler.',
      ),
    );
  }
  // 6. Hef::create returned; the first lookup by name crashes.
  const late = report.problems.find((p) => holds(p) && AFTER_CREATE_CODES.has(p.code));
  if (late) return out({ outcome: 'crashes', reason: late.message });
  return out({
    outcome: 'loads',
    reason: tolerated.length ? `loads, tolerating ${tolerated.length === 1 ? 'one fault' : `${tolerated.length} faults`}` : 'loads',
  });
}

/** The verdict of a line: its newest release's, naming the releases of the line that answer otherwise. */
export function verdictFor(report: HefReport, line: RuntimeLine, mode: OpenMode = 'file'): RuntimeVerdict {
  const all = line.releases.map((v) => verdictAt(report, v, mode));
  const newest = all[all.length - 1];
  const others = all
    .slice(0, -1)
    .filter((v) => v.outcome !== newest.outcome || v.status !== newest.status)
    .map((v) => ({
      version: v.version,
      outcome: v.outcome,
      reason: v.reason,
      ...(v.status !== undefined ? { status: v.status, statusName: v.statusName } : {}),
    }));
  return { ...newest, label: line.label, ...(others.length ? { others } : {}) };
}

const EXTENSION_CODES = new Set(['hef/unsupported-extension', 'hef/outdated']);
/** Faults Hef::create lets through that crash the first lookup by name (a run asks at once). */
const AFTER_CREATE_CODES = new Set(['hef/no-partial-network-groups']);

function hex8(v: number | undefined): string {
  return v === undefined ? '?' : '0x' + v.toString(16).toUpperCase().padStart(8, '0');
}

/** Every line's verdict. */
export function hefVerdicts(report: HefReport, mode: OpenMode = 'file'): RuntimeVerdict[] {
  return RUNTIME_LINES.map((l) => verdictFor(report, l, mode));
}

/** Hailo-8/8L/8R HEFs run on HailoRT 4.x (the hailo8 branch); Hailo-10/15 on 5.x. */
const HAILO8_ARCHS = new Set([0, 1, 2, 3, 100, 101, 102]);

/** The line the file's architecture targets: its newest release line (4.21–4.23 for the Hailo-8 family). */
export function targetLine(report: HefReport): RuntimeLine {
  const arch = report.header?.hwArch.id;
  return RUNTIME_LINES.find((l) => l.id === (arch !== undefined && HAILO8_ARCHS.has(arch) ? '4.21-4.23' : '5.1-5.2'))!;
}

/**
 * Why `version` cannot be judged (one sentence), or undefined: any release X.Y.Z (or X.Y) is judged —
 * a release past the rules read here by the nearest one plus what is on record (judgeRelease). Only
 * a string that is no version is refused.
 */
export function releaseRefusal(version: string): string | undefined {
  return releaseUsageError('hailort', version);
}

/** `5.3` → `5.3.0`, `v4.24.0-1` → `4.24.0`: the form the verdicts use. */
export function normalRelease(version: string): string {
  const v = parseRelease(version);
  return v ? `${v.major}.${v.minor}.${v.revision}` : version;
}

/**
 * The release a file's own compiler needs past its target line (a DFC 3.34 HEF → 4.24.0), when the
 * line's newest release would refuse it for that alone.
 */
export function neededRelease(report: HefReport): string | undefined {
  const dfc = compilerOf(report);
  return dfc && dfc.major === 3 && dfc.minor >= 34 && targetLine(report).id === '4.21-4.23' ? '4.24.0' : undefined;
}

/** The line a HailoRT library version belongs to (`5.2.0` → 5.1–5.2); undefined before 4.18. */
export function lineOfVersion(version: string): RuntimeLine | undefined {
  return /^\d+\.\d+/.test(version) ? lineOfRelease(version) : undefined;
}

/** One sentence for a verdict: "HailoRT 5.1–5.2 refuses it with 91 HAILO_HEF_FILE_CORRUPTED: …". */
export function verdictSentence(v: RuntimeVerdict): string {
  const main =
    v.outcome === 'loads'
      ? `${v.label} loads it${v.tolerated.length ? `, although it has ${v.tolerated.join('; and ')}` : ''}.`
      : v.outcome === 'crashes'
        ? `${v.label} crashes on it: ${v.reason}`
        : `${v.label} refuses it with ${v.status} ${v.statusName}: ${v.reason}`;
  const others = (v.others ?? []).map((o) =>
    o.outcome === 'loads'
      ? `HailoRT ${o.version} loads it`
      : o.outcome === 'crashes'
        ? `HailoRT ${o.version} crashes on it`
        : `HailoRT ${o.version} refuses it with ${o.status} ${o.statusName}`,
  );
  return others.length ? `${main} (${others.join('; ')}.)` : main;
}

/**
 * Problems the target release does not refuse become warnings naming who does: structural faults of
 * other releases only (`since`/`before`), and damage a line tolerates; the others stay errors.
 */
export function applyTargetSeverity(report: HefReport, verdicts: RuntimeVerdict[], chosen?: RuntimeVerdict): void {
  const target = chosen ?? verdicts.find((v) => v.line === targetLine(report).id);
  if (!target) return;
  const whose = chosen ? `the chosen ${target.label}` : `the target ${target.label}`;
  for (const p of report.problems) {
    if (p.severity !== 'error' || p.area !== 'compat' || (p.since === undefined && p.before === undefined) || holdsIn(p, target.version)) continue;
    p.severity = 'warning';
    const range = p.since && p.before ? `${p.since} up to ${p.before}` : p.since ? `${p.since} on` : `before ${p.before}`;
    p.message = `${p.message.replace(/\.$/, '')} — HailoRT ${range} only; ${whose} does not refuse it for this.`;
  }
  if (target.outcome !== 'loads') return;
  // Lines that cannot read this container version at all are not "refusing the damage".
  const refusing = verdicts.filter((v) => v.outcome !== 'loads' && !v.unreadableVersion);
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

export type { HefProblem, OpenMode, RuntimeLineId, RuntimeVerdict };
