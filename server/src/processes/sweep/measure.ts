// The columns measured after a compile (docs/sweep.md "The accuracy column"): the accuracy cell —
// the accuracy table's own path (processes/accuracy/compare.ts: the same inputs through the float
// ONNX and the emulator context) on the optimized HAR, in the variant's pool slot, on the context
// core/sweep/schedule.ts's emulatorContext picks — and, with a device, FPS/latency, one HEF at a
// time on the attached device. Neither fails a variant: trouble is one sentence in the cell.
import { dirname, join } from 'node:path';
import type { FileRoots } from '../../core/common/confined';
import type { OnnxModelCache } from '../../core/onnx/modelCache';
import type { SweepPlan } from '../../core/sweep/plan';
import type { AccuracyCell, DeviceCell, VariantResult } from '../../core/sweep/results';
import { emulatorContext, type ContextState } from '../../core/sweep/schedule';
import type { PlannedVariant } from '../../core/sweep/variantPlan';
import { accuracyCell, accuracyCellFrom } from '../../core/sweep/columns';
import { compareOracles } from '../accuracy/compare';
import { runEmulator, type EmulatorContext } from '../accuracy/emulator';
import type { Captured } from '../compile/process';
import type { Gpus } from '../compile/runner';
import { textDigest } from './inputsHash';
import type { SweepEnv } from './types';

export class SweepMeasure {
  /** Device runs one after another (one device). */
  private deviceChain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly plan: SweepPlan,
    private readonly env: SweepEnv,
    private readonly roots: FileRoots,
    private readonly onnx: OnnxModelCache,
    private readonly contexts: readonly ContextState[],
    private readonly queryCache: Map<string, Promise<Captured>>,
  ) {}

  /** The columns of a compiled variant the plan asks for (accuracy, device). */
  async after(p: PlannedVariant, r: VariantResult, ctxName: string): Promise<Partial<VariantResult>> {
    const out: Partial<VariantResult> = {};
    if (this.plan.accuracy && r.files.optimizedHar) out.accuracy = await this.accuracy(p, r.files.optimizedHar, r.files.alls, ctxName);
    if (this.plan.device && this.env.measure && r.files.hef) out.device = await this.device(r.files.hef);
    return out;
  }

  /** The accuracy cell of `har` (with its script `alls`) for a variant whose pool slot is on `slotCtx`. */
  async accuracy(p: PlannedVariant, har: string, alls: string | null, slotCtx: string): Promise<AccuracyCell> {
    const { plan, env } = this;
    const acc = plan.accuracy!;
    const cell = (c: Partial<AccuracyCell>) => accuracyCell(acc.context, p.accuracyKey, c);
    const infer = env.infer?.(plan.onnx!);
    if (!infer) return cell({ message: env.inferMissing ?? 'the float model cannot run: onnxruntime-node was not found' });
    const dockerContext = emulatorContext(plan, this.contexts, p.variant.image, slotCtx);
    const work = join(dirname(har), '.sweep-accuracy');
    this.roots.remove(work, { recursive: true });
    this.roots.mkdir(work);
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
          readOnnx: this.onnx.read,
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
              { launch: env.launch, driverDir: env.driverDir, user: env.user, signal: env.signal, queryCache: this.queryCache },
            ),
        },
      );
      return cell(accuracyCellFrom(docAcc, acc.context));
    } catch (err) {
      return cell({ message: (err as Error).message });
    } finally {
      this.roots.remove(work, { recursive: true });
    }
  }

  /** FPS/latency of `hef` on the device, after the runs queued before it. */
  device(hef: string): Promise<DeviceCell> {
    const { plan, env } = this;
    const key = textDigest(`device ${plan.device!.frames}`);
    const signal = env.signal;
    const next = this.deviceChain.then(async (): Promise<DeviceCell> => {
      if (signal?.aborted) return { status: 'unavailable', message: 'cancelled', key };
      const m = await env.measure!(hef, plan.device!.frames, signal ?? new AbortController().signal);
      return 'unavailable' in m ? { status: 'unavailable', message: m.unavailable, key } : { status: 'ok', ...m, key };
    });
    this.deviceChain = next.catch(() => undefined);
    return next.catch((err: Error) => ({ status: 'unavailable' as const, message: err.message, key }));
  }
}
