// How loaded the machine is when the suite starts, as one factor the suite's deadline is scaled by
// (waits.ts deadlineMs). Two measures, the larger wins:
//  - contention: a fixed single-threaded CPU loop's wall time over the CPU time it used
//    (process.cpuUsage). On an idle core they are equal; when other processes take the cores, the
//    loop waits its turn and the wall time grows. No figure from another machine is needed.
//  - the run queue: the 1-minute load average per core (os.loadavg, os.availableParallelism).
// The factor is at least 1 and at most MAX_FACTOR (a run that fails should still end).
import { availableParallelism, loadavg } from 'node:os';

export const MAX_FACTOR = 8;

function cpuLoop() {
  let x = 0;
  for (let i = 0; i < 5_000_000; i++) x = (x * 31 + i) % 1000003;
  return x;
}

/** wall/CPU of one run of the loop. */
function contentionOnce() {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  cpuLoop();
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return wallMs / Math.max(cpuMs, 1);
}

/** { factor, contention, loadPerCore, load, cores } — the median of 5 loops, and the load average now. */
export function measureLoadFactor() {
  const runs = Array.from({ length: 5 }, contentionOnce).sort((a, b) => a - b);
  const contention = runs[2];
  const cores = availableParallelism();
  const load = loadavg();
  const loadPerCore = load[0] / cores;
  const factor = Math.min(MAX_FACTOR, Math.max(1, contention, loadPerCore));
  return { factor: Math.round(factor * 100) / 100, contention, loadPerCore, load, cores };
}

export function describeLoad(m) {
  return `load factor ${m.factor.toFixed(2)} (a CPU loop took ${m.contention.toFixed(2)}× its CPU time; load average ${m.load.map((l) => l.toFixed(2)).join(' ')} on ${m.cores} cores)`;
}
