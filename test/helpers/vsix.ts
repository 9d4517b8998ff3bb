// Reading a packaged .vsix (a zip) with yauzl: its entry names, and one entry's bytes.
import * as yauzl from 'yauzl';

export async function vsixEntries(path: string): Promise<string[]> {
  const zip = await yauzl.openPromise(path, { autoClose: false });
  try {
    const names: string[] = [];
    for await (const e of zip.eachEntry()) names.push(e.fileName);
    return names.sort();
  } finally {
    zip.close();
  }
}

export async function vsixEntry(path: string, name: string): Promise<Buffer> {
  const zip = await yauzl.openPromise(path, { autoClose: false });
  try {
    for await (const e of zip.eachEntry()) {
      if (e.fileName !== name) continue;
      const stream = await zip.openReadStreamPromise(e);
      const chunks: Buffer[] = [];
      for await (const c of stream) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    }
    throw new Error(`${name} is not in ${path}`);
  } finally {
    zip.close();
  }
}

/** Writes every file of the .vsix under `into` (its `extension/…` as VS Code unpacks it). */
export async function extractVsix(path: string, into: string): Promise<void> {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { dirname, join, normalize } = await import('node:path');
  const zip = await yauzl.openPromise(path, { autoClose: false });
  try {
    for await (const e of zip.eachEntry()) {
      if (e.fileName.endsWith('/')) continue;
      const to = join(into, normalize(e.fileName));
      if (!to.startsWith(into)) throw new Error(`${e.fileName} leads outside ${into}`);
      const chunks: Buffer[] = [];
      for await (const c of await zip.openReadStreamPromise(e)) chunks.push(c as Buffer);
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, Buffer.concat(chunks));
    }
  } finally {
    zip.close();
  }
}
