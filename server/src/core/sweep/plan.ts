// A sweep plan (`*.sweep.json`, schema: schemas/sweep.schema.json): the model(s), a base `.alls`,
// the axes to vary — any `.alls` setting, calibration sets, DFC images, target architectures — and
// the docker contexts with how many compiles each runs at once. Read and checked here, before
// anything runs: every mistake is one sentence naming the JSON path and the fix. Paths are relative
// to the plan's folder; results are written only below it. Pure apart from reading the plan.
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { FileRoots } from '../common/confined';
import { isHwArch, HW_ARCHES } from '../common/arch';
import { limit, LimitError, limitMessage } from '../common/limits';
import { checkJsonNesting } from '../common/json';

export const PLAN_SUFFIX = '.sweep.json';

/** A scalar an `.alls` argument can take; null = leave the base script as it is (a baseline). */
export type AxisValue = string | number | boolean | null;

/** Where an axis writes in the script: `command(target, …, keyword=value)`. */
export interface AllsSetting {
  command: string;
  /** The first positional argument (a sub-command such as `calibration`, or a layer); absent: the command has none. */
  target?: string;
  keyword: string;
}

export interface AllsAxis {
  name: string;
  kind: 'alls';
  /** One setting per target (precision_mode of several layers writes one statement per layer). */
  settings: AllsSetting[];
  values: AxisValue[];
}

/** Whole statements appended to the script; '' (or null) appends nothing. */
export interface AppendAxis {
  name: string;
  kind: 'append';
  values: (string | null)[];
}

export type Axis = AllsAxis | AppendAxis;

export interface PlanContext {
  /** Docker context name; '' = docker's current context (no --context). */
  name: string;
  /** Compiles it runs at once. */
  width: number;
}

export interface SweepPlan {
  /** The plan file (absolute). */
  path: string;
  /** Its folder: relative paths start here; results stay below it. */
  dir: string;
  name: string;
  models: string[];
  /** The float model for the accuracy column (default: the model when it is an ONNX). */
  onnx?: string;
  alls?: string;
  /** Calibration sets; more than one is an axis. Empty: random data (the DFC's own fallback, accuracy meaningless). */
  calibrations: string[];
  /** DFC images; empty: what each context picks (hailo.dfc.image / the first local Hailo image). */
  images: string[];
  hwArches: string[];
  axes: Axis[];
  contexts: PlanContext[];
  out: string;
  startNodes: string[];
  endNodes: string[];
  memoryLimit?: string;
  gpus?: 'auto' | 'all' | 'none';
  accuracy?: { count: number; seed: number; inputs?: string; context: 'quantized' | 'bit_exact' | 'fp_optimized' | 'native'; dockerContext?: string };
  device?: { frames: number };
}

/** The `.alls` settings an axis may name directly (anything else: `{command, target?, keyword, values}`). */
export const SHORTCUTS: Record<string, { command: string; target?: string; keyword: string; layers?: true }> = {
  optimization_level: { command: 'model_optimization_flavor', keyword: 'optimization_level' },
  compression_level: { command: 'model_optimization_flavor', keyword: 'compression_level' },
  calibset_size: { command: 'model_optimization_config', target: 'calibration', keyword: 'calibset_size' },
  calibration_batch_size: { command: 'model_optimization_config', target: 'calibration', keyword: 'batch_size' },
  precision_mode: { command: 'quantization_param', keyword: 'precision_mode', layers: true },
};

/** Names of the plan's own axes (top-level lists), reserved for the table's columns. */
export const BUILTIN_AXES = ['model', 'calibration', 'image', 'hwArch'] as const;

const ACCURACY_CONTEXTS = ['quantized', 'bit_exact', 'fp_optimized', 'native'] as const;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class PlanError extends Error {}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Reads and checks a plan; throws PlanError with one sentence. */
export function readPlan(path: string): SweepPlan {
  const abs = resolve(path);
  let text: string;
  try {
    text = FileRoots.beside(abs).readText(abs, limit('sweepPlanBytes'));
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { code?: string };
    if (e.code === 'too-large') throw new PlanError(limitMessage('sweepPlanBytes', `The sweep plan ${abs}`));
    if (e.code === 'ENOENT') throw new PlanError(`The sweep plan ${abs} does not exist.`);
    throw new PlanError(`The sweep plan ${abs} cannot be read: ${e.message}.`);
  }
  return parsePlan(text, abs);
}

/** Checks a plan's text; `path` is where it lives (relative paths start at its folder). */
export function parsePlan(text: string, path: string): SweepPlan {
  let doc: Json;
  try {
    checkJsonNesting(text, basename(path));
    doc = JSON.parse(text.replace(/^\uFEFF/, '')) as Json;
  } catch (err) {
    if (err instanceof LimitError) throw new PlanError(err.message);
    throw new PlanError(`${basename(path)} is not valid JSON (${jsonErrorWhere(text, err as Error)}): fix the syntax and run the sweep again.`);
  }
  return new PlanChecker(path).check(doc);
}

function jsonErrorWhere(text: string, err: Error): string {
  const m = /position (\d+)/.exec(err.message);
  if (!m) return err.message.replace(/\.$/, '');
  const pos = Number(m[1]);
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const col = pos - before.lastIndexOf('\n');
  return `${err.message.replace(/ in JSON at position \d+.*$/, '').replace(/\.$/, '')} at line ${line}, column ${col}`;
}

class PlanChecker {
  readonly dir: string;
  /** A plan names files and writes results only inside its own folder (issue 29: a cloned plan cannot mount /). */
  readonly roots: FileRoots;
  constructor(readonly path: string) {
    this.dir = dirname(path);
    this.roots = FileRoots.of([this.dir]);
  }

  fail(where: string, what: string): never {
    throw new PlanError(`${basename(this.path)}: ${where === 'the plan' ? where : `'${where}'`} ${what}`);
  }

  check(doc: Json): SweepPlan {
    if (!isObject(doc)) this.fail('the plan', 'must be a JSON object (see schemas/sweep.schema.json).');
    const known = new Set([
      '$schema',
      'name',
      'model',
      'models',
      'onnx',
      'alls',
      'calibration',
      'images',
      'image',
      'hwArch',
      'axes',
      'contexts',
      'out',
      'startNodes',
      'endNodes',
      'memoryLimit',
      'gpus',
      'accuracy',
      'device',
    ]);
    for (const k of Object.keys(doc))
      if (!known.has(k)) this.fail(`${k}`, `is not a plan field (known: ${[...known].filter((x) => x !== '$schema').join(', ')}).`);
    if ('model' in doc && 'models' in doc) this.fail('model', "and 'models' are both given: keep one.");
    if ('image' in doc && 'images' in doc) this.fail('image', "and 'images' are both given: keep one.");
    const models = this.files(doc.models ?? doc.model, 'models' in doc ? 'models' : 'model', /\.(onnx|har)$/i, 'an .onnx or .har model', true);
    const onnx = doc.onnx === undefined ? undefined : this.files(doc.onnx, 'onnx', /\.onnx$/i, 'an .onnx model', true)[0];
    const alls = doc.alls === undefined ? undefined : this.files(doc.alls, 'alls', /\.alls$/i, 'an .alls model script', true)[0];
    const calibrations =
      doc.calibration === undefined ? [] : this.files(doc.calibration, 'calibration', /\.(npy|npz)$/i, 'a .npy or .npz calibration set', true);
    const images = this.strings(
      doc.images ?? doc.image,
      'images' in doc ? 'images' : 'image',
      (s) => /^[A-Za-z0-9][A-Za-z0-9_./:@-]*$/.test(s),
      'a docker image reference',
    );
    const hwArches = this.strings(doc.hwArch, 'hwArch', isHwArch, `one of ${HW_ARCHES.join(', ')}`);
    if (hwArches.length === 0) this.fail('hwArch', `is missing: name the target architecture(s), e.g. "hailo10h" (one of ${HW_ARCHES.join(', ')}).`);
    const axes = this.axes(doc.axes);
    const contexts = this.contexts(doc.contexts);
    const out = this.out(doc.out);
    const nodes = (v: Json | undefined, k: string) => this.strings(v, k, (s) => s.trim().length > 0 && !/[\r\n]/.test(s), 'a node name');
    const plan: SweepPlan = {
      path: this.path,
      dir: this.dir,
      name:
        typeof doc.name === 'string' && doc.name.trim()
          ? doc.name.trim()
          : basename(this.path)
              .replace(/\.sweep\.json$/i, '')
              .replace(/\.json$/i, ''),
      models,
      onnx: onnx ?? (models.length === 1 && /\.onnx$/i.test(models[0]) ? models[0] : undefined),
      alls,
      calibrations,
      images,
      hwArches,
      axes,
      contexts,
      out,
      startNodes: nodes(doc.startNodes, 'startNodes'),
      endNodes: nodes(doc.endNodes, 'endNodes'),
    };
    if (doc.name !== undefined && typeof doc.name !== 'string') this.fail('name', 'must be a string.');
    if (doc.memoryLimit !== undefined) {
      if (typeof doc.memoryLimit !== 'string' || !/^\d+(\.\d+)?[bkmgBKMG]?$/.test(doc.memoryLimit.trim()))
        this.fail('memoryLimit', `must be a docker memory size such as "40g", not ${JSON.stringify(doc.memoryLimit)}.`);
      plan.memoryLimit = doc.memoryLimit.trim();
    }
    if (doc.gpus !== undefined) {
      if (doc.gpus !== 'auto' && doc.gpus !== 'all' && doc.gpus !== 'none')
        this.fail('gpus', `must be "auto", "all" or "none", not ${JSON.stringify(doc.gpus)}.`);
      plan.gpus = doc.gpus;
    }
    if (doc.accuracy !== undefined && doc.accuracy !== false) plan.accuracy = this.accuracy(doc.accuracy, plan);
    if (doc.device !== undefined && doc.device !== false) {
      const d = doc.device === true ? {} : doc.device;
      if (!isObject(d)) this.fail('device', 'must be true, false or {"frames": N}.');
      const frames = d.frames ?? 100;
      if (!Number.isInteger(frames) || (frames as number) < 1 || (frames as number) > 100_000)
        this.fail('device.frames', 'must be an integer from 1 to 100000.');
      plan.device = { frames: frames as number };
    }
    const count = variantCount(plan);
    if (count > limit('sweepVariants')) throw new PlanError(`${basename(this.path)}: ${limitMessage('sweepVariants', 'the plan', count)}`);
    return plan;
  }

  /** One path or a list of paths, resolved against the plan's folder; each must exist (a regular file). */
  files(v: Json | undefined, key: string, ext: RegExp, what: string, required: boolean): string[] {
    if (v === undefined) {
      if (required) this.fail(`${key}`, `is missing: name ${what} (a path relative to the plan).`);
      return [];
    }
    const list = Array.isArray(v) ? v : [v];
    if (list.length === 0) this.fail(`${key}`, `is an empty list: name at least one ${what}.`);
    return list.map((p, i) => {
      const where = Array.isArray(v) ? `${key}[${i}]` : `${key}`;
      if (typeof p !== 'string' || !p.trim()) this.fail(where, `must be a path to ${what}.`);
      if (/[\r\n]/.test(p)) this.fail(where, 'contains a line break, which docker cannot mount: rename the file.');
      if (!ext.test(p)) this.fail(where, `must name ${what}, not '${p}'.`);
      const abs = resolve(this.dir, p);
      if (!this.roots.contains(abs))
        this.fail(
          where,
          `names ${abs}, which is not inside the plan's folder ${this.dir} (or leads out of it through a link): put the file inside that folder.`,
        );
      if (!this.roots.exists(abs)) this.fail(where, `names ${abs}, which does not exist.`);
      if (!this.roots.isFile(abs)) this.fail(where, `names ${abs}, which is not a file.`);
      return abs;
    });
  }

  strings(v: Json | undefined, key: string, ok: (s: string) => boolean, what: string): string[] {
    if (v === undefined) return [];
    const list = Array.isArray(v) ? v : [v];
    const seen = new Set<string>();
    return list.map((s, i) => {
      const where = Array.isArray(v) ? `${key}[${i}]` : `${key}`;
      if (typeof s !== 'string' || !ok(s)) this.fail(where, `must be ${what}, not ${JSON.stringify(s)}.`);
      if (seen.has(s)) this.fail(where, `repeats ${JSON.stringify(s)}: each value once.`);
      seen.add(s);
      return s;
    });
  }

  axes(v: Json | undefined): Axis[] {
    if (v === undefined) return [];
    if (!isObject(v)) this.fail('axes', 'must be an object: {"optimization_level": [0, 2], …}.');
    const out: Axis[] = [];
    for (const [name, spec] of Object.entries(v)) {
      const where = `axes.${name}`;
      if (!IDENT.test(name)) this.fail(where, 'must be named like an .alls keyword (letters, digits, _).');
      if ((BUILTIN_AXES as readonly string[]).includes(name))
        this.fail(where, `is a plan field's axis: list several values in the plan's '${name === 'image' ? 'images' : name}' field instead.`);
      const short = SHORTCUTS[name];
      if (Array.isArray(spec)) {
        if (!short) {
          this.fail(
            where,
            `is not a known setting (${Object.keys(SHORTCUTS).join(', ')}): give {"command": …, "target": …, "keyword": …, "values": [...]} for any other .alls setting, or {"append": [...]} for whole statements.`,
          );
        }
        if (short.layers) this.fail(where, 'needs the layers it applies to: {"layers": ["conv1", "{conv*}"], "values": ["a8_w8", "a16_w16"]}.');
        out.push({
          name,
          kind: 'alls',
          settings: [{ command: short.command, target: short.target, keyword: short.keyword }],
          values: this.values(spec, where),
        });
        continue;
      }
      if (!isObject(spec)) this.fail(where, 'must be a list of values or an object with "values".');
      if ('append' in spec) {
        const vals = spec.append;
        if (!Array.isArray(vals) || vals.length === 0)
          this.fail(`${where}.append`, 'must be a non-empty list of .alls statements (strings; "" or null appends nothing).');
        const values = vals.map((s, i) => {
          if (s !== null && typeof s !== 'string') this.fail(`axes.${name}.append[${i}]`, 'must be .alls text (a string) or null.');
          return s;
        });
        const extra = Object.keys(spec).filter((k) => k !== 'append');
        if (extra.length) this.fail(where, `has ${extra.map((k) => `${k}`).join(', ')} beside 'append': an append axis has only 'append'.`);
        out.push({ name, kind: 'append', values: this.unique(values, `${where}.append`) });
        continue;
      }
      const values = this.values(spec.values, `${where}.values`);
      for (const k of Object.keys(spec)) {
        if (!['values', 'layers', 'command', 'target', 'keyword'].includes(k))
          this.fail(where, `has '${k}', which is not an axis field (values, layers, command, target, keyword, append).`);
      }
      const layers = spec.layers;
      let layerList: string[] | undefined;
      if (layers !== undefined) {
        if (!Array.isArray(layers) || layers.length === 0 || layers.some((l) => typeof l !== 'string' || !l.trim() || /[\r\n()]/.test(l)))
          this.fail(`${where}.layers`, 'must be a non-empty list of layer names or patterns such as "conv1" or "{conv*}".');
        layerList = (layers as string[]).map((l) => l.trim());
      }
      if (short) {
        if (spec.command !== undefined || spec.keyword !== undefined || spec.target !== undefined)
          this.fail(where, `is the known setting ${short.command}(…${short.keyword}=…): give only "values"${short.layers ? ' and "layers"' : ''}.`);
        if (short.layers && !layerList) this.fail(where, 'needs "layers": the layers whose precision_mode varies.');
        if (!short.layers && layerList) this.fail(`${where}.layers`, `does not apply: ${short.command} has no layer argument.`);
        const targets = layerList ?? [short.target];
        out.push({ name, kind: 'alls', settings: targets.map((target) => ({ command: short.command, target, keyword: short.keyword })), values });
        continue;
      }
      const command = spec.command;
      const keyword = spec.keyword;
      if (typeof command !== 'string' || !IDENT.test(command)) this.fail(`${where}.command`, 'must name the .alls command, e.g. "model_optimization_config".');
      if (typeof keyword !== 'string' || !IDENT.test(keyword))
        this.fail(`${where}.keyword`, 'must name the keyword argument the values go into, e.g. "batch_size".');
      if (spec.target !== undefined && (typeof spec.target !== 'string' || !spec.target.trim() || /[\r\n()]/.test(spec.target)))
        this.fail(`${where}.target`, 'must be the first argument of the statement, e.g. "calibration" or a layer name.');
      if (spec.target !== undefined && layerList) this.fail(where, "has both 'target' and 'layers': keep one.");
      const targets: (string | undefined)[] = layerList ?? [typeof spec.target === 'string' ? spec.target.trim() : undefined];
      out.push({ name, kind: 'alls', settings: targets.map((target) => ({ command, target, keyword })), values });
    }
    // Two axes writing the same keyword of the same statement would overwrite each other.
    const seen = new Map<string, string>();
    for (const a of out) {
      if (a.kind !== 'alls') continue;
      for (const s of a.settings) {
        const key = `${s.command}(${s.target ?? ''}).${s.keyword}`;
        const other = seen.get(key);
        if (other && other !== a.name)
          this.fail(
            `axes.${a.name}`,
            `writes ${s.command}(${s.target ? `${s.target}, ` : ''}${s.keyword}=…), as 'axes.${other}' does: merge them into one axis.`,
          );
        seen.set(key, a.name);
      }
    }
    return out;
  }

  values(v: Json | undefined, where: string): AxisValue[] {
    if (!Array.isArray(v) || v.length === 0) this.fail(where, 'must be a non-empty list of values.');
    const values = v.map((x, i) => {
      if (x === null || typeof x === 'number' || typeof x === 'boolean') {
        if (typeof x === 'number' && !Number.isFinite(x)) this.fail(`${where}[${i}]`, 'must be a finite number.');
        return x;
      }
      if (typeof x === 'string') {
        if (!x.trim() || /[\r\n]/.test(x)) this.fail(`${where}[${i}]`, 'must be a one-line, non-empty value.');
        return x.trim();
      }
      this.fail(`${where}[${i}]`, 'must be a number, a string, true/false or null (leave the base script as it is).');
    });
    return this.unique(values, where);
  }

  unique<T>(values: T[], where: string): T[] {
    const seen = new Set<string>();
    values.forEach((x, i) => {
      const k = JSON.stringify(x);
      if (seen.has(k)) this.fail(`${where}[${i}]`, `repeats ${k}: each value once.`);
      seen.add(k);
    });
    return values;
  }

  contexts(v: Json | undefined): PlanContext[] {
    if (v === undefined) return [{ name: '', width: 1 }];
    if (!Array.isArray(v) || v.length === 0)
      this.fail('contexts', 'must be a non-empty list of docker contexts: ["default", {"name": "gpu-box", "width": 2}].');
    const seen = new Set<string>();
    return v.map((c, i) => {
      const where = `contexts[${i}]`;
      const spec = typeof c === 'string' ? { name: c } : c;
      if (!isObject(spec) || typeof spec.name !== 'string') this.fail(where, 'must be a docker context name or {"name": …, "width": N}.');
      const name = spec.name.trim();
      // docker's own rule for context names (cli/context/store: ^[a-zA-Z0-9][a-zA-Z0-9_.+-]+$)
      if (!/^[a-zA-Z0-9][a-zA-Z0-9_.+-]*$/.test(name)) this.fail(where, `names ${JSON.stringify(spec.name)}, which is not a docker context name.`);
      for (const k of Object.keys(spec)) if (k !== 'name' && k !== 'width') this.fail(where, `has '${k}': a context has only "name" and "width".`);
      const width = spec.width ?? 1;
      if (!Number.isInteger(width) || (width as number) < 1 || (width as number) > limit('sweepContextWidth'))
        this.fail(`${where}.width`, `must be an integer from 1 to ${limit('sweepContextWidth')} (compiles at once on that host).`);
      if (seen.has(name)) this.fail(where, `repeats context '${name}': list each once (its width says how many compiles it runs at once).`);
      seen.add(name);
      return { name, width: width as number };
    });
  }

  out(v: Json | undefined): string {
    const rel = v === undefined ? basename(this.path).replace(/\.json$/i, '') : v;
    if (typeof rel !== 'string' || !rel.trim()) this.fail('out', 'must be a folder path relative to the plan.');
    if (/[\r\n]/.test(rel)) this.fail('out', 'contains a line break, which docker cannot mount.');
    const abs = resolve(this.dir, rel);
    const inside = relative(this.dir, abs);
    // A plan writes only below its own folder: a plan from a cloned folder cannot aim outputs elsewhere.
    if (!inside || inside.startsWith('..') || isAbsolute(inside)) this.fail('out', `must be a folder below the plan's folder ${this.dir}, not ${abs}.`);
    // Nor through a link: every folder from the plan's folder down to `out` must be a real folder.
    try {
      this.roots.checkWritableFolder(abs);
    } catch (err) {
      this.fail('out', `cannot hold the results: ${(err as Error).message}.`);
    }
    return abs;
  }

  accuracy(v: Json, plan: SweepPlan): NonNullable<SweepPlan['accuracy']> {
    const spec = v === true ? {} : v;
    if (!isObject(spec)) this.fail('accuracy', 'must be true, false or {"count", "seed", "inputs", "context", "dockerContext"}.');
    for (const k of Object.keys(spec))
      if (!['count', 'seed', 'inputs', 'context', 'dockerContext'].includes(k))
        this.fail('accuracy', `has '${k}', which is not an accuracy field (count, seed, inputs, context, dockerContext).`);
    if (!plan.onnx) this.fail('accuracy', "needs the float model: add 'onnx' (the .onnx the HAR was parsed from).");
    const int = (k: 'count' | 'seed', d: number, max: number) => {
      const x = spec[k] ?? d;
      if (!Number.isInteger(x) || (x as number) < 1 || (x as number) > max) this.fail(`accuracy.${k}`, `must be an integer from 1 to ${max}.`);
      return x as number;
    };
    const context = spec.context ?? 'quantized';
    if (typeof context !== 'string' || !(ACCURACY_CONTEXTS as readonly string[]).includes(context))
      this.fail('accuracy.context', `must be one of ${ACCURACY_CONTEXTS.join(', ')} (the emulator context compared with the float model).`);
    const inputs = spec.inputs === undefined ? undefined : this.files(spec.inputs, 'accuracy.inputs', /\.npy$/i, 'a .npy of inputs', true)[0];
    const dockerContext = spec.dockerContext;
    if (dockerContext !== undefined && (typeof dockerContext !== 'string' || !/^[a-zA-Z0-9][a-zA-Z0-9_.+-]*$/.test(dockerContext)))
      this.fail('accuracy.dockerContext', 'must be a docker context name (`docker context ls`).');
    return {
      count: int('count', 8, 1024),
      seed: int('seed', 1171, 2 ** 31 - 1),
      inputs,
      context: context as (typeof ACCURACY_CONTEXTS)[number],
      dockerContext,
    };
  }
}

export function variantCount(plan: Pick<SweepPlan, 'models' | 'calibrations' | 'images' | 'hwArches' | 'axes'>): number {
  let n = Math.max(1, plan.models.length) * Math.max(1, plan.calibrations.length) * Math.max(1, plan.images.length) * Math.max(1, plan.hwArches.length);
  for (const a of plan.axes) n *= a.values.length;
  return n;
}

function isObject(v: Json | undefined): v is { [k: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
