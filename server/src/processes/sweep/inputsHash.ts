// What makes two compiles the same compile: the bytes of the model (with its ONNX external data),
// of the derived script and of the calibration set, the DFC image, the target architecture, the
// parser's start/end nodes and the hailo-config.json to embed. A finished result whose key equals
// a variant's key is that variant's result, wherever and whenever it ran — so a sweep resumes after
// a crash, a killed CLI or a cancel without running anything twice. SHA-256 over the files (streamed),
// then over one canonical JSON of the parts.
import { FileRoots } from '../../core/common/confined';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { externalDataFiles } from '../compile/modelFiles';
import { HAILO_CONFIG_NAME } from '../compile/inputs';
import type { OnnxRead } from '../../core/onnx/modelCache';
import type { SweepPlan } from '../../core/sweep/plan';
import { stripHeader, type PlannedVariant, type VariantScript } from '../../core/sweep/variantPlan';

export interface KeyParts {
  model: string;
  script: string | null;
  calibration: string | null;
  image: string | null;
  hwArch: string;
  startNodes: string[];
  endNodes: string[];
  hailoConfig: string | null;
}

/** SHA-256 of files, cached by path, size and mtime for the life of the object (one sweep run). */
export class FileDigests {
  private readonly cache = new Map<string, Promise<string>>();

  /** `readOnnx`: the sweep's shared ONNX reader (one parse per model), default a fresh parse. */
  constructor(private readonly readOnnx?: OnnxRead) {}

  file(path: string): Promise<string> {
    const st = FileRoots.named(path).stat(path);
    if (!st) throw new Error(`cannot open '${path}': no such file`);
    const key = `${path}\u0000${st.size}\u0000${st.mtimeMs}`;
    let p = this.cache.get(key);
    if (!p) {
      p = digestFile(path);
      this.cache.set(key, p);
    }
    return p;
  }

  /** The model and, for an ONNX, every external data file it names (by the location it records). */
  async model(path: string): Promise<string> {
    const h = createHash('sha256').update(await this.file(path));
    if (/\.onnx$/i.test(path)) {
      for (const d of externalDataFiles(path, this.readOnnx)) h.update(`\u0000${d.location}\u0000${await this.file(d.path)}`);
    }
    return h.digest('hex');
  }
}

function digestFile(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash('sha256');
    FileRoots.named(path)
      .open(path)
      .then(({ handle }) =>
        handle
          .createReadStream()
          .on('data', (b) => h.update(b))
          .on('error', reject)
          .on('end', () => resolve(h.digest('hex'))),
      )
      .catch(reject);
  });
}

export const textDigest = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** The variant's key: SHA-256 of its parts as canonical JSON (fixed field order). */
export function inputsKey(p: KeyParts): string {
  const canonical = JSON.stringify([
    'hailo-tools sweep inputs v1',
    p.model,
    p.script,
    p.calibration,
    p.image,
    p.hwArch,
    p.startNodes,
    p.endNodes,
    p.hailoConfig,
  ]);
  return textDigest(canonical);
}

/**
 * The variants with their keys: each one's inputs key (the hailo-config.json beside its model is
 * one of the inputs when it is there) and the plan's accuracy key (its emulator context, count,
 * seed, inputs file and float model). `roots` holds the plan's folder.
 */
export async function keyVariants(plan: SweepPlan, scripts: readonly VariantScript[], digests: FileDigests, roots: FileRoots): Promise<PlannedVariant[]> {
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
  const out: PlannedVariant[] = [];
  for (const s of scripts) {
    const v = s.variant;
    const configBeside = join(dirname(v.model), HAILO_CONFIG_NAME);
    const key = inputsKey({
      model: await digests.model(v.model),
      script: s.script === null ? null : textDigest(stripHeader(s.script)),
      calibration: v.calibration ? await digests.file(v.calibration) : null,
      image: v.image ?? null,
      hwArch: v.hwArch,
      startNodes: plan.startNodes,
      endNodes: plan.endNodes,
      hailoConfig: roots.isFile(configBeside) ? await digests.file(configBeside) : null,
    });
    out.push({ ...s, key, accuracyKey });
  }
  return out;
}
