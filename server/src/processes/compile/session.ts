// One compile from the caller's side (CLI and extension): the runner starts the container, the DFC
// log reader (server/src/core/dfc) reads its console as it arrives and turns it into stages, progress and
// diagnostics, and afterwards the HEF core checks the new HEF (intact; carries the hailo-config.json
// it was asked to embed; the mtmd contract). The console is also saved beside the outputs as
// `<net>.dfc.log`, so `hailo-tools dfc-log` can explain it later and diagnostics can point into it.
import type { WriteStream } from 'node:fs';
import { FileRoots } from '../../core/common/confined';
import { limit } from '../../core/common/limits';
import { join } from 'node:path';
import { DfcLogReader, onnxNodeIndex, type DfcDiagnostic, type DfcEvent, type DfcLogContext, type DfcReport } from '../../core/dfc';
import { analyzeOnnx } from '../../core/onnx/analysis';
import { readOnnxFile } from '../../core/onnx/reader';
import type { OnnxModel } from '../../core/onnx/model';
import type { OnnxModelCache } from '../../core/onnx/modelCache';
import { checkMtmdSource, fileSource, isIntact, readHef, readResource, HAILO_CONFIG } from '../../core/hef';
import type { DockerProblem } from './dockerErrors';
import { resolveInputs, type CompileInputs } from './inputs';
import { runCompile, type CompileRun, type ContainerInfo, type DockerSettings, type RunnerEnv, type RunnerStep } from './runner';
import { pushAll } from '../../core/common/arrays';

export interface HefCheck {
  path: string;
  bytes: number;
  intact: boolean;
  /** `embedded`: the HEF carries the file it was asked to (same bytes); `missing`; `different` bytes; `not-requested`. */
  hailoConfig: 'embedded' | 'missing' | 'different' | 'not-requested';
  /** The mtmd contract, checked when a hailo-config.json was requested or the HEF carries one. */
  contract: { pass: boolean; failed: string[] } | null;
}

/** `hailo-tools dfc-log --json`'s document plus what only a compile knows. */
export interface CompileReport extends DfcReport {
  outputs: { har: string | null; optimizedHar: string | null; hef: string | null };
  container: ContainerInfo | null;
  hef: HefCheck | null;
  /** The saved console log, when the container printed anything. */
  log: string | null;
  calibration: 'file' | 'random' | null;
  /** Cleanup trouble and the like: worth saying, never fatal. */
  notes: string[];
}

export interface CompileOutcome {
  /** Undefined only for input errors (nothing ran; `inputError` says why). */
  report?: CompileReport;
  run: CompileRun;
  inputError?: string;
  cancelled: boolean;
}

export interface SessionCallbacks {
  onEvent?(event: DfcEvent): void;
  onOutput?(text: string, stream: 'stdout' | 'stderr'): void;
  onStep?(step: RunnerStep, detail: string): void;
}

export type SessionEnv = Omit<RunnerEnv, 'onOutput' | 'onStep'> & {
  /** The sweep's ONNX cache: the node index is built once per model, not once per compile. */
  onnxCache?: OnnxModelCache;
};

export const LOG_SUFFIX = '.dfc.log';

export async function compileModel(inputs: CompileInputs, settings: DockerSettings, env: SessionEnv, cb: SessionCallbacks = {}): Promise<CompileOutcome> {
  const resolved = resolveInputs(inputs);
  if (typeof resolved === 'string') {
    const run = await runCompile(inputs, settings, { ...env, onOutput: () => undefined });
    return { run, inputError: resolved, cancelled: false };
  }
  const logPath = join(resolved.outDir, `${resolved.net}${LOG_SUFFIX}`);
  let allsText: string | undefined;
  try {
    allsText = resolved.modelScript ? resolved.readRoots.readText(resolved.modelScript, limit('documentChars')) : undefined;
  } catch {
    allsText = undefined;
  }
  const context: DfcLogContext = { logPath, allsPath: resolved.modelScript, allsText };
  if (resolved.kind === 'onnx') {
    // Node names (errors land on the graph view's node lines; tensor vs node names), weights unread.
    try {
      const nodes = (m: OnnxModel) => onnxNodeIndex(analyzeOnnx(m), resolved.model);
      context.onnx = env.onnxCache ? env.onnxCache.derive(resolved.model, 'dfc-node-index', nodes) : nodes(readOnnxFile(resolved.model));
      context.onnxPath = resolved.model;
    } catch {
      context.onnxPath = resolved.model; // the DFC will say what is wrong with the model
    }
  }
  // The console is watched as it prints: stage lines must not wait for the lines after them.
  const reader = new DfcLogReader({ ...context, live: true });
  let log: WriteStream | undefined;
  /** Why the log could not be saved (a link or FIFO in its place, a read-only folder): one note, the compile goes on. */
  let logProblem: string | undefined;
  let logLines = 1;
  const onOutput = (text: string, stream: 'stdout' | 'stderr') => {
    if (!log && logProblem === undefined) {
      try {
        resolved.writeRoots.mkdir(resolved.outDir);
        // Never through a link: a cloned folder's `<net>.dfc.log -> ~/.bashrc` must not be overwritten.
        log = resolved.writeRoots.createWriteStream(logPath);
        log.on('error', () => undefined); // a log we cannot write must not stop the compile
      } catch (err) {
        logProblem = `The DFC log was not saved: ${(err as Error).message}.`;
      }
    }
    log?.write(text);
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) logLines++;
    cb.onOutput?.(text, stream);
    for (const e of reader.push(text)) cb.onEvent?.(e);
  };
  const run = await runCompile(inputs, settings, { ...env, onOutput, onStep: cb.onStep });
  if (log) await new Promise<void>((resolve) => log!.end(resolve));
  const cancelled = run.status === 'cancelled';
  // We stopped it (a cancel, the deadline): its 137/143 is our stop, which only we know — the log cannot say it.
  const stoppedBy = cancelled ? 'user' : run.stoppedAtDeadline ? 'timeout' : undefined;
  const finished = reader.finish(
    run.exit ? { code: run.exit.code, signal: run.exit.signal, cancelled, stoppedBy } : stoppedBy ? { code: null, cancelled, stoppedBy } : undefined,
  );
  for (const e of finished.events) cb.onEvent?.(e);
  const base = finished.report;
  const report: CompileReport = {
    ...base,
    diagnostics: [...base.diagnostics],
    outputs: run.outputs,
    container: run.container ?? null,
    hef: null,
    log: log ? logPath : null,
    calibration: run.manifest?.calibration?.source ?? null,
    notes: logProblem ? [...run.notes, logProblem] : run.notes,
  };
  const where = { path: log ? logPath : resolved.model, line: Math.max(1, logLines - 1) };
  if (run.problem?.kind === 'killed-outside') {
    // Docker says who ended it: not the memory limit (the reader's guess for a SIGKILL), not the DFC.
    report.diagnostics = report.diagnostics.filter((d) => d.code !== 'dfc/memory-killed' && d.code !== 'dfc/docker');
    report.diagnostics.push(dockerDiagnostic(run.problem, where));
    report.outcome = 'killed';
  } else if (run.stoppedAtDeadline && run.problem) {
    // The reader said it (dfc/stopped, in the stage the run stopped in); the runner's sentence says how long it ran.
    report.notes = [...report.notes, run.problem.message];
  } else if (run.problem && run.problem.kind !== 'out-of-memory') {
    // The runner knows exactly what docker refused; the reader only saw its words in the log.
    report.diagnostics = report.diagnostics.filter((d) => d.code !== 'dfc/docker');
    report.diagnostics.push(dockerDiagnostic(run.problem, where));
    report.outcome = 'failed';
    report.failedStage = 'docker';
  }
  if (cancelled) report.outcome = 'killed';
  if (run.outputs.hef) {
    report.hef = await checkHef(run.outputs.hef, resolved.hailoConfig);
    pushAll(report.diagnostics, hefDiagnostics(report.hef, resolved.hailoConfig, run, where.line));
  }
  if (report.calibration === 'random' && report.outcome === 'success') {
    report.diagnostics.push({
      path: resolved.model,
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 1,
      severity: 'warning',
      code: 'compile/random-calibration',
      message:
        'Optimized with random calibration data (no calibration set was given): the HEF runs, but its accuracy means nothing. Calibrate with data drawn from the real input distribution — in one recorded case uniform random data gave 66.65 % relative error where in-distribution data gave 2.44 % (dfc-flow.md §3.4).',
      logLine: where.line,
      confidence: 'high',
    });
  }
  return { report, run, cancelled };
}

function dockerDiagnostic(problem: DockerProblem, where: { path: string; line: number }): DfcDiagnostic {
  return {
    path: where.path,
    line: where.line,
    column: 1,
    endLine: where.line,
    endColumn: 1,
    severity: 'error',
    code: 'dfc/docker',
    message: problem.message,
    logLine: where.line,
    confidence: 'high',
    ...(problem.setting ? { fix: { kind: 'setting' as const, key: problem.setting } } : {}),
  };
}

export async function checkHef(path: string, requestedConfig: string | undefined): Promise<HefCheck> {
  const src = await fileSource(path);
  try {
    const report = await readHef(src);
    const carries = report.externalResources.some((r) => r.name === HAILO_CONFIG);
    let hailoConfig: HefCheck['hailoConfig'] = 'not-requested';
    if (requestedConfig) {
      if (!carries) hailoConfig = 'missing';
      else {
        const got = await readResource(src, report.externalResources, HAILO_CONFIG);
        const want = FileRoots.named(requestedConfig).readSync(requestedConfig, limit('harJsonBytes'));
        hailoConfig = 'bytes' in got && Buffer.from(got.bytes).equals(want) ? 'embedded' : 'different';
      }
    }
    let contract: HefCheck['contract'] = null;
    if (requestedConfig || carries) {
      const r = await checkMtmdSource(src, report, { hefPath: path });
      contract = { pass: r.pass, failed: r.rules.filter((x) => x.pass === false).map((x) => `${x.id}: ${x.detail}`) };
    }
    return { path, bytes: src.size, intact: isIntact(report), hailoConfig, contract };
  } finally {
    await src.close();
  }
}

function hefDiagnostics(h: HefCheck, requested: string | undefined, run: CompileRun, logLine: number): DfcDiagnostic[] {
  const out: DfcDiagnostic[] = [];
  const at = (path: string, severity: DfcDiagnostic['severity'], code: string, message: string, confidence: DfcDiagnostic['confidence']): DfcDiagnostic => ({
    path,
    line: 1,
    column: 1,
    endLine: 1,
    endColumn: 1,
    severity,
    code,
    message,
    logLine,
    confidence,
  });
  if (!h.intact)
    out.push(
      at(
        h.path,
        'error',
        'compile/hef-damaged',
        `The compiled HEF does not read back intact (open it in the HEF Inspector, or 'hailo-tools hef ${h.path}', for where).`,
        'high',
      ),
    );
  if (requested && h.hailoConfig === 'missing') {
    const how = run.manifest?.hailoConfig?.method ? `the driver called ClientRunner.${run.manifest.hailoConfig.method}, but ` : '';
    out.push(
      at(
        requested,
        'warning',
        'compile/config-not-embedded',
        `The HEF does not carry ${HAILO_CONFIG}: ${how}${run.manifest?.hailoConfig?.detail ? `${run.manifest.hailoConfig.detail}; ` : ''}llama.cpp's mtmd loader will refuse it ("HEF is missing required external resource '${HAILO_CONFIG}'"). Embedding it with add_external_file was seen only in GenAI pipelines, so this DFC may not keep it in a vision-only compile.`,
        'medium',
      ),
    );
  }
  if (requested && h.hailoConfig === 'different')
    out.push(at(requested, 'warning', 'compile/config-differs', `The HEF carries a ${HAILO_CONFIG} whose bytes differ from ${requested}.`, 'high'));
  if (h.contract && !h.contract.pass) {
    out.push(at(h.path, 'warning', 'compile/mtmd-contract', `The HEF fails llama.cpp's mtmd contract: ${h.contract.failed.join('; ')}.`, 'high'));
  }
  return out;
}
