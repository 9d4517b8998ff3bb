// The cost of the confined file layer (issue 29: FileRoots, server/src/core/common/confined.ts) —
// every read, stat and walk of a path a folder names resolves its links and checks the roots before
// it opens anything. Baseline, in the same run and on the same files: raw node:fs (readFileSync,
// statSync, a readdirSync walk that does not follow links). A folder of 2,000 files of 1 KiB, 4
// levels deep, and one 32 MiB file. Medians of 15 alternating runs; RSS growth and the load average.
// Target: the layer costs at most 4× raw node:fs reading small files (a few extra syscalls per
// path: realpath, fstat, and on Linux the readlink of /proc/self/fd/N that checks the object opened), at most 6× a raw stat (a stat is one syscall; the layer resolves the path
// first, one lstat per component), at most 1.5× on a large read (the bytes dominate), and at most
// 6× on a walk —
// which lstats every file the raw readdir walk does not (each real file listed once by device and
// inode, a file link leading out of the root left out). Times are CPU time of this process (user +
// system), which other load on the machine does not inflate; wall times are printed beside them.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRoots } from '../server/src/core/common/confined';
import { nowMs, report } from './report';

/** CPU ms (user + system) and wall ms of one run. */
function timed(fn: () => void): { cpu: number; wall: number } {
  const c = process.cpuUsage();
  const t = nowMs();
  fn();
  const d = process.cpuUsage(c);
  return { cpu: (d.user + d.system) / 1000, wall: nowMs() - t };
}

const FILES = 2000;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function rawWalk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) rawWalk(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'bench-confined-'));
  try {
    const files: string[] = [];
    for (let i = 0; i < FILES; i++) {
      const sub = join(dir, `a${i % 5}`, `b${i % 7}`, `c${i % 3}`);
      mkdirSync(sub, { recursive: true });
      const p = join(sub, `f${i}.json`);
      writeFileSync(p, 'x'.repeat(1024));
      files.push(p);
    }
    const big = join(dir, 'big.bin');
    writeFileSync(big, Buffer.alloc(32 << 20, 7));
    const roots = FileRoots.of([dir]);
    const cases: { name: string; layer: () => void; raw: () => void; target: number }[] = [
      {
        name: `read ${FILES} files of 1 KiB`,
        layer: () => {
          for (const p of files) roots.readSync(p, 1 << 20);
        },
        raw: () => {
          for (const p of files) readFileSync(p);
        },
        target: 4,
      },
      {
        name: `stat ${FILES} files`,
        layer: () => {
          for (const p of files) roots.stat(p);
        },
        raw: () => {
          for (const p of files) statSync(p);
        },
        target: 6,
      },
      {
        name: `walk ${FILES} files in 105 folders`,
        layer: () => {
          if (roots.walk(dir, { wantFile: () => true }).files.length !== FILES + 1) throw new Error('walk: wrong count');
        },
        raw: () => {
          if (rawWalk(dir).length !== FILES + 1) throw new Error('raw walk: wrong count');
        },
        target: 6,
      },
      {
        name: 'read one 32 MiB file',
        layer: () => void roots.readSync(big, 64 << 20),
        raw: () => void readFileSync(big),
        target: 1.5,
      },
    ];
    const rss0 = process.memoryUsage().rss;
    for (const c of cases) {
      c.layer();
      c.raw(); // warm the page cache and the JIT
      const a: { cpu: number; wall: number }[] = [];
      const b: { cpu: number; wall: number }[] = [];
      for (let i = 0; i < 15; i++) {
        a.push(timed(c.layer));
        b.push(timed(c.raw));
      }
      const layer = median(a.map((x) => x.cpu));
      const raw = median(b.map((x) => x.cpu));
      const x = layer / raw;
      const wall = median(a.map((v) => v.wall)) / median(b.map((v) => v.wall));
      report({
        figure: `FileRoots ${c.name} vs raw node:fs`,
        target: `≤ ${c.target}× raw`,
        measured: `CPU ${layer.toFixed(2)} ms vs ${raw.toFixed(2)} ms: ${x.toFixed(2)}× (wall ${wall.toFixed(2)}×; load ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`,
        ratio: c.target / x,
      });
    }
    const rss = (process.memoryUsage().rss - rss0) / (1 << 20);
    report({
      figure: 'FileRoots bench RSS growth',
      target: '< 64 MB',
      measured: `${rss.toFixed(1)} MB`,
      ratio: 64 / Math.max(rss, 0.1),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
