// CLI start-up figures (issue 25): whole processes, started the way a user starts them
// (`node bin/hailo-tools.js …`), against bare `node -e 0` measured in the same rounds — the floor no
// Node program starts under — and against the real `hailortcli parse-hef --parse-streams` where
// HailoRT is installed (HAILORTCLI=<path>, else `hailortcli` on PATH; the row is skipped without it).
// Each round runs every contender once, in turn, so the machine's load falls on all of them alike;
// the figures are medians. Wall time is the figure; CPU time (user + system, reported by a
// one-line preload that every contender, the floor included, carries) is printed beside it because
// it moves far less with the load of a shared machine. The 3.3 MB `.alls` check is reported beyond
// start-up: its median minus the median of the same command on a small script.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import * as nodeModule from 'node:module';
import { PerformanceObserver } from 'node:perf_hooks';
import { analyze } from '../server/src/core/alls/analysis';
import { decodeScript } from '../server/src/core/alls/encoding';
import { checkDocument } from '../server/src/core/alls/rules';
import { readFileSync } from 'node:fs';
import { nowMs, report } from './report';

const root = process.cwd();
const bin = join(root, 'bin', 'hailo-tools.js');
const ROUNDS = Number(process.env.HAILO_BENCH_ROUNDS ?? 15);

interface Contender {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** A node process: gets the CPU/RSS preload. */
  node: boolean;
  wall: number[];
  cpu: number[];
  rssMB: number[];
}

function sharedDir(): string | undefined {
  return [process.env.HAILO_SHARED_DIR, join(root, '..', 'shared')].find((p): p is string => !!p && existsSync(join(p, 'corpus')));
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(dir, name);
    if (dir && existsSync(p) && statSync(p).isFile()) return p;
  }
  return undefined;
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const ms = (v: number) => `${v.toFixed(0)} ms`;

/**
 * Child mode: where the big script's time goes in one fresh process — the first analyze + check
 * (what the CLI pays), the garbage collector's share of it, and the fourth (the code compiled).
 */
function allsFloor(path: string): void {
  const text = decodeScript(readFileSync(path)).text;
  const entries: { start: number; duration: number }[] = [];
  const gc = new PerformanceObserver((list) => list.getEntries().forEach((e) => entries.push({ start: e.startTime, duration: e.duration })));
  gc.observe({ entryTypes: ['gc'] });
  const runs: { start: number; ms: number }[] = [];
  for (let i = 0; i < 4; i++) {
    const t0 = performance.now();
    checkDocument(analyze(text), { settings: { hwArch: 'hailo10h' } });
    runs.push({ start: t0, ms: performance.now() - t0 });
  }
  // GC entries arrive asynchronously (after a timer, not an immediate): count them by when they started.
  setTimeout(() => {
    gc.disconnect();
    const first = runs[0];
    const gcFirst = entries.filter((e) => e.start >= first.start && e.start < first.start + first.ms).reduce((a, e) => a + e.duration, 0);
    process.stdout.write(JSON.stringify({ first: first.ms, compiled: runs[3].ms, gcFirst }) + '\n');
  }, 100);
}

function main(): void {
  const work = mkdtempSync(join(tmpdir(), 'hailo-cli-bench-'));
  process.on('exit', () => rmSync(work, { recursive: true, force: true }));
  const preload = join(work, 'usage.js');
  writeFileSync(
    preload,
    `process.on('exit', () => { const u = process.resourceUsage(); require('fs').writeSync(2, '##usage ' + (u.userCPUTime + u.systemCPUTime) / 1000 + ' ' + u.maxRSS / 1024 + '\\n'); });\n`,
  );
  const shared = sharedDir();
  // A 600 KB HEF of the corpus (the issue's case), else the example HEF the package ships.
  const hef = shared ? join(shared, 'corpus', 'hef', 'seeed10h__lightface_slim.hef') : join(root, 'examples', 'qwen3vl-vision-encoder.hef');
  if (!shared) process.stdout.write('NOTE: ../shared is absent; timing the example HEF and no 3.3 MB script\n');
  // The scripts are checked alone in a folder (a script's folder is searched for a HAR/HEF beside it).
  mkdirSync(join(work, 'small'));
  const small = join(work, 'small', 'yolov8n.alls');
  copyFileSync(join(root, 'examples', 'good', 'yolov8n.alls'), small);
  let big: string | undefined;
  if (shared) {
    const history = join(shared, 'corpus', 'alls-history');
    const largest = readdirSync(history)
      .filter((f) => f.endsWith('.alls'))
      .map((f) => ({ f, size: statSync(join(history, f)).size }))
      .sort((a, b) => b.size - a.size)[0];
    mkdirSync(join(work, 'big'));
    big = join(work, 'big', largest.f);
    copyFileSync(join(history, largest.f), big);
  }
  const hailortcli = process.env.HAILORTCLI || findOnPath('hailortcli');

  const contenders: Contender[] = [
    { name: 'node -e 0', command: process.execPath, args: ['-e', '0'], node: true, wall: [], cpu: [], rssMB: [] },
    { name: 'hailo-tools --help', command: process.execPath, args: [bin, '--help'], node: true, wall: [], cpu: [], rssMB: [] },
    { name: 'hailo-tools hef --streams', command: process.execPath, args: [bin, 'hef', '--streams', hef], node: true, wall: [], cpu: [], rssMB: [] },
    { name: 'hailo-tools check (small script)', command: process.execPath, args: [bin, 'check', small], node: true, wall: [], cpu: [], rssMB: [] },
  ];
  // The same two commands with no compile cache (neither Node's nor ours): what the cache is worth.
  const uncached = { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' };
  contenders.push(
    { ...contenders[2], name: 'hailo-tools hef --streams, no compile cache', env: uncached, wall: [], cpu: [], rssMB: [] },
    { ...contenders[3], name: 'hailo-tools check (small script), no compile cache', env: uncached, wall: [], cpu: [], rssMB: [] },
  );
  if (big)
    contenders.push({
      name: 'hailo-tools check (3.3 MB script)',
      command: process.execPath,
      args: [bin, 'check', big],
      node: true,
      wall: [],
      cpu: [],
      rssMB: [],
    });
  if (hailortcli)
    contenders.push({
      name: 'hailortcli parse-hef --parse-streams',
      command: hailortcli,
      args: ['parse-hef', hef, '--parse-streams'],
      node: false,
      wall: [],
      cpu: [],
      rssMB: [],
    });
  else process.stdout.write('NOTE: no hailortcli (HAILORTCLI or PATH): the row against the real HailoRT CLI is skipped\n');

  const run = (c: Contender, withUsage: boolean) => {
    const args = withUsage ? ['-r', preload, ...c.args] : c.args;
    const t0 = nowMs();
    // In the temp folder: a log a tool writes beside it (hailortcli's hailort.log) goes with it.
    const r = spawnSync(c.command, args, { encoding: 'utf8', maxBuffer: 64 << 20, cwd: work, env: c.env ?? process.env });
    const wall = nowMs() - t0;
    if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
    if (!withUsage) return c.wall.push(wall);
    const m = /##usage (\S+) (\S+)/.exec(r.stderr);
    if (!m) throw new Error(`${c.name}: no usage line`);
    c.cpu.push(Number(m[1]));
    c.rssMB.push(Number(m[2]));
  };
  // One warm-up round (page cache, the compile cache where Node has one), not counted.
  for (const c of contenders) run(c, false);
  const load0 = loadavg()[0];
  for (let i = 0; i < ROUNDS; i++) {
    for (const c of contenders) {
      run(c, false);
      if (c.node) run(c, true);
    }
  }
  const load1 = loadavg()[0];
  for (const c of contenders)
    process.stdout.write(
      `${c.name}: wall median ${ms(median(c.wall))} (${c.wall.map((w) => w.toFixed(0)).join('/')})${c.node ? `, CPU median ${ms(median(c.cpu))}, peak RSS ${median(c.rssMB).toFixed(0)} MB` : ''}\n`,
    );
  process.stdout.write(`load average ${load0.toFixed(1)} → ${load1.toFixed(1)} on ${cpus().length} cores, ${ROUNDS} rounds, Node ${process.version}\n`);
  const nodeCache = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';
  process.stdout.write(
    `compile cache: ${nodeCache ? "Node's own (module.enableCompileCache)" : "the CLI's own (server/src/cli/compileCache.ts; this Node has no module.enableCompileCache)"}\n`,
  );

  const floor = contenders[0];
  const against = (c: Contender, target: number, what: string) => {
    const wall = median(c.wall) / median(floor.wall);
    const cpu = median(c.cpu) / median(floor.cpu);
    report({
      figure: `cli: ${what} vs bare node -e 0 (whole process, median of ${ROUNDS})`,
      target: `≤ ${target}× node`,
      measured: `${ms(median(c.wall))} vs ${ms(median(floor.wall))} = ${wall.toFixed(2)}× wall; CPU ${ms(median(c.cpu))} vs ${ms(median(floor.cpu))} = ${cpu.toFixed(2)}×; RSS ${median(c.rssMB).toFixed(0)} vs ${median(floor.rssMB).toFixed(0)} MB`,
      ratio: target / wall,
    });
  };
  against(contenders[1], 1.5, '`hailo-tools --help`');
  against(contenders[2], 1.5, `\`hailo-tools hef --streams\` (${(statSync(hef).size / 1024).toFixed(0)} KB HEF)`);
  against(contenders[3], 1.5, '`hailo-tools check` (one small script)');
  for (const [cached, uncachedRun] of [
    [contenders[2], contenders[4]],
    [contenders[3], contenders[5]],
  ])
    report({
      figure: `cli: ${cached.name} with the compile cache vs without (same rounds)`,
      target: 'reference (no target)',
      measured: `CPU ${ms(median(cached.cpu))} vs ${ms(median(uncachedRun.cpu))} (${(median(cached.cpu) / median(uncachedRun.cpu)).toFixed(2)}×); wall ${ms(median(cached.wall))} vs ${ms(median(uncachedRun.wall))}`,
      ratio: median(uncachedRun.cpu) / median(cached.cpu),
      ok: true,
    });
  const cli = contenders.find((c) => c.name.startsWith('hailortcli'));
  if (cli) {
    const ours = median(contenders[2].wall);
    const theirs = median(cli.wall);
    report({
      figure: 'cli: `hailo-tools hef --streams` vs the real `hailortcli parse-hef --parse-streams` (same HEF, same rounds)',
      target: 'reference (no target)',
      measured: `${ms(ours)} vs ${ms(theirs)} (${(ours / theirs).toFixed(1)}× hailortcli; bare node ${ms(median(floor.wall))})`,
      ratio: theirs / ours,
      ok: true,
    });
  }
  const bigRun = contenders.find((c) => c.name.includes('3.3 MB'));
  if (bigRun && big) {
    const beyond = median(bigRun.wall) - median(contenders[3].wall);
    const beyondCpu = median(bigRun.cpu) - median(contenders[3].cpu);
    report({
      figure: `cli: \`hailo-tools check\` of the ${(statSync(big).size / 1e6).toFixed(1)} MB script beyond start-up (minus the same command on a small script)`,
      target: '< 400 ms',
      measured: `${ms(beyond)} wall (${ms(median(bigRun.wall))} − ${ms(median(contenders[3].wall))}); CPU ${ms(beyondCpu)}; RSS ${median(bigRun.rssMB).toFixed(0)} MB`,
      ratio: 400 / Math.max(1, beyond),
    });
    // The same analyze + check in one process: first run, its GC, and once compiled.
    const floors = [0, 1, 2, 3, 4].map(() => {
      const r = spawnSync(process.execPath, [__filename, '--alls-floor', big], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`alls floor child failed: ${r.stderr}`);
      return JSON.parse(r.stdout.trim().split('\n').pop()!) as { first: number; compiled: number; gcFirst: number };
    });
    const first = median(floors.map((f) => f.first));
    report({
      figure: `cli: where the ${(statSync(big).size / 1e6).toFixed(1)} MB script's check goes — analyze + check in one process, first run vs compiled (4th run)`,
      target: 'reference',
      measured: `first ${ms(first)} (of which GC ${ms(median(floors.map((f) => f.gcFirst)))}), compiled ${ms(median(floors.map((f) => f.compiled)))}: the rest of the first run is V8 compiling the checker`,
      ratio: 400 / first,
      ok: true,
    });
  }
}

if (process.argv[2] === '--alls-floor') allsFloor(process.argv[3]);
else main();
