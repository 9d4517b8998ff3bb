// Finished parses of a bisection, kept beside the model (`<model>.bisect.json`) so an interrupted or
// repeated search resumes without parsing a cut again. Keyed by the model's SHA-256 (a changed model
// starts afresh), then by DFC image, hardware architecture and cut. Read through the confined file
// layer; written whole through its no-follow writer (a link at the sidecar's name is replaced, never
// written through).
import { createHash } from 'node:crypto';
import { closeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { openRegularFileSync, readIntoSync, readSmallFileSync, writeFileNoFollowSync } from '../../core/common/fileAccess';

export interface CachedParse {
  outcome: 'parsed' | 'refused';
  seconds: number;
  exception?: string;
  message?: string;
  frames?: string[];
  /** The container's console for this cut (capped), for the DFC log reader. */
  console?: string;
  layers?: number | null;
  dfcVersion?: string | null;
  /** The DFC's message when an end node was folded away after a translation that went through. */
  absorbed?: string;
  at: string;
}

interface Sidecar {
  kind: 'hailo-tools.bisect';
  version: 1;
  model: string;
  sha256: string;
  parses: Record<string, CachedParse>;
}

const MAX_SIDECAR = 16 << 20;
const MAX_CONSOLE = 16 << 10;

export const sidecarPath = (model: string) => join(dirname(model), `${basename(model)}.bisect.json`);

/** SHA-256 of a regular file, read in 1 MiB pieces. */
export function fileSha256(path: string): string {
  const { fd, size } = openRegularFileSync(path);
  try {
    const h = createHash('sha256');
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let pos = 0; pos < size;) {
      const n = readIntoSync(fd, buf, 0, Math.min(buf.length, size - pos), pos);
      if (n <= 0) break;
      h.update(buf.subarray(0, n));
      pos += n;
    }
    return h.digest('hex');
  } finally {
    closeSync(fd);
  }
}

export class ParseCache {
  private data: Sidecar;

  constructor(
    readonly path: string,
    model: string,
    sha256: string,
  ) {
    this.data = { kind: 'hailo-tools.bisect', version: 1, model: basename(model), sha256, parses: {} };
    try {
      const got = JSON.parse(readSmallFileSync(path, MAX_SIDECAR).toString('utf8')) as Partial<Sidecar>;
      if (got.kind === this.data.kind && got.version === 1 && got.sha256 === sha256 && got.parses && typeof got.parses === 'object') {
        this.data.parses = got.parses;
      }
    } catch {
      // no sidecar yet, or one we cannot use (another model's, unreadable, not ours): start afresh
    }
  }

  static key(image: string, hwArch: string, cut: string): string {
    return `${image}|${hwArch}|${cut}`;
  }

  /** A finished parse, its fields checked (the sidecar is a file in the user's folder, not our memory). */
  get(key: string): CachedParse | undefined {
    const p = Object.prototype.hasOwnProperty.call(this.data.parses, key) ? (this.data.parses[key] as Partial<CachedParse> | null) : undefined;
    if (!p || typeof p !== 'object' || (p.outcome !== 'parsed' && p.outcome !== 'refused')) return undefined;
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return {
      outcome: p.outcome,
      seconds: typeof p.seconds === 'number' && Number.isFinite(p.seconds) ? p.seconds : 0,
      exception: str(p.exception),
      message: str(p.message),
      frames: Array.isArray(p.frames) ? p.frames.filter((f): f is string => typeof f === 'string') : undefined,
      console: str(p.console),
      layers: typeof p.layers === 'number' ? p.layers : null,
      dfcVersion: str(p.dfcVersion) ?? null,
      absorbed: str(p.absorbed),
      at: str(p.at) ?? '',
    };
  }

  /** Records a finished parse and writes the sidecar at once (an interrupt keeps it). */
  put(key: string, parse: CachedParse): void {
    this.data.parses[key] = { ...parse, ...(parse.console ? { console: parse.console.slice(-MAX_CONSOLE) } : {}) };
    writeFileNoFollowSync(this.path, JSON.stringify(this.data, null, 1) + '\n');
  }
}
