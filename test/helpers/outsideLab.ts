// A workspace folder and a "home" beside it that stands for everything outside the folder: the
// hostile-input tests (issue 29) plant files outside, link to them from inside, run the product and
// check that nothing outside was read into the output, written, touched or added.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface OutsideLab {
  /** The folder the user opened. */
  ws: string;
  /** Outside the folder. */
  home: string;
  /** A file outside the folder; its bytes and mtime are remembered. */
  outside(name: string, data: string | Uint8Array): string;
  /** Every outside file unchanged (bytes and mtime), and nothing new made outside. */
  assertOutsideUntouched(): void;
  cleanup(): void;
}

export function outsideLab(prefix: string): OutsideLab {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const ws = join(root, 'ws');
  const home = join(root, 'home');
  mkdirSync(ws);
  mkdirSync(home);
  const files = new Map<string, { bytes: Buffer; mtimeMs: number }>();
  return {
    ws,
    home,
    outside(name, data) {
      const p = join(home, name);
      mkdirSync(join(p, '..'), { recursive: true });
      writeFileSync(p, data);
      files.set(p, { bytes: readFileSync(p), mtimeMs: statSync(p).mtimeMs });
      return p;
    },
    assertOutsideUntouched() {
      for (const [p, was] of files) {
        assert.ok(readFileSync(p).equals(was.bytes), `${p} was written`);
        assert.equal(statSync(p).mtimeMs, was.mtimeMs, `${p} was touched`);
      }
      const list = (d: string): string[] =>
        readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? list(join(d, e.name)) : [join(d, e.name)]));
      assert.deepEqual(
        list(home).filter((p) => !files.has(p)),
        [],
        'nothing new outside the folder',
      );
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
