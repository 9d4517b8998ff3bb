// One variant on one docker context: its folder and derived `.alls` written (never through a link),
// one compile session (compile/session.ts) with the row following the log reader's stages, then what
// the run means — cancelled; docker refused because of the host (the context goes down, the variant
// waits for another) or the image (that context is skipped for this image); a run that ended without
// success on a host that no longer answers is `lost`, not a DFC verdict; else its result, with the
// accuracy and device columns measured after a success (docs/sweep.md "Hosts", "Cancel").
import { basename, extname, join } from 'node:path';
import type { FileRoots } from '../../core/common/confined';
import type { DfcEvent } from '../../core/dfc/types';
import type { OnnxModelCache } from '../../core/onnx/modelCache';
import type { SweepPlan } from '../../core/sweep/plan';
import type { SweepRow } from '../../core/sweep/table';
import type { PlannedVariant } from '../../core/sweep/variantPlan';
import { contextLabel } from '../../core/sweep/schedule';
import { resultFrom } from '../../core/sweep/columns';
import { compileModel, type CompileOutcome } from '../compile/session';
import type { DockerSettings, Gpus } from '../compile/runner';
import { HOST_GONE_KINDS, type SweepContexts } from './contexts';
import type { LiveTable } from './liveTable';
import type { SweepMeasure } from './measure';
import type { SweepCallbacks, SweepEnv } from './types';

export interface VariantRunDeps {
  plan: SweepPlan;
  env: SweepEnv;
  cb: SweepCallbacks;
  roots: FileRoots;
  onnx: OnnxModelCache;
  table: LiveTable;
  contexts: SweepContexts;
  measure: SweepMeasure;
}

/** Runs `p` on context `ctxName`: 'retry' when that context cannot take it after all (it waits for another), else 'ended'. */
export async function runVariant(p: PlannedVariant, ctxName: string, d: VariantRunDeps): Promise<'retry' | 'ended'> {
  const { plan, env, table } = d;
  const signal = env.signal;
  const ctx = d.contexts.byName(ctxName);
  if (signal?.aborted) {
    table.cancel(p);
    return 'ended';
  }
  if (ctx.state === 'down' || ctx.missingImages.has(p.variant.image ?? '')) return 'retry';
  const v = p.variant;
  const folder = join(plan.out, v.id);
  const net = basename(v.model, extname(v.model));
  const allsPath = p.script !== null ? join(folder, `${net}.alls`) : undefined;
  try {
    d.roots.mkdir(folder);
    // Never through a link: a cloned results/<variant>/<net>.alls linked to a file outside is replaced, not written through.
    if (allsPath) d.roots.writeSync(allsPath, p.script!);
  } catch (err) {
    table.emit({ ...table.row(v.id), state: 'failed', message: (err as Error).message });
    table.say(`${v.label}: ${(err as Error).message}`);
    return 'ended';
  }
  const t0 = Date.now();
  const startedAt = new Date().toISOString();
  let row: SweepRow = { ...table.row(v.id), state: 'running', dockerContext: ctxName, stage: 'starting', startedAt, message: null };
  table.emit(row);
  table.say(`${v.label}: started on ${contextLabel(ctxName)}`);
  const settings: DockerSettings = {
    dockerPath: env.dockerPath,
    context: ctxName || undefined,
    image: v.image,
    memoryLimit: plan.memoryLimit,
    gpus: (plan.gpus ?? 'auto') as Gpus,
    extraRunArgs: env.extraRunArgs,
  };
  const onEvent = (e: DfcEvent) => {
    let stage: string | undefined;
    if (e.kind === 'stageStarted') stage = e.stage;
    else if (e.kind === 'progress' && e.stage) stage = `${e.stage} · ${e.label} ${e.done}${e.total ? `/${e.total}` : ''}`;
    if (stage && stage !== row.stage) {
      row = { ...row, stage };
      table.emit(row);
    }
  };
  let outcome: CompileOutcome;
  try {
    outcome = await compileModel(
      {
        model: v.model,
        modelScript: allsPath,
        calibration: v.calibration,
        hwArch: v.hwArch,
        startNodes: plan.startNodes,
        endNodes: plan.endNodes,
        outDir: folder,
      },
      settings,
      { launch: env.launch, driverDir: env.driverDir, user: env.user, signal, queryCache: d.contexts.queryCache, readOnnx: d.onnx.read, onnxCache: d.onnx },
      { onEvent, onOutput: (t, s) => d.cb.onOutput?.(v.id, t, s) },
    );
  } catch (err) {
    table.end(p, {
      state: 'failed',
      finished: false,
      message: `The compile stopped with an internal error: ${(err as Error).message}.`,
      dockerContext: ctxName,
      startedAt,
    });
    return 'ended';
  }
  const seconds = (Date.now() - t0) / 1000;
  if (outcome.inputError) {
    table.end(p, { state: 'invalid', finished: false, message: outcome.inputError, dockerContext: ctxName, startedAt });
    return 'ended';
  }
  const run = outcome.run;
  const report = outcome.report!;
  if (outcome.cancelled || signal?.aborted) {
    table.end(p, {
      state: 'cancelled',
      finished: false,
      message: 'Cancelled while it ran: its container was removed; nothing of this run was kept.',
      dockerContext: ctxName,
      startedAt,
      seconds,
    });
    return 'ended';
  }
  // Docker refused before the container ran: the host or the image, not the variant.
  if (run.status === 'docker-failed' && run.problem && !run.exit) {
    if (HOST_GONE_KINDS.has(run.problem.kind)) {
      d.contexts.markDown(ctx, run.problem.message, false);
      table.revert(row);
      return 'retry';
    }
    if (run.problem.kind === 'image-missing') {
      ctx.missingImages.add(v.image ?? '');
      table.say(`context ${contextLabel(ctxName)}: ${run.problem.message}`);
      table.revert(row);
      return 'retry';
    }
  }
  const base = resultFrom(p, folder, { report, driverStages: run.manifest?.stages }, ctxName, seconds, startedAt, allsPath ?? null);
  if (report.outcome !== 'success') {
    // Is the host still there? A compile that ends because its host went away is no verdict of the DFC.
    const gone = await d.contexts.probe(ctxName);
    if (gone) {
      d.contexts.markDown(ctx, gone.message, true);
      const left =
        run.container && !run.container.removed ? ` Its container ${run.container.name} may still be on that host: the next run of this sweep removes it.` : '';
      table.end(p, {
        ...base,
        state: 'lost',
        finished: false,
        outcome: null,
        failedStage: null,
        message: `The docker host went away while this variant ran on ${contextLabel(ctxName)}: ${lowerFirst(trimDot(gone.message))}; the variant did not finish and runs again when the sweep is started again.${left}`,
      });
      return 'ended';
    }
  }
  if (report.outcome === 'success') {
    row = { ...row, ...base, state: 'running', stage: 'measuring' };
    table.emit(row);
    const extra = await d.measure.after(p, base, ctxName);
    table.end(p, { ...base, ...extra });
  } else table.end(p, base);
  return 'ended';
}

const trimDot = (s: string) => s.replace(/[.\s]+$/, '');
const lowerFirst = (s: string) => (/^The /.test(s) ? `t${s.slice(1)}` : s);
