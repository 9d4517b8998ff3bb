// Entry point of the HEF core: container → integrity → protobuf body → facts → resources.
// Never throws for a bad file: every failure becomes a problem and the report keeps whatever was
// read before (and beside) it.
import type { FileRoots } from '../common/confined';
import { MAX_HEADER_SIZE, parseContainer, protoComplete } from './container';
import { extensionProblems, extensionsOf, featuresOf, headerInfo, networkGroupsOf } from './facts';
import { verifyIntegrity, type IntegrityReport } from './integrity';
import type { HefReport } from './model';
import { n, type HefProblem } from './problems';
import { decodeLenient, type LenientResult, type Msg } from './protoDecode';
import { resourcesOf, verifyResources } from './resources';
import { decodeHefBody, hefType } from './schema';
import { fileSource, type ByteSource } from './source';
import { structureProblems } from './structure';
import { applyTargetSeverity, hefVerdicts, neededRelease, normalRelease, targetLine, verdictAt } from './verdict';
import type { RuntimeVerdict } from './types';
import { limit, limitMessage } from '../common/limits';
import { pushAll } from '../common/arrays';

export interface ReadOptions {
  /** Run the container checksums (default true). Off only for callers that verify separately. */
  verify?: boolean;
  /** Verify external-resource checksums (default true). */
  verifyResources?: boolean;
  /**
   * Judge the file by this HailoRT release (X.Y.Z, checked with releaseRefusal) instead of the line
   * its architecture targets: the exit rule and the errors follow it; every line's verdict stays.
   */
  hailortVersion?: string;
  /** Where the file may live (a HEF found beside a script: the script's roots); default its own folder. */
  roots?: FileRoots;
}

const NOT_CHECKED: IntegrityReport = { ok: false, check: 'none', detail: 'not checked', checks: [] };

export async function readHef(src: ByteSource, options: ReadOptions = {}): Promise<HefReport> {
  const report = await readParts(src, options);
  // Judged last: the verdicts need every finding, and tolerated damage becomes a warning.
  const verdicts = hefVerdicts(report);
  // Asked for a release, or the file's own compiler needs a release past its line's newest (DFC 3.34 → 4.24).
  const needed = options.hailortVersion ? undefined : neededRelease(report);
  const release = options.hailortVersion ? normalRelease(options.hailortVersion) : needed;
  const chosen = release ? verdictAt(report, release) : undefined;
  report.runtime = {
    target: targetLine(report).id,
    verdicts,
    ...(chosen ? { chosen } : {}),
    ...(needed ? { chosenFor: `the release its compiler, DFC ${report.header?.compilerVersion}, needs` } : {}),
  };
  applyTargetSeverity(report, verdicts, chosen);
  return report;
}

async function readParts(src: ByteSource, options: ReadOptions): Promise<HefReport> {
  const problems: HefProblem[] = [];
  const report: HefReport = {
    file: src.name,
    fileSize: src.size,
    integrity: { ...NOT_CHECKED },
    extensions: [],
    networkGroups: [],
    externalResources: [],
    protoComplete: false,
    problems,
  };
  const head = await src.read(0, MAX_HEADER_SIZE);
  const { container, raw, problems: containerProblems } = parseContainer(head, src.size);
  pushAll(problems, containerProblems);
  if (raw) report.rawHeader = raw;
  if (!container) {
    report.integrity = { ok: false, check: 'none', detail: containerProblems[0]?.message ?? 'not a HEF', checks: [] };
    return report;
  }
  report.container = container;
  if (options.verify !== false) report.integrity = await verifyIntegrity(src, container, problems);

  if (container.protoEnd <= container.protoStart) {
    problems.push({
      code: 'hef/proto',
      severity: 'error',
      area: 'proto',
      offset: container.protoStart,
      message: `No protobuf body: it should start at offset ${container.protoStart}${container.protoSize === 0 ? ' but hef_proto_size is 0' : ' but the file ends there'}.`,
    });
    return report;
  }
  if (container.protoEnd - container.protoStart > limit('hefProtoBytes')) {
    problems.push({
      code: 'hef/limit',
      severity: 'error',
      area: 'proto',
      offset: container.protoStart,
      message: limitMessage(
        'hefProtoBytes',
        `The protobuf body [${n(container.protoStart)}, ${n(container.protoEnd)})`,
        container.protoEnd - container.protoStart,
      ),
    });
    return report;
  }
  const body = await src.read(container.protoStart, container.protoEnd - container.protoStart);
  const whole = protoComplete(container);
  const before = problems.length;
  // A body cut short or damaged is refused by HailoRT before its structure is looked at: salvage it
  // without the context operations (decoding every CCW action field by field is what costs).
  let decoded: LenientResult | undefined;
  if (whole) {
    try {
      decoded = { message: decodeHefBody(body) as Msg, complete: true };
    } catch {
      // damaged: salvaged below
    }
  }
  decoded ??= decodeLenient(hefType('Hef', true), body, container.protoStart, 'ProtoHEFHef', problems, !whole);
  report.protoComplete = decoded.complete && whole;
  if (!decoded.complete && whole) {
    // HailoRT's words first, then ours (which field, which offset).
    problems.splice(before, 0, {
      code: 'hef/proto',
      severity: 'error',
      area: 'proto',
      offset: container.protoStart,
      message: `Failed parsing HEF file: the protobuf body [${container.protoStart}, ${container.protoStart + container.protoSize}) is damaged; what follows was read around the damage.`,
    });
  }
  const hef = decoded.message;
  const header = headerInfo(hef);
  report.header = header;
  report.extensions = extensionsOf(hef);
  const extensionsRead = report.protoComplete || report.extensions.length > 0;
  const features = featuresOf(hef, header?.protoVersion ?? 0, report.extensions, extensionsRead, problems);
  // The extension rules need the whole list; on a partial body the list may simply be unread.
  if (report.protoComplete) extensionProblems(report.extensions, features, problems);
  // HailoRT parses every context's operations and edge layers before anything else of a group
  // (a body it cannot parse it refuses before that, so a partial one is not judged here).
  if (report.protoComplete) structureProblems(hef, container.version, header?.hwArch.id ?? -1, features.netFlow, problems);
  report.networkGroups = networkGroupsOf(hef, header?.hwArch.id ?? -1, features, problems);
  report.externalResources = resourcesOf(hef, container);
  if (options.verifyResources !== false) await verifyResources(src, report.externalResources, problems);
  return report;
}

/** Reads a HEF file; an unreadable path becomes a report with one problem. */
export async function readHefFile(path: string, options: ReadOptions = {}): Promise<HefReport> {
  let src: ByteSource;
  try {
    src = await fileSource(path, options.roots);
  } catch (err) {
    const e = err as Error;
    return {
      file: path,
      fileSize: 0,
      integrity: { ok: false, check: 'none', detail: e.message, checks: [] },
      extensions: [],
      networkGroups: [],
      externalResources: [],
      protoComplete: false,
      problems: [{ code: 'hef/unreadable', severity: 'error', area: 'container', message: `${e.message[0].toUpperCase()}${e.message.slice(1)}.` }],
    };
  }
  try {
    return await readHef(src, options);
  } finally {
    await src.close();
  }
}

/** Intact = container, checksums, body and resources all fine (CLI exit 2 otherwise). */
export function isIntact(report: HefReport): boolean {
  return !!report.container && report.integrity.ok && report.protoComplete && !report.problems.some((p) => p.severity === 'error' && p.area !== 'compat');
}

/** The verdict the exit code follows: the release given with `hailortVersion`, else the line the file targets. */
export function headlineVerdict(report: HefReport): RuntimeVerdict | undefined {
  return report.runtime?.chosen ?? report.runtime?.verdicts.find((v) => v.line === report.runtime?.target);
}

/**
 * The CLI's exit-0 rule: that HailoRT loads it (verdict.ts), and nothing else we found is an
 * error (a damaged resource, a file we could not read whole).
 */
export function loadsInTarget(report: HefReport): boolean {
  return headlineVerdict(report)?.outcome === 'loads' && !report.problems.some((p) => p.severity === 'error');
}
