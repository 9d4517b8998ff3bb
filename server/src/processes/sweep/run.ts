// Runs a sweep (docs/sweep.md): the plan of every variant (core/sweep/variantPlan.ts: derived,
// checked scripts; inputsHash.ts: their keys), the schedule (core/sweep/schedule.ts: what is reused,
// what compiles, in what order; queue.ts carries it out over the compile pool), the docker contexts
// (contexts.ts: which answer, leftovers removed, a host that goes away), one variant on one context
// (variant.ts: a compile session, then the measured columns of measure.ts), and the table
// (liveTable.ts; its columns in core/sweep/columns.ts). Cancel stops everything: waiting variants
// never start, running ones stop and lose their container, finished ones stay. Shared by
// `hailo-tools sweep` and the extension.
import { FileRoots } from '../../core/common/confined';
import { limit } from '../../core/common/limits';
import { OnnxModelCache } from '../../core/onnx/modelCache';
import type { SweepPlan } from '../../core/sweep/plan';
import { finishedResults, writeResult } from '../../core/sweep/results';
import { accuracyContexts, initialContexts, initialRows, jobs, startLine } from '../../core/sweep/schedule';
import type { SweepDocument } from '../../core/sweep/table';
import { planVariants } from '../../core/sweep/variantPlan';
import { CompilePool } from '../compile/pool';
import { SweepContexts } from './contexts';
import { FileDigests, keyVariants } from './inputsHash';
import { LiveTable } from './liveTable';
import { SweepMeasure } from './measure';
import { SweepQueue } from './queue';
import type { SweepCallbacks, SweepEnv } from './types';
import { runVariant } from './variant';

export type { DeviceMeasure, SweepCallbacks, SweepEnv } from './types';
export { CSV_FILE, DOCUMENT_FILE } from './liveTable';

export async function runSweep(plan: SweepPlan, env: SweepEnv, cb: SweepCallbacks = {}): Promise<SweepDocument> {
  const started = new Date().toISOString();
  const pool = env.pool ?? new CompilePool();
  const signal = env.signal;
  // One parse per ONNX model for the whole sweep (keys, node index of each compile, external data, accuracy).
  const onnx = env.onnxCache ?? new OnnxModelCache();

  // The plan. Everything a plan names or writes stays inside its own folder, links resolved (reads) or refused (writes).
  const roots = FileRoots.of([plan.dir]);
  const baseText = plan.alls ? roots.readText(plan.alls, limit('documentChars')) : null;
  const planned = await keyVariants(plan, planVariants(plan, baseText), new FileDigests(onnx.read), roots);
  const finished = finishedResults(roots, plan.out);
  const contextStates = initialContexts(plan);
  const table = new LiveTable(plan, initialRows(planned, finished, plan.out), contextStates, started, roots, cb);
  table.announce();
  table.say(startLine(plan, table.rows.values()));
  for (const r of table.rows.values()) if (r.state === 'invalid') table.say(`${r.label}: not run: ${r.message}`);
  if (env.dryRun) return table.ended(planned);

  // The queue and the contexts (a context that goes down sends its waiting variants to the others).
  const queue: SweepQueue = new SweepQueue(pool, contextStates, {
    signal,
    run: (p, ctx) => runVariant(p, ctx, { plan, env, cb, roots, onnx, table, contexts, measure }),
    cancel: (p) => table.cancel(p),
    fail: (p, message) => table.end(p, { state: 'failed', finished: false, message }),
  });
  const contexts = new SweepContexts(contextStates, env, {
    say: (line) => table.say(line),
    changed: (c) => cb.onContext?.(c, table.doc()),
    down: (name) => queue.contextDown(name),
  });
  const measure = new SweepMeasure(plan, env, roots, onnx, contextStates, contexts.queryCache);
  // Which contexts answer; leftovers of this sweep (a killed run's containers) removed.
  await contexts.open(pool, plan.out);

  // The schedule, in plan order: compile what is not finished; measure what finished earlier without this plan's accuracy.
  const onAbort = () => queue.cancelWaiting();
  signal?.addEventListener('abort', onAbort, { once: true });
  for (const job of jobs(plan, planned, table.rows, (path) => roots.exists(path))) {
    const p = job.variant;
    if (job.kind === 'compile') queue.compile(p);
    else
      queue.slot(
        accuracyContexts(contextStates),
        (ctx) => measure.accuracy(p, job.har, job.alls, ctx),
        (cell) => {
          const prior = finished.get(p.key)!;
          writeResult(roots, prior.files.folder, { ...prior, accuracy: cell });
          table.emit({ ...table.row(p.variant.id), accuracy: cell });
        },
      );
  }
  try {
    await queue.drain();
  } finally {
    signal?.removeEventListener('abort', onAbort);
    table.stop();
  }
  for (const c of contextStates) c.ran = [...table.rows.values()].filter((r) => r.dockerContext === c.name && r.state !== 'reused' && r.startedAt).length;
  const final = table.ended(planned);
  table.persist(final, true);
  return final;
}
