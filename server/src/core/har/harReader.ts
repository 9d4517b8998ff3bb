// Reads a Hailo archive (.har): a plain POSIX tar (pax headers, as Python's tarfile writes it;
// gzip tolerated) holding `<net>.hn` (the HN JSON), `<net>.metadata.json`, weights (.npz) and
// `<net>.original_model_meta.json`. Only the small JSON members are kept; weights stream past.
import { FileRoots } from '../common/confined';
import { createGunzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import * as tar from 'tar-stream';
import { readInto } from '../common/fileAccess';
import { limit, limitMessage } from '../common/limits';
import { parseHn, type HnModel } from './hn';
import { parseFileJson } from '../common/json';

export class HarReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HarReadError';
  }
}

export interface HarArchive {
  path: string;
  /** Every member, in archive order. */
  members: { name: string; size: number }[];
  /** `<net>.metadata.json` (state, sdk_version, hw_arch, member names), when present. */
  metadata?: Record<string, unknown>;
  /** Name of the member the HN came from. */
  hnMember: string;
  hn: HnModel;
  /** `original_model_path` etc. from `<net>.original_model_meta.json`, without the parsing report. */
  originalModelMeta?: Record<string, unknown>;
}

const keep = (name: string) => name.endsWith('.hn') || name.endsWith('.metadata.json') || name.endsWith('.original_model_meta.json');

/** Passes bytes through and fails the stream once more than `max` have gone by (a gzip bomb). */
function byteCeiling(max: number, onHit: (seen: number) => Error): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > max) done(onHit(seen));
      else done(null, chunk);
    },
  });
}

/**
 * Reads the archive's JSON members. Throws a HarReadError (one sentence) for anything that is not a
 * readable archive: a folder, FIFO or device named *.har, a broken tar, a gzip bomb, JSON members
 * over LIMITS.harJsonBytes in total.
 */
export async function readHar(path: string): Promise<HarArchive> {
  let opened;
  try {
    opened = await FileRoots.named(path).open(path);
  } catch (err) {
    throw new HarReadError((err as Error).message);
  }
  const { handle } = opened;
  const members: { name: string; size: number }[] = [];
  const kept = new Map<string, Buffer>();
  try {
    const magic = new Uint8Array(2);
    const gz = (await readInto(handle, magic, 0, 2, 0)) === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
    const jsonBudget = limit('harJsonBytes');
    let jsonBytes = 0;
    let limitError: HarReadError | undefined;
    const extract = tar.extract();
    extract.on('entry', (header, stream, next) => {
      const size = header.size ?? 0;
      // a truncated archive errors the entry stream too; the pipeline below reports it once
      stream.on('error', () => undefined);
      const isFile = header.type === 'file' || header.type === 'contiguous-file';
      if (isFile) members.push({ name: header.name, size });
      if (isFile && keep(header.name)) {
        jsonBytes += size;
        if (jsonBytes > jsonBudget) {
          limitError ??= new HarReadError(limitMessage('harJsonBytes', `${path}: the JSON members (up to ${header.name})`, jsonBytes));
          extract.destroy(limitError);
          return;
        }
        const chunks: Buffer[] = [];
        stream.on('data', (c: unknown) => chunks.push(c as Buffer));
        stream.on('end', () => {
          kept.set(header.name, Buffer.concat(chunks));
          next();
        });
      } else {
        stream.on('end', () => next());
        stream.resume();
      }
    });
    const source: Readable = handle.createReadStream({ start: 0, autoClose: false });
    try {
      if (gz) {
        const ceiling = byteCeiling(
          limit('harInflatedBytes'),
          (seen) =>
            (limitError = new HarReadError(
              limitMessage('harInflatedBytes', `${path}: the gzip stream`, `inflated to more than ${seen.toLocaleString('en-US')} bytes`),
            )),
        );
        await pipeline(source, createGunzip(), ceiling, extract);
      } else await pipeline(source, extract);
    } catch (err) {
      if (limitError) throw limitError;
      throw new HarReadError(`${path} is not a readable .har (tar archive): ${(err as Error).message}`);
    } finally {
      source.destroy();
    }
  } finally {
    await handle.close();
  }
  if (members.length === 0) throw new HarReadError(`${path} holds no files; a .har is a tar archive with a .hn member`);

  let metadata: Record<string, unknown> | undefined;
  const metaName = [...kept.keys()].find((n) => n.endsWith('.metadata.json'));
  if (metaName) metadata = parseJsonObject(kept.get(metaName)!, metaName, path);
  const hnMember = chooseHn(metadata, [...kept.keys()]);
  if (!hnMember) {
    throw new HarReadError(
      `${path} has no .hn member (members: ${members
        .map((m) => m.name)
        .slice(0, 8)
        .join(', ')})`,
    );
  }
  const hn = parseHn(kept.get(hnMember)!.toString('utf8'), `${path}:${hnMember}`);
  let originalModelMeta: Record<string, unknown> | undefined;
  const omName = [...kept.keys()].find((n) => n.endsWith('.original_model_meta.json'));
  if (omName) {
    try {
      const all = parseJsonObject(kept.get(omName)!, omName, path);
      delete all.parsing_report;
      originalModelMeta = all;
    } catch {
      originalModelMeta = undefined; // optional member: a broken one must not hide the layers
    }
  }
  return { path, members, metadata, hnMember, hn, originalModelMeta };
}

/** metadata.hn names the member; else the single `*.hn` that is not a `.native.hn`/`.fp.hn` variant. */
function chooseHn(metadata: Record<string, unknown> | undefined, names: string[]): string | undefined {
  const hns = names.filter((n) => n.endsWith('.hn'));
  const named = typeof metadata?.hn === 'string' ? metadata.hn : undefined;
  if (named && hns.includes(named)) return named;
  const main = hns.filter((n) => !n.endsWith('.native.hn') && !n.endsWith('.fp.hn'));
  return main[0] ?? hns[0];
}

function parseJsonObject(buf: Buffer, member: string, path: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = parseFileJson(buf.toString('utf8'), `${path}: member ${member}`);
  } catch (err) {
    throw new HarReadError((err as Error).message);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new HarReadError(`${path}: member ${member} is not a JSON object`);
  return v as Record<string, unknown>;
}
