// Inputs in and outputs out of a container on a remote docker context, which cannot see local
// paths: `docker cp - NAME:/tmp` unpacks a tar archive read from stdin, and `docker cp NAME:DIR -`
// writes DIR as a tar archive to stdout (docker CLI reference, `docker cp`). We stream both with
// tar-stream: no temporary archive on disk, exact file list, exact in-container layout.
import { FileRoots } from '../../core/common/confined';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar-stream';

export interface PackFile {
  hostPath: string;
  /** Path inside the archive, relative to the extraction folder (/tmp), forward slashes. */
  name: string;
  mode?: number;
}

/** Writes a tar archive of `dirs` (created with `dirMode`) and `files` to `sink`. */
export async function packInto(sink: Writable, dirs: { name: string; mode: number }[], files: PackFile[]): Promise<void> {
  const pack = tar.pack();
  const done = pipeline(pack, sink);
  const mtime = new Date();
  try {
    for (const d of dirs) await addEntry(pack, { name: d.name.replace(/\/?$/, '/'), type: 'directory', mode: d.mode, mtime });
    for (const f of files) {
      // Opened as a regular file (never a FIFO or device) and read from that one descriptor, so the
      // size in the tar header and the bytes sent are the file that was checked.
      const { handle, size } = await FileRoots.named(f.hostPath).open(f.hostPath); // checked real paths (inputs.ts) and the package's driver files
      try {
        await new Promise<void>((resolve, reject) => {
          const entry = pack.entry({ name: f.name, size, mode: f.mode ?? 0o644, mtime, type: 'file' }, (err) => (err ? reject(err) : resolve()));
          if (size === 0) entry.end(Buffer.alloc(0));
          else
            handle
              .createReadStream({ start: 0, end: size - 1, autoClose: false })
              .on('error', reject)
              .pipe(entry);
        });
      } finally {
        await handle.close();
      }
    }
    pack.finalize();
  } catch (err) {
    pack.destroy(err as Error);
  }
  await done;
}

function addEntry(pack: tar.Pack, header: Parameters<tar.Pack['entry']>[0]): Promise<void> {
  return new Promise((resolve, reject) => pack.entry(header, (err) => (err ? reject(err) : resolve())));
}

/**
 * Unpacks the regular files of the archive's top folder that `allowed` accepts into `dir`. A set
 * names files directly under the top folder; a predicate gets the path below it (forward slashes,
 * e.g. `quantized/0.npy`) and its folders are created under `dir`. Everything else (other names,
 * links, absolute paths, `..`) is skipped unread. Returns the names written.
 */
export async function extractAllowed(source: Readable, dir: string, allowed: ReadonlySet<string> | ((name: string) => boolean)): Promise<string[]> {
  const extract = tar.extract();
  const roots = FileRoots.of([dir]); // a staging folder the product made; nothing is written through a link in it
  const written: string[] = [];
  const accepts = (name: string, depth: number) => (typeof allowed === 'function' ? allowed(name) : depth === 1 && allowed.has(name));
  extract.on('entry', (header, stream, next) => {
    const raw = header.name.split('/').filter((p) => p && p !== '.');
    const parts = raw.slice(1);
    const name = parts.join('/');
    const safe = raw.length >= 2 && !raw.includes('..') && !header.name.startsWith('/');
    if (header.type === 'file' && safe && accepts(name, parts.length) && !written.includes(name)) {
      let out;
      try {
        if (parts.length > 1) roots.mkdir(join(dir, ...parts.slice(0, -1)));
        out = roots.createWriteStream(join(dir, ...parts));
      } catch (err) {
        next(err as Error);
        return;
      }
      pipeline(stream, out).then(
        () => {
          written.push(name);
          next();
        },
        (err) => next(err),
      );
    } else {
      stream.on('end', () => next()).resume();
    }
  });
  await pipeline(source, extract);
  return written;
}
