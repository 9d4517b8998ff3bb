// Issue 29, the check→open race: the confined layer checks a path (its real location inside a root)
// and then uses it; a folder on the way swapped for a link to the outside between the two must not
// make it read, list or write anything outside. The swap is made exactly between the check and the
// use through the layer's test-only seam (raceSeam.between), then once more by a separate process
// swapping a folder as fast as it can while this one reads and writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRoots, raceSeam } from '../../../server/src/core/common/confined';
import { FileAccessError } from '../../../server/src/core/common/fileAccess';

const SECRET = 'PRIVATE-race-5d1e-DO-NOT-SHOW';
const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');

/** ws/a/{labels.json,x.txt,sub/} inside the root; home/ the same names outside, with the secret. */
function layout(): { ws: string; home: string; a: string; cleanup: () => void } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'hailo-race-')));
  const ws = join(root, 'ws');
  const home = join(root, 'home');
  const a = join(ws, 'a');
  mkdirSync(a, { recursive: true });
  mkdirSync(home);
  for (const name of ['labels.json', 'x.txt']) {
    writeFileSync(join(a, name), '{"inside": true}');
    writeFileSync(join(home, name), SECRET);
  }
  mkdirSync(join(a, 'sub'));
  mkdirSync(join(home, 'sub'));
  writeFileSync(join(a, 'sub', 'inside.txt'), '');
  writeFileSync(join(home, 'sub', `${SECRET}.txt`), '');
  return { ws, home, a, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** The folder `a` moved aside and a link to `home` put at its name. */
function swap(a: string, home: string): void {
  renameSync(a, `${a}.old`);
  symlinkSync(home, a);
}

/** The link at `a` removed and the folder put back. */
function unswap(a: string): void {
  rmSync(a);
  renameSync(`${a}.old`, a);
}

/** Runs `fn` with the seam swapping `a` for a link to `home` between the check and the use. */
function withSwap<T>(a: string, home: string, fn: () => T): T {
  raceSeam.between = () => {
    raceSeam.between = undefined;
    swap(a, home);
  };
  try {
    return fn();
  } finally {
    raceSeam.between = undefined;
  }
}

async function withSwapAsync<T>(a: string, home: string, fn: () => Promise<T>): Promise<T> {
  raceSeam.between = () => {
    raceSeam.between = undefined;
    swap(a, home);
  };
  try {
    return await fn();
  } finally {
    raceSeam.between = undefined;
  }
}

function refusedChanged(fn: () => unknown, what: string): void {
  assert.throws(
    fn,
    (err: unknown) => {
      assert.ok(err instanceof FileAccessError, `${what}: ${String(err)}`);
      assert.equal(err.code, 'changed', `${what}: ${err.message}`);
      assert.ok(!err.message.includes(SECRET), `${what} revealed the secret`);
      return true;
    },
    what,
  );
}

for (const mode of PROC_FD ? (['/proc/self/fd', 'device and inode'] as const) : (['device and inode'] as const)) {
  test(`race (${mode}): a folder swapped for a link out between the check and the open is refused, nothing read or listed`, async () => {
    const l = layout();
    raceSeam.noProcFd = mode === 'device and inode';
    try {
      const roots = FileRoots.of([l.ws]);
      refusedChanged(() => withSwap(l.a, l.home, () => roots.readText(join(l.a, 'labels.json'), 1 << 20)), 'readText');
      unswap(l.a);
      await assert.rejects(
        withSwapAsync(l.a, l.home, () => roots.readTextPrefix(join(l.a, 'labels.json'), 1 << 20)),
        (err: unknown) => err instanceof FileAccessError && err.code === 'changed' && !err.message.includes(SECRET),
        'readTextPrefix',
      );
      unswap(l.a);
      refusedChanged(() => withSwap(l.a, l.home, () => roots.listEntries(join(l.a, 'sub'))), 'listEntries');
      // Without a swap the same calls read and list the inside files.
      unswap(l.a);
      assert.equal(roots.readText(join(l.a, 'labels.json'), 1 << 20), '{"inside": true}');
      assert.deepEqual(roots.list(join(l.a, 'sub')), ['inside.txt']);
    } finally {
      raceSeam.noProcFd = undefined;
      l.cleanup();
    }
  });
}

test(
  'race: a folder swapped for a link out after the write checked it still gets the bytes (the checked folder), never the outside',
  { skip: !PROC_FD && 'no /proc/self/fd: writes are check-then-use here (confined.ts header)' },
  () => {
    const l = layout();
    try {
      const roots = FileRoots.of([l.ws]);
      withSwap(l.a, l.home, () => roots.writeSync(join(l.a, 'x.txt'), 'NEW', { makeFolders: true }));
      assert.equal(readFileSync(join(l.home, 'x.txt'), 'utf8'), SECRET, 'the outside file was written');
      assert.deepEqual(readdirSync(l.home).sort(), ['labels.json', 'sub', 'x.txt'], 'something was made outside');
      assert.equal(readFileSync(join(`${l.a}.old`, 'x.txt'), 'utf8'), 'NEW', 'the write did not land in the checked folder');
      unswap(l.a);

      const fd = withSwap(l.a, l.home, () => roots.openForWriteSync(join(l.a, 'log.txt')));
      writeFileSync(fd, 'LOG');
      assert.ok(!existsSync(join(l.home, 'log.txt')), 'openForWriteSync created a file outside');
      assert.equal(readFileSync(join(`${l.a}.old`, 'log.txt'), 'utf8'), 'LOG');
      unswap(l.a);

      withSwap(l.a, l.home, () => roots.mkdir(join(l.a, 'made', 'deeper')));
      assert.ok(!existsSync(join(l.home, 'made')), 'mkdir made a folder outside');
      unswap(l.a);

      withSwap(l.a, l.home, () => roots.remove(join(l.a, 'labels.json')));
      assert.equal(readFileSync(join(l.home, 'labels.json'), 'utf8'), SECRET, 'remove removed the outside file');
    } finally {
      l.cleanup();
    }
  },
);

test(
  'race: a folder swapped for a link out while the walk runs is not entered — no name outside the root is listed',
  { skip: !PROC_FD && 'no /proc/self/fd: the walk lists folders by path here (confined.ts header)' },
  () => {
    const l = layout();
    try {
      const roots = FileRoots.of([l.ws]);
      raceSeam.between = (checked) => {
        if (checked !== l.a) return;
        raceSeam.between = undefined;
        swap(l.a, l.home); // after the walk listed ws/ (a folder `a`), before it enters a
      };
      let walked;
      try {
        walked = roots.walk(l.ws, { wantFile: () => true });
      } finally {
        raceSeam.between = undefined;
      }
      assert.ok(!walked.files.some((f) => f.includes(SECRET) || f.startsWith(`${l.a}/`)), `listed outside: ${walked.files.join(', ')}`);
      assert.match(walked.skipped.join('\n'), /ws\/a: no longer a folder \(replaced while it was walked\); not walked/);
      unswap(l.a);
      // without a swap the walk lists the inside files
      assert.deepEqual(
        roots
          .walk(l.ws, { wantFile: () => true })
          .files.map((f) => f.slice(l.ws.length + 1))
          .sort(),
        ['a/labels.json', 'a/sub/inside.txt', 'a/x.txt'],
      );
    } finally {
      l.cleanup();
    }
  },
);

test('race, stress: another process swaps a folder for a link out while this one reads and writes through it — no outside byte is read or written', async () => {
  const l = layout();
  const stop = join(l.ws, '..', 'stop');
  // The swapper: `a` ⇄ a link to home, as fast as it can, until told to stop.
  const swapper = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('fs'); const [a, home, stop] = process.argv.slice(1); let n = 0;
       while (!fs.existsSync(stop)) {
         try { fs.renameSync(a, a + '.old'); fs.symlinkSync(home, a); fs.unlinkSync(a); fs.renameSync(a + '.old', a); n++; } catch {}
       }
       process.stdout.write(String(n));`,
      l.a,
      l.home,
      stop,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let swaps = '';
  swapper.stdout.on('data', (d: Buffer) => (swaps += d.toString()));
  const done = new Promise<void>((resolve) => swapper.on('exit', () => resolve()));
  const roots = FileRoots.of([l.ws]);
  let read = 0;
  let refused = 0;
  try {
    const until = Date.now() + 1500;
    for (let i = 0; Date.now() < until; i++) {
      try {
        const text = roots.readText(join(l.a, 'labels.json'), 1 << 20);
        assert.ok(!text.includes(SECRET), `read ${i} returned the outside file`);
        read++;
      } catch (err) {
        if (err instanceof assert.AssertionError) throw err;
        assert.ok(err instanceof FileAccessError, String(err));
        assert.ok(!err.message.includes(SECRET));
        refused++;
      }
      try {
        roots.writeSync(join(l.a, `w${i % 4}.txt`), 'W');
      } catch (err) {
        assert.ok(err instanceof FileAccessError, String(err));
      }
    }
  } finally {
    writeFileSync(stop, '');
    await done;
  }
  try {
    assert.deepEqual(readdirSync(l.home).sort(), ['labels.json', 'sub', 'x.txt'], 'a write landed outside');
    assert.equal(readFileSync(join(l.home, 'x.txt'), 'utf8'), SECRET);
    assert.ok(Number(swaps) > 0, 'the other process swapped nothing: the stress exercised nothing');
    // the swapper stopped with the folder in place: the same read succeeds
    assert.equal(roots.readText(join(l.a, 'labels.json'), 1 << 20), '{"inside": true}');
    console.log(`stress: ${read} reads, ${refused} refused, ${swaps} swaps by the other process`);
  } finally {
    l.cleanup();
  }
});
