// External resources: named blobs stored after the CCWs (e.g. `hailo-config.json`), addressed
// relative to the container's zero point and, when the HEF stores one, protected by an XXH3-64
// checksum that HailoRT verifies when the resource is requested (docs/research/hef-format.md#external-resources).
import type { HefContainer } from './container';
import { hashRange } from './integrity';
import type { ExternalResourceInfo } from './model';
import { n, type HefProblem } from './problems';
import type { Msg } from './protoDecode';
import { asHef } from './protoTypes';
import { toBigInt, toNum } from './schema';
import type { ByteSource } from './source';

const ZERO64 = '0000000000000000';

export function resourcesOf(hef: Msg, c: HefContainer): ExternalResourceInfo[] {
  const list = (asHef(hef).external_resources ?? []).map((r) => {
    const offset = toNum(r.offset);
    const size = toNum(r.size);
    const fileOffset = c.zeroPoint + offset;
    const inFile = fileOffset + size <= c.fileSize;
    return {
      name: String(r.name ?? ''),
      size,
      offset,
      fileOffset,
      xxhash: toBigInt(r.xxhash).toString(16).toUpperCase().padStart(16, '0'),
      inFile,
      detail: inFile
        ? `[${n(fileOffset)}, ${n(fileOffset + size)})`
        : `[${n(fileOffset)}, ${n(fileOffset + size)}) is beyond the end of the file (${n(c.fileSize)})`,
    } satisfies ExternalResourceInfo;
  });
  return list;
}

/** Checks ranges and checksums; appends problems. Hashes are streamed, never loaded whole. */
export async function verifyResources(src: ByteSource, resources: ExternalResourceInfo[], problems: HefProblem[]): Promise<void> {
  const seen = new Set<string>();
  for (const r of resources) {
    if (seen.has(r.name)) {
      problems.push({
        code: 'hef/duplicate-resource',
        severity: 'warning',
        area: 'resource',
        message: `External resource '${r.name}' is listed more than once; HailoRT uses the first entry.`,
      });
    }
    seen.add(r.name);
    if (!r.inFile) {
      r.checksumOk = false;
      problems.push({
        code: 'hef/resource-out-of-range',
        severity: 'error',
        area: 'resource',
        offset: Math.min(r.fileOffset, src.size),
        message: `External resource '${r.name}' (${n(r.size)} bytes at zero point + ${n(r.offset)}) lies at ${r.detail}.`,
      });
      continue;
    }
    if (r.xxhash === ZERO64) {
      r.detail += '; no checksum stored (HailoRT skips the check)';
      continue;
    }
    const actual = await hashRange(src, 'xxh3', r.fileOffset, r.fileOffset + r.size);
    r.checksumOk = actual === r.xxhash;
    if (r.checksumOk) {
      r.detail += `; XXH3 ${r.xxhash} matches`;
    } else {
      r.detail += `; XXH3 is ${actual}, the HEF stores ${r.xxhash}`;
      problems.push({
        code: 'hef/resource-checksum',
        severity: 'error',
        area: 'resource',
        offset: r.fileOffset,
        message: `Resource '${r.name}' checksum does not match: bytes [${n(r.fileOffset)}, ${n(r.fileOffset + r.size)}) hash to ${actual}, the HEF stores ${r.xxhash}.`,
      });
    }
  }
}

/**
 * The bytes of a resource (the first entry of that name), or an explanation. `maxBytes` bounds
 * what is loaded (config files are small; a multi-GB embedding table is never read whole).
 */
export async function readResource(
  src: ByteSource,
  resources: ExternalResourceInfo[],
  name: string,
  maxBytes = 16 << 20,
): Promise<{ bytes: Uint8Array } | { error: string; missing?: boolean }> {
  const r = resources.find((x) => x.name === name);
  if (!r) return { error: `HEF has no external resource '${name}'`, missing: true };
  if (!r.inFile) return { error: `resource '${name}' lies at ${r.detail}` };
  if (r.checksumOk === false) return { error: `Resource '${name}' checksum does not match` };
  if (r.size > maxBytes) return { error: `resource '${name}' is ${n(r.size)} bytes; not loaded (limit ${n(maxBytes)})` };
  return { bytes: await src.read(r.fileOffset, r.size) };
}
