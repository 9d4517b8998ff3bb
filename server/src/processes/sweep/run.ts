// Runs a sweep: every variant of the plan is one compile session (compile/session.ts) with its own
// output folder and derived `.alls`, scheduled over the plan's docker contexts through the compile
// pool (a width per context). A variant whose inputs key already has a finished result is not run
// again. A context that does not answer, or lacks the variant's image, is skipped and the variant
// goes elsewhere; a host that goes away during a compile fails that variant with one sentence and
// the rest go on on the other hosts. Cancel stops everything: waiting variants never start, running
// ones stop and lose their container (the runner removes it), finished ones stay. After a compile:
// the accuracy column (the accuracy table's emulator context against the float ONNX on the same
// inputs) and, with a device, FPS/latency. Shared by `hailo-tools sweep` and the extension.
import { FileRoots } from '../../core/common/confined';
import { limit } from '../../core/common/limits';
import { basename, dirname, extname, join, relative } from 'node:path';
import { compileModel, type CompileOutcome } from '../compile/session';
import { CompilePool } from '../compile/pool';
import { capture, type Captured, type ProcessLauncher } from '../compile/process';
import { contextHostArgs, dockerCommand, versionArgs, type DockerTarget } from '../compile/dockerArgs';
import { daemonProblem, refusalProblem, type DockerProblem } from '../compile/dockerErrors';
import { findLeftovers, removeContainers } from '../compile/leftovers';
import { HAILO_CONFIG_NAME } from '../compile/inputs';
import type { DockerSettings, Gpus } from '../compile/runner';
import type { DfcEvent } from '../../core/dfc/types';
import { compareOracles } from '../accuracy/compare';
import { runEmulator, type EmulatorContext } from '../accuracy/emulator';
import type { AccuracyDocument } from '../../core/accuracy/oracles';
import type { Infer } from '../../core/accuracy/reference';
import { BaseScript, checkDerived, DeriveError, findingKey } from '../../core/sweep/derive';
import { checkText } from '../../core/alls';
import { FileDigests, inputsKey, textDigest } from './inputsHash';
import { OnnxModelCache } from '../../core/onnx/modelCache';
import type { SweepPlan } from '../../core/sweep/plan';
import {
  readResult,
  writeResult,
  RESULT_FILE,
  RESULT_VERSION,
  type AccuracyCell,
  type DeviceCell,
  type VariantResult,
  type VariantState,
} from '../../core/sweep/results';
import { buildDocument, sweepCsv, type ContextRow, type SweepDocument, type SweepRow } from '../../core/sweep/table';
import { expandVariants, varyingAxes, type Variant } from '../../core/sweep/variants';

export interface DeviceMeasure {
  fps: number;
  latencyP50Ms: number | null;
  latencyP99Ms: number | null;
}

export interface SweepEnv {
  launch: ProcessLauncher;
  /** Host folder of the driver scripts (hailo_compile.py, hailo_emulate.py). */
  driverDir: string;
  /** `--user uid:gid` for bind-mounted runs. */
  user?: string;
  dockerPath: string;
  /** Machine-scoped extra `docker run` arguments (never from the plan). */
  extraRunArgs: string[];
  /** The pool to schedule on (the extension's, shared with single compiles); default: a new one. */
  pool?: CompilePool;
  signal?: AbortSignal;
  /** The float model's runner for the accuracy column (onnxruntime-node in its own process); absent: the column says why. */
  infer?: (onnx: string) => Infer | undefined;
  /** Why `infer` is absent (e.g. onnxruntime-node not found), for the accuracy cells. */
  inferMissing?: string;
  /** FPS/latency of a HEF on the attached device; absent: no device column. */
  measure?: (hef: string, frames: number, signal: AbortSignal) => Promise<DeviceMeasure | { unavailable: string }>;
  /** Remove the containers an earlier, killed run of this sweep left on its contexts (default: yes). */
  removeLeftovers?: boolean;
  /** Derive, check and key the variants, say which are finished; run nothing (no docker call). */
  dryRun?: boolean;
  /** The ONNX parse cache to use (figures and tests count its parses); default: one per sweep. */
  onnxCache?: OnnxModelCache;
}

export interface SweepCallbacks {
  /** A row changed (state, stage, result). */
  onRow?(row: SweepRow, doc: SweepDocument): void;
  /** One line of progress for a terminal: variant started, finished, failed; a context went away. */
  onProgress?(line: string): void;
  /** A docker context's state changed (up, down with its sentence). */
  onContext?(context: ContextRow, doc: SweepDocument): void;
  onOutput?(variant: string, text: string, stream: 'stdout' | 'stderr'): void;
}

export const DOCUMENT_FILE = 'sweep.json';
export const CSV_FILE = 'sweep.csv';

const HOST_GONE_KINDS = new Set<DockerProblem['kind']>([
  'daemon-down',
  'timeout',
  'context-missing',
  'permission-denied',
  'docker-missing',
  'docker-not-executable',
]);

interface ContextState extends ContextRow {
  missingImages: Set<string>;
}

interface Prepared {
  variant: Variant;
  key: string;
  script: string | null;
  invalid?: string;
  notes: string[];
  accuracyKey: string | null;
}

export async function runSweep(plan: SweepPlan, env: SweepEnv, cb: SweepCallbacks = {}): Promise<SweepDocument> {
  const started = new Date().toISOString();
  const pool = env.pool ?? new CompilePool();
  const signal = env.signal;
  // One parse per ONNX model for the whole sweep (keys, node index of each compile, external data, accuracy).
  const onnx = env.onnxCache ?? new OnnxModelCache();
  const digests = new FileDigests(onnx.read);
  // docker's read-only answers (version, endpoint, images, info) once per context for the whole sweep.
  const queryCache = new Map<string, Promise<Captured>>();
  const say = (line: string) => cb.onProgress?.(line);

  // 1. Variants, their scripts (written by the .alls core, checked by it) and their inputs keys.
  // Everything a plan names or writes stays inside its own folder, links resolved (reads) or refused (writes).
  const roots = FileRoots.of([plan.dir]);
  const prepared = await prepare(plan, digests);
  const byKey = finishedResults(roots, plan.out);
  const rows = new Map<string, SweepRow>();
  const contexts: ContextState[] = plan.contexts.map((c) => ({
    name: c.name,
    width: c.width,
    state: 'unknown',
    local: false,
    message: null,
    ran: 0,
    missingImages: new Set(),
  }));
  const doc = (): SweepDocument => buildDocument(plan, varyingAxes(plan), [...rows.values()], contexts, started, null);
  const emit = (row: SweepRow) => {
    rows.set(row.id, row);
    cb.onRow?.(row, doc());
  };
  let writeTimer: NodeJS.Timeout | undefined;
  const persist = () => {
    roots.writeSync(join(plan.out, DOCUMENT_FILE), JSON.stringify(doc(), null, 1) + '\n');
  };
  for (const p of prepared) {
    const folder = join(plan.out, p.variant.id);
    const base = emptyRow(p, folder);
    if (p.invalid) {
      rows.set(p.variant.id, { ...base, state: 'invalid', message: p.invalid, finished: false });
      continue;
    }
    const prior = byKey.get(p.key);
    if (prior) {
      rows.set(p.variant.id, {
        ...prior,
        id: p.variant.id,
        label: p.variant.label,
        values: p.variant.values,
        state: 'reused',
        reusedFrom: relative(plan.out, prior.files.folder) || '.',
      });
      continue;
    }
    rows.set(p.variant.id, base);
  }
  for (const r of rows.values()) cb.onRow?.(r, doc());
  const total = prepared.length;
  const reused = [...rows.values()].filter((r) => r.state === 'reused').length;
  const invalid = [...rows.values()].filter((r) => r.state === 'invalid');
  say(
    `sweep ${plan.name}: ${total} variant${total === 1 ? '' : 's'} on ${plan.contexts.length} docker context${plan.contexts.length === 1 ? '' : 's'}${reused ? `, ${reused} finished earlier (not run again)` : ''}${invalid.length ? `, ${invalid.length} refused by the .alls rules` : ''}`,
  );
  for (const r of invalid) say(`${r.label}: not run: ${r.message}`);
  if (env.dryRun)
    return buildDocument(
      plan,
      varyingAxes(plan),
      prepared.map((p) => rows.get(p.variant.id)!),
      contexts,
      started,
      new Date().toISOString(),
    );

  const waiting = new Map<string, { withdraw(): boolean; keys: string[] }>();
  let deviceChain: Promise<unknown> = Promise.resolve();
  const tasks: Promise<void>[] = [];

  // 2. The contexts: which answer; leftovers of this sweep (a killed run's containers) removed.
  await Promise.all(
    contexts.map(async (c) => {
      const target: DockerTarget = { dockerPath: env.dockerPath, context: c.name || undefined };
      const problem = await probe(env.launch, target);
      if (problem) {
        markDown(c, problem.message, false);
        return;
      }
      c.state = 'up';
      c.local = await isLocalContext(env.launch, target);
      cb.onContext?.(c, doc());
      pool.setWidth(c.name, Math.max(pool.width(c.name), c.width));
      if (env.removeLeftovers === false) return;
      const { leftovers } = await findLeftovers(env.launch, target);
      const ours = leftovers.filter((l) => l.staging && !relative(plan.out, l.staging).startsWith('..'));
      if (ours.length) {
        const failed = await removeContainers(env.launch, target, ours);
        say(
          `context ${label(c.name)}: removed ${ours.length - failed.length} container${ours.length - failed.length === 1 ? '' : 's'} an earlier run of this sweep left${failed.length ? ` (could not remove ${failed.map((f) => f.name).join(', ')})` : ''}`,
        );
      }
    }),
  );

  // 3. Schedule.

  function markDown(c: ContextState, message: string, lostDuringRun: boolean): void {
    if (c.state === 'down') return;
    c.state = 'down';
    for (const k of [...queryCache.keys()]) if (k.includes(JSON.stringify(c.name))) queryCache.delete(k);
    c.message = message;
    say(`context ${label(c.name)}: ${lostDuringRun ? 'went away' : 'not used'}: ${message}`);
    // Variants waiting only for it go elsewhere.
    for (const [id, w] of [...waiting]) {
      if (!w.keys.includes(c.name)) continue;
      if (w.withdraw()) {
        waiting.delete(id);
        const p = prepared.find((x) => x.variant.id === id)!;
        tasks.push(schedule(p));
      }
    }
    cb.onContext?.(c, doc());
  }

  function eligible(p: Prepared): ContextState[] {
    return contexts.filter((c) => c.state !== 'down' && !c.missingImages.has(p.variant.image ?? ''));
  }

  async function schedule(p: Prepared): Promise<void> {
    if (signal?.aborted) return cancelRow(p);
    const usable = eligible(p);
    if (usable.length === 0) {
      const why = contexts
        .map((c) => `${label(c.name)}: ${c.missingImages.has(p.variant.image ?? '') ? `no image ${p.variant.image ?? '(auto)'}` : (c.message ?? 'down')}`)
        .join('; ');
      endRow(p, { state: 'failed', finished: false, message: `No docker context of the plan can run this variant (${why}).` });
      return;
    }
    const keys = usable.map((c) => c.name);
    const job = pool.enqueue(keys, (ctx) => runVariant(p, ctx));
    waiting.set(p.variant.id, { withdraw: job.withdraw, keys });
    const r = await job.result;
    if (r === 'retry') await schedule(p);
  }

  function cancelRow(p: Prepared): void {
    const row = rows.get(p.variant.id)!;
    if (row.state === 'waiting') emit({ ...row, state: 'cancelled', message: 'Cancelled before it started.' });
  }

  const onAbort = () => {
    for (const [id, w] of [...waiting]) {
      if (w.withdraw()) {
        waiting.delete(id);
        cancelRow(prepared.find((x) => x.variant.id === id)!);
      }
    }
  };
  signal?.addEventListener('abort', onAbort, { once: true });

  async function runVariant(p: Prepared, ctxName: string): Promise<'retry' | 'ended'> {
    waiting.delete(p.variant.id);
    const ctx = contexts.find((c) => c.name === ctxName)!;
    if (signal?.aborted) {
      cancelRow(p);
      return 'ended';
    }
    if (ctx.state === 'down' || ctx.missingImages.has(p.variant.image ?? '')) return 'retry';
    const v = p.variant;
    const folder = join(plan.out, v.id);
    const net = basename(v.model, extname(v.model));
    const allsPath = p.script !== null ? join(folder, `${net}.alls`) : undefined;
    try {
      roots.mkdir(folder);
      // Never through a link: a cloned results/<variant>/<net>.alls linked to a file outside is replaced, not written through.
      if (allsPath) roots.writeSync(allsPath, p.script!);
    } catch (err) {
      const row: SweepRow = { ...rows.get(v.id)!, state: 'failed', message: (err as Error).message };
      emit(row);
      say(`${v.label}: ${(err as Error).message}`);
      return 'ended';
    }
    const t0 = Date.now();
    const startedAt = new Date().toISOString();
    let row: SweepRow = { ...rows.get(v.id)!, state: 'running', dockerContext: ctxName, stage: 'starting', startedAt, message: null };
    emit(row);
    say(`${v.label}: started on ${label(ctxName)}`);
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
        emit(row);
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
        { launch: env.launch, driverDir: env.driverDir, user: env.user, signal, queryCache, readOnnx: onnx.read, onnxCache: onnx },
        { onEvent, onOutput: (t, s) => cb.onOutput?.(v.id, t, s) },
      );
    } catch (err) {
      endRow(p, {
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
      endRow(p, { state: 'invalid', finished: false, message: outcome.inputError, dockerContext: ctxName, startedAt });
      return 'ended';
    }
    const run = outcome.run;
    const report = outcome.report!;
    if (outcome.cancelled || signal?.aborted) {
      endRow(p, {
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
        markDown(ctx, run.problem.message, false);
        revert(p, row);
        return 'retry';
      }
      if (run.problem.kind === 'image-missing') {
        ctx.missingImages.add(v.image ?? '');
        say(`context ${label(ctxName)}: ${run.problem.message}`);
        revert(p, row);
        return 'retry';
      }
    }
    const base = resultFrom(p, folder, outcome, ctxName, seconds, startedAt, allsPath ?? null);
    if (report.outcome !== 'success') {
      // Is the host still there? A compile that ends because its host went away is no verdict of the DFC.
      const gone = await probe(env.launch, { dockerPath: env.dockerPath, context: ctxName || undefined });
      if (gone) {
        markDown(ctx, gone.message, true);
        const left =
          run.container && !run.container.removed
            ? ` Its container ${run.container.name} may still be on that host: the next run of this sweep removes it.`
            : '';
        endRow(p, {
          ...base,
          state: 'lost',
          finished: false,
          outcome: null,
          failedStage: null,
          message: `The docker host went away while this variant ran on ${label(ctxName)}: ${lowerFirst(trimDot(gone.message))}; the variant did not finish and runs again when the sweep is started again.${left}`,
        });
        return 'ended';
      }
    }
    if (report.outcome === 'success') {
      row = { ...row, ...base, state: 'running', stage: 'measuring' };
      emit(row);
      const extra = await measure(p, base, ctxName);
      endRow(p, { ...base, ...extra });
    } else endRow(p, base);
    return 'ended';
  }

  /** A variant that never started on `ctx` waits again (its row goes back to waiting). */
  function revert(p: Prepared, row: SweepRow): void {
    emit({ ...row, state: 'waiting', dockerContext: null, stage: undefined, startedAt: null });
  }

  async function measure(p: Prepared, r: VariantResult, ctxName: string): Promise<Partial<VariantResult>> {
    const out: Partial<VariantResult> = {};
    if (plan.accuracy && r.files.optimizedHar) out.accuracy = await accuracyOf(p, r.files.optimizedHar, r.files.alls, ctxName);
    if (plan.device && env.measure && r.files.hef) out.device = await deviceOf(r.files.hef);
    return out;
  }

  /** Where the emulator runs for a variant whose pool slot is on `slotCtx` (see emulatorContext). */
  function emulatorContext(p: Prepared, slotCtx: string): string {
    if (plan.accuracy!.dockerContext !== undefined) return plan.accuracy!.dockerContext;
    const own = contexts.find((c) => c.name === slotCtx);
    if (own?.local) return slotCtx;
    const local = contexts.find((c) => c.state === 'up' && c.local && !c.missingImages.has(p.variant.image ?? ''));
    return local ? local.name : slotCtx;
  }

  async function accuracyOf(p: Prepared, har: string, alls: string | null, slotCtx: string): Promise<AccuracyCell> {
    const acc = plan.accuracy!;
    // A figure (or the emulator's own crash) is kept under the accuracy key; a cell that is only
    // unavailable (cancelled, docker refused, the float model missing) has none: measured again next start.
    const cell = (c: Partial<AccuracyCell>): AccuracyCell => {
      const status = c.status ?? 'unavailable';
      return {
        context: acc.context,
        relativeError: null,
        cosine: null,
        maxAbsError: null,
        inputs: '',
        ...c,
        status,
        key: status === 'unavailable' ? '' : (p.accuracyKey ?? ''),
      };
    };
    const infer = env.infer?.(plan.onnx!);
    if (!infer) return cell({ message: env.inferMissing ?? 'the float model cannot run: onnxruntime-node was not found' });
    // The plan's accuracy.dockerContext, else the variant's own context when it is this machine (the
    // HAR is bind-mounted), else a local context of the plan that has the image, else — a plan of
    // remote hosts only — the context that compiled the variant, through docker cp.
    const dockerContext = emulatorContext(p, slotCtx);
    const work = join(dirname(har), '.sweep-accuracy');
    roots.remove(work, { recursive: true });
    roots.mkdir(work);
    try {
      const docAcc = await compareOracles(
        {
          onnx: plan.onnx!,
          har,
          alls: alls ?? undefined,
          calib: p.variant.calibration,
          inputsNpy: acc.inputs,
          count: acc.inputs ? undefined : acc.count,
          seed: acc.seed,
          contexts: [acc.context as EmulatorContext],
          workDir: work,
        },
        {
          infer,
          readOnnx: onnx.read,
          emulate: (req) =>
            runEmulator(
              { ...req, hwArch: p.variant.hwArch },
              {
                dockerPath: env.dockerPath,
                context: dockerContext || undefined,
                image: p.variant.image,
                gpus: (plan.gpus ?? 'auto') as Gpus,
                memoryLimit: plan.memoryLimit,
                extraRunArgs: env.extraRunArgs,
              },
              { launch: env.launch, driverDir: env.driverDir, user: env.user, signal, queryCache },
            ),
        },
      );
      return cell(accuracyCellFrom(docAcc, acc.context));
    } catch (err) {
      return cell({ message: (err as Error).message });
    } finally {
      roots.remove(work, { recursive: true });
    }
  }

  function deviceOf(hef: string): Promise<DeviceCell> {
    const key = textDigest(`device ${plan.device!.frames}`);
    const next = deviceChain.then(async (): Promise<DeviceCell> => {
      if (signal?.aborted) return { status: 'unavailable', message: 'cancelled', key };
      const m = await env.measure!(hef, plan.device!.frames, signal ?? new AbortController().signal);
      return 'unavailable' in m ? { status: 'unavailable', message: m.unavailable, key } : { status: 'ok', ...m, key };
    });
    deviceChain = next.catch(() => undefined);
    return next.catch((err: Error) => ({ status: 'unavailable' as const, message: err.message, key }));
  }

  function endRow(p: Prepared, r: Partial<VariantResult> & Pick<VariantResult, 'state' | 'finished' | 'message'>): void {
    const folder = join(plan.out, p.variant.id);
    const prev = rows.get(p.variant.id)!;
    const result: VariantResult = { ...stripLive(prev), ...r, endedAt: new Date().toISOString(), key: p.key, version: RESULT_VERSION };
    // Only a variant that ran writes its folder's record (a refused or never-started one has nothing to keep).
    if (r.startedAt) writeResult(roots, folder, result);
    const row: SweepRow = { ...result, state: r.state };
    emit(row);
    const what =
      r.state === 'done'
        ? `done in ${fmtSeconds(result.seconds)}${result.hefBytes !== null ? `, HEF ${fmtBytes(result.hefBytes)}` : ''}${result.contexts !== null ? `, ${result.contexts} context${result.contexts === 1 ? '' : 's'}` : ''}${result.accuracy?.relativeError != null ? `, ${result.accuracy.context} vs float ${(100 * result.accuracy.relativeError).toFixed(2)} %` : ''}`
        : `${r.state.toUpperCase()}${result.failedStage ? ` at ${result.failedStage}` : ''}: ${result.message ?? ''}`;
    say(`${p.variant.label}: ${what}`);
    clearTimeout(writeTimer);
    writeTimer = setTimeout(persist, 200);
  }

  // Compile what is not finished yet; measure what finished earlier without this plan's accuracy.
  for (const p of prepared) {
    const row = rows.get(p.variant.id)!;
    if (row.state === 'waiting') tasks.push(schedule(p));
    else if (row.state === 'reused' && plan.accuracy && row.files.optimizedHar && roots.exists(row.files.optimizedHar) && row.accuracy?.key !== p.accuracyKey) {
      // Finished earlier, measured with other accuracy settings (or none): measure, do not compile again.
      tasks.push(
        (async () => {
          const up = contexts.filter((c) => c.state === 'up');
          const keys = up.length ? up.map((c) => c.name) : [''];
          const job = pool.enqueue(keys, (ctx) => accuracyOf(p, row.files.optimizedHar!, row.files.alls, ctx));
          const cell = await job.result;
          if (!cell) return;
          const prior = byKey.get(p.key)!;
          writeResult(roots, prior.files.folder, { ...prior, accuracy: cell });
          emit({ ...rows.get(p.variant.id)!, accuracy: cell });
        })(),
      );
    }
  }
  try {
    // New tasks are added while these run (a variant rescheduled when its context went away).
    for (let i = 0; i < tasks.length; i++) await tasks[i];
  } finally {
    signal?.removeEventListener('abort', onAbort);
    clearTimeout(writeTimer);
  }
  for (const c of contexts) c.ran = [...rows.values()].filter((r) => r.dockerContext === c.name && r.state !== 'reused' && r.startedAt).length;
  const final = buildDocument(
    plan,
    varyingAxes(plan),
    prepared.map((p) => rows.get(p.variant.id)!),
    contexts,
    started,
    new Date().toISOString(),
  );
  roots.writeSync(join(plan.out, DOCUMENT_FILE), JSON.stringify(final, null, 1) + '\n');
  roots.writeSync(join(plan.out, CSV_FILE), sweepCsv(final));
  return final;
}

async function prepare(plan: SweepPlan, digests: FileDigests): Promise<Prepared[]> {
  const roots = FileRoots.of([plan.dir]);
  const baseText = plan.alls ? roots.readText(plan.alls, limit('documentChars')) : null;
  const base = new BaseScript(baseText ?? '');
  const baseFindings = new Map<string, Set<string>>();
  const findingsFor = (arch: string) => {
    let s = baseFindings.get(arch);
    if (!s) {
      s = new Set(checkText(base.text, { settings: { hwArch: arch } }).map(findingKey));
      baseFindings.set(arch, s);
    }
    return s;
  };
  const accuracyKey = plan.accuracy
    ? textDigest(
        JSON.stringify([
          plan.accuracy.context,
          plan.accuracy.count,
          plan.accuracy.seed,
          plan.accuracy.inputs ? await digests.file(plan.accuracy.inputs) : null,
          await digests.model(plan.onnx!),
        ]),
      )
    : null;
  const out: Prepared[] = [];
  for (const v of expandVariants(plan)) {
    const notes: string[] = [];
    let script: string | null = null;
    let invalid: string | undefined;
    if (baseText !== null || v.edits.length || v.appends.length) {
      try {
        const header = [`hailo-tools sweep '${plan.name}', variant ${v.label}${plan.alls ? `, from ${basename(plan.alls)}` : ''}`];
        script = base.derive(v.edits, v.appends, header);
        const check = checkDerived(script, v.hwArch, findingsFor(v.hwArch));
        if (check.errors.length) {
          const e = check.errors[0];
          invalid = `The derived script is refused by the .alls rules (line ${e.range.start.line + 1}: ${e.message}${check.errors.length > 1 ? ` — and ${check.errors.length - 1} more` : ''}); nothing was run.`;
        }
        for (const d of check.newFindings) notes.push(`${d.severity} ${d.code}: ${d.message}`);
      } catch (err) {
        if (!(err instanceof DeriveError)) throw err;
        invalid = `The variant's script cannot be written: ${err.message}`;
      }
    }
    const configBeside = join(dirname(v.model), HAILO_CONFIG_NAME);
    const key = inputsKey({
      model: await digests.model(v.model),
      script: script === null ? null : textDigest(stripHeader(script)),
      calibration: v.calibration ? await digests.file(v.calibration) : null,
      image: v.image ?? null,
      hwArch: v.hwArch,
      startNodes: plan.startNodes,
      endNodes: plan.endNodes,
      hailoConfig: roots.isFile(configBeside) ? await digests.file(configBeside) : null,
    });
    out.push({ variant: v, key, script, invalid, notes, accuracyKey });
  }
  return out;
}

/** The key hashes the script without our header comment (it names the variant, not what it compiles). */
function stripHeader(script: string): string {
  return script.replace(/^# hailo-tools sweep [^\n]*\n/, '');
}

/** Finished results under `out`, by inputs key (a variant renamed or moved is still found). */
function finishedResults(roots: FileRoots, out: string): Map<string, VariantResult> {
  const found = new Map<string, VariantResult>();
  for (const n of roots.listOrEmpty(out)) {
    if (n.startsWith('.')) continue;
    const folder = join(out, n);
    if (!roots.exists(join(folder, RESULT_FILE))) continue;
    const r = readResult(roots, folder);
    if (r?.finished && r.files.folder === folder) found.set(r.key, r);
  }
  return found;
}

function emptyRow(p: Prepared, folder: string): SweepRow {
  const v = p.variant;
  return {
    version: RESULT_VERSION,
    key: p.key,
    id: v.id,
    label: v.label,
    values: v.values,
    finished: false,
    state: 'waiting',
    message: null,
    outcome: null,
    failedStage: null,
    stages: { parse: null, optimize: null, compile: null },
    seconds: null,
    dockerContext: null,
    image: v.image ?? null,
    hwArch: v.hwArch,
    dfcVersion: null,
    contexts: null,
    utilization: { control: null, compute: null, memory: null },
    hefBytes: null,
    mtmd: null,
    accuracy: null,
    device: null,
    files: { folder, alls: null, log: null, har: null, optimizedHar: null, hef: null },
    notes: p.notes,
    startedAt: null,
    endedAt: null,
  };
}

function resultFrom(p: Prepared, folder: string, o: CompileOutcome, ctx: string, seconds: number, startedAt: string, alls: string | null): VariantResult {
  const r = o.report!;
  const stage = (n: 'parse' | 'optimize' | 'compile') => r.stages.find((s) => s.name === n)?.seconds ?? o.run.manifest?.stages?.[n]?.seconds ?? null;
  const success = r.outcome === 'success';
  const dfcVerdict = r.outcome === 'failed' && (r.failedStage === 'parse' || r.failedStage === 'optimize' || r.failedStage === 'compile');
  const firstError = r.diagnostics.find((d) => d.severity === 'error');
  return {
    version: RESULT_VERSION,
    key: p.key,
    id: p.variant.id,
    label: p.variant.label,
    values: p.variant.values,
    finished: success || dfcVerdict,
    state: success ? 'done' : 'failed',
    message: success ? null : firstError ? firstSentence(firstError.message) : `The compile ended ${r.outcome}${r.failedStage ? ` in ${r.failedStage}` : ''}.`,
    outcome: r.outcome,
    failedStage: r.failedStage,
    stages: { parse: stage('parse'), optimize: stage('optimize'), compile: stage('compile') },
    seconds,
    dockerContext: ctx,
    image: r.container?.image ?? p.variant.image ?? null,
    hwArch: p.variant.hwArch,
    dfcVersion: r.dfcVersion,
    contexts: r.summary.contexts,
    utilization: { control: r.summary.controlUtilization, compute: r.summary.computeUtilization, memory: r.summary.memoryUtilization },
    hefBytes: r.hef?.bytes ?? null,
    mtmd: r.hef?.contract ?? null,
    accuracy: null,
    device: null,
    files: { folder, alls, log: r.log, har: r.outputs.har, optimizedHar: r.outputs.optimizedHar, hef: r.outputs.hef },
    notes: [...p.notes, ...r.notes],
    startedAt,
    endedAt: null,
  };
}

function accuracyCellFrom(doc: AccuracyDocument, context: string): Partial<AccuracyCell> {
  let rel: number | null = null;
  let cos: number | null = null;
  let max: number | null = null;
  for (const t of doc.outputs) {
    const row = t.rows.find((r) => r.oracle === context);
    if (!row || row.status !== 'ok') return { status: row?.status ?? 'unavailable', message: row?.message ?? `no ${context} row`, inputs: doc.inputs.text };
    const m = row.vsFloat;
    if (!m) return { status: 'unavailable', message: 'the float model did not run', inputs: doc.inputs.text };
    if (m.relativeError !== null) rel = Math.max(rel ?? 0, m.relativeError);
    if (m.cosine !== null) cos = Math.min(cos ?? 1, m.cosine);
    max = Math.max(max ?? 0, m.maxAbsError);
  }
  const floatRow = doc.outputs[0]?.rows.find((r) => r.oracle === 'float');
  if (floatRow && floatRow.status !== 'ok')
    return { status: 'unavailable', message: `the float model did not run: ${floatRow.message ?? ''}`, inputs: doc.inputs.text };
  return { status: 'ok', relativeError: rel, cosine: cos, maxAbsError: max, inputs: doc.inputs.text };
}

/** `docker version` on the context: undefined when its daemon answers, else why not. */
async function probe(launch: ProcessLauncher, target: DockerTarget): Promise<DockerProblem | undefined> {
  const r = await capture(launch, ...dockerCommand(target, versionArgs()), { timeoutMs: 20_000 });
  const ctx = { dockerPath: target.dockerPath, context: target.context };
  const p = daemonProblem(r, ctx) ?? (r.code !== 0 ? refusalProblem(r, ctx) : undefined);
  if (p) return p;
  return undefined;
}

/** Whether a context's endpoint is this machine (bind mounts work: the emulator can run there). */
export async function isLocalContext(launch: ProcessLauncher, target: DockerTarget): Promise<boolean> {
  const r = await capture(launch, ...dockerCommand(target, contextHostArgs(target.context)), { timeoutMs: 20_000 });
  return r.code === 0 && /^"(unix|npipe):\/\//.test(r.stdout.trim());
}

function stripLive(r: SweepRow): VariantResult {
  const { stage: _stage, reusedFrom: _from, ...rest } = r;
  return { ...rest, state: r.state === 'reused' || r.state === 'waiting' || r.state === 'running' ? 'done' : r.state };
}

const label = (ctx: string) => (ctx ? `'${ctx}'` : "docker's current context");
const trimDot = (s: string) => s.replace(/[.\s]+$/, '');
const lowerFirst = (s: string) => (/^The /.test(s) ? `t${s.slice(1)}` : s);
const firstSentence = (s: string) => {
  const m = /^(.*?[.!?])(\s|$)/s.exec(s);
  return (m ? m[1] : s).slice(0, 400);
};
export const fmtSeconds = (s: number | null) => (s === null ? '–' : s < 60 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`);
export const fmtBytes = (b: number) => (b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(1)} MB` : b >= 1024 ? `${(b / 1024).toFixed(1)} KB` : `${b} B`);
export type { VariantState };
