// Issue 18, the language server's start-up HEF scan (runs in Restricted Mode, with default
// settings): 1,500 links to one 96 MiB HEF were each read and hashed (223 s of CPU, 150 GB read),
// and a `*.hef` link out of the folder was read like any file. Now each real file is read once
// (device + inode) and published on every name, and a link that leaves the workspace folders is
// never opened. The bytes the server read come from Linux's /proc/<pid>/io (`rchar`), measured
// against a server started on the same folder without the links.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startTestServer, type TestServer } from '../helpers/lsp';
import { repoRoot } from '../helpers/shared';

const FAILING = join(repoRoot, 'test', 'fixtures', 'hef', 'mtmd-fail-four-outputs.hef');
const LINKS = 1000;
const codes = (d: { code?: string | number }[]) => d.map((x) => String(x.code)).sort();

function bytesRead(server: TestServer): number {
  const io = readFileSync(`/proc/${server.process.pid}/io`, 'utf8');
  return Number(/^rchar: (\d+)$/m.exec(io)![1]);
}

/** Starts a server on `ws`, waits until `uris` all have diagnostics, returns them and the bytes it read. */
async function scan(ws: string, uris: string[]) {
  const server = await startTestServer({ settings: { hef: { inlineChecks: 'always' } }, folders: [ws] });
  try {
    const got = new Map<string, string[]>();
    for (const uri of uris) got.set(uri, codes((await server.diagnostics(uri, () => true, 60_000)).diagnostics));
    return { got, read: bytesRead(server), log: server.log.map((l) => l.message) };
  } finally {
    await server.stop();
  }
}

test(
  'lsp: the HEF scan reads one real file once however many links name it, and never a link out of the folder',
  { skip: !existsSync('/proc/self/io') && 'NOTE: needs Linux /proc/<pid>/io' },
  async () => {
    const root = mkdtempSync(join(tmpdir(), 'hailo-scan-'));
    try {
      const ws = join(root, 'ws');
      const outside = join(root, 'outside');
      mkdirSync(join(ws, 'links'), { recursive: true });
      mkdirSync(outside);
      copyFileSync(FAILING, join(ws, 'model.hef'));
      copyFileSync(FAILING, join(outside, 'secret.hef'));
      const uri = (p: string) => pathToFileURL(join(ws, p)).toString();

      const control = await scan(ws, [uri('model.hef')]);
      const expected = control.got.get(uri('model.hef'))!;
      assert.ok(expected.length > 0, 'the HEF has findings to compare');

      for (let i = 0; i < LINKS; i++) symlinkSync(join('..', 'model.hef'), join(ws, 'links', `copy${i}.hef`));
      symlinkSync(join(outside, 'secret.hef'), join(ws, 'outside.hef'));
      symlinkSync('/', join(ws, 'root')); // a folder link: never walked
      const linkUris = Array.from({ length: LINKS }, (_, i) => uri(`links/copy${i}.hef`));
      const r = await scan(ws, [uri('model.hef'), ...linkUris, uri('outside.hef')]);
      for (const u of linkUris) assert.deepEqual(r.got.get(u), expected, `${u} carries the real file's findings`);
      const extra = r.read - control.read;
      const hef = statSync(FAILING).size;
      // Reading each link would add LINKS × the HEF's size (6.5 MB); reading it once adds nothing.
      assert.ok(extra < (LINKS * hef) / 10, `the links made the server read ${extra.toLocaleString('en-US')} more bytes (a HEF is ${hef} bytes)`);
      assert.deepEqual(r.got.get(uri('outside.hef')), [], 'the link out of the folder is not read');
      assert.ok(
        r.log.some((l) => /outside\.hef links outside the workspace folders; not read/.test(l)),
        r.log.join('\n'),
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
);
