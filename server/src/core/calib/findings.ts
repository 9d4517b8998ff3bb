// What is wrong with a calibration set, with the evidence for each claim. Severity follows the
// project rule: an error only where the DFC is known to refuse (nothing here: the DFC quietly
// calibrates on whatever it is given — that is the problem), a warning where the evidence says
// accuracy suffers, info for facts worth knowing. Each finding names the script element it is
// about (`anchor`) so the .alls editor can put it there. Pure.
import { describeDistribution, type Distribution } from './distribution';
import type { LayoutDecision } from './modelInput';
import { DEFAULT_CALIBSET_SIZE, FINETUNE_MIN_ENTRIES, type ScriptFacts, type ScriptNormalization } from './scriptFacts';
import type { StatsResult } from './stats';

export type CalibSeverity = 'error' | 'warning' | 'info';
export type CalibAnchor = 'calibsetSize' | 'calibration' | 'normalization' | 'optimization' | 'finetune';

export interface CalibFinding {
  code: string;
  severity: CalibSeverity;
  message: string;
  /** The script statement the finding is about, when it is about the script. */
  anchor?: CalibAnchor;
}

export interface FindingInput {
  dtypeName: string;
  shape: number[];
  layout: LayoutDecision;
  stats: StatsResult;
  /** Entries (the first axis). */
  count: number;
  sampled: boolean;
  sampleNote?: string;
  facts?: ScriptFacts;
  /** How the array inside a .npz was chosen, when there were several. */
  memberChoice?: string;
}

const LESSON = 'dfc-flow.md §3.4: the same graph calibrated on uniform [0,1) data scored 66.65 % relative error, on data drawn like its input 2.44 %';
const fmt = (v: number) => (Number.isInteger(v) ? v.toLocaleString('en-US') : Math.abs(v) < 0.01 || Math.abs(v) >= 1e4 ? v.toExponential(3) : v.toFixed(3));
const list = (xs: readonly number[]) => `[${xs.map(fmt).join(', ')}]`;
const firstFew = (xs: readonly number[], n = 5) => xs.slice(0, n).join(', ') + (xs.length > n ? `, … (${xs.length} in all)` : '');

/** The normalization statement that applies to the matched input. */
export function normalizationFor(facts: ScriptFacts | undefined, inputName: string | undefined): ScriptNormalization | undefined {
  const all = facts?.normalizations ?? [];
  if (!all.length) return undefined;
  return (
    all.find((n) => inputName !== undefined && n.inputLayer === inputName) ??
    all.find((n) => n.inputLayer === undefined) ??
    (all.length === 1 ? all[0] : undefined)
  );
}

export function calibFindings(x: FindingInput): { findings: CalibFinding[]; distribution: Distribution } {
  const out: CalibFinding[] = [];
  const o = x.stats.overall;
  const distribution = describeDistribution(x.stats, x.dtypeName);
  const add = (code: string, severity: CalibSeverity, message: string, anchor?: CalibAnchor) =>
    out.push(anchor ? { code, severity, message, anchor } : { code, severity, message });

  if (x.shape.some((d) => d === 0) || o.count === 0)
    add('calib/empty', 'warning', `The set holds no values (shape (${x.shape.join(', ')})): the DFC has nothing to collect statistics from.`);
  if (o.nonFinite > 0)
    add(
      'calib/non-finite',
      'warning',
      `${fmt(o.nonFinite)} values are NaN or infinite; the DFC's statistics collector takes min/max over them, so one NaN spoils the ranges of every layer after the input (the figures here leave them out).`,
    );

  // Layout against the model.
  const l = x.layout;
  if (l.layout === 'NCHW') {
    const nhwc = l.input ? ` (N, ${l.input.nhwc.join(', ')})` : '';
    add(
      'calib/nchw',
      'warning',
      `Entries are in NCHW order (${l.how}); the DFC's optimize takes NHWC${nhwc} (dfc-flow.md §3.4, §7.2: \`--calib-set-path\` takes an NHWC .npy). Fix: np.transpose(x, (0, 2, 3, 1)).`,
    );
  } else if (l.mismatch) {
    add('calib/shape', 'warning', `The ${l.mismatch}: the DFC builds its calibration input as [N] + the HN input layer's shape (dfc-flow.md §3.4).`);
  }

  // Count against the script.
  if (o.count > 0) {
    const size = x.facts?.calibsetSize?.value ?? DEFAULT_CALIBSET_SIZE;
    const said = x.facts?.calibsetSize
      ? `the script's calibset_size=${size}`
      : `the DFC's default calibset_size of ${DEFAULT_CALIBSET_SIZE} (Hailo's HACE inspector)`;
    if (x.count < size) {
      add(
        'calib/too-few',
        'warning',
        `The set has ${fmt(x.count)} entries, fewer than ${said}: statistics come from ${fmt(x.count)} entries, not ${size} (the DFC logs "Using dataset with N entries for calibration").`,
        x.facts?.calibsetSize ? 'calibsetSize' : x.facts?.calibrationStatement ? 'calibration' : undefined,
      );
    } else if (x.count > size && x.facts) {
      add(
        'calib/more-than-calibset',
        'info',
        `${said[0].toUpperCase()}${said.slice(1)} uses ${size} of the ${fmt(x.count)} entries for statistics (a DFC log: "Using dataset with 64 entries for calibration" on a 4,000-entry set, the rest went to fine-tuning).`,
        x.facts.calibsetSize ? 'calibsetSize' : undefined,
      );
    }
    if (x.count < FINETUNE_MIN_ENTRIES && x.facts?.finetuneEnabled) {
      add(
        'calib/under-1024',
        'warning',
        `Fine-tuning is enabled but the set has ${fmt(x.count)} entries: under ${FINETUNE_MIN_ENTRIES} the flow skips fine-tuning (rf-detr's compile_hef.py: "under 1024 frames the flow drops to 1, skipping fine-tuning"; Hailo's HACE inspector: "Please apply optimization with 1024 or more samples in the calibration set").`,
        'finetune',
      );
    } else if (x.count < FINETUNE_MIN_ENTRIES && (x.facts?.optimizationLevel?.value ?? 0) >= 1) {
      add(
        'calib/under-1024',
        'info',
        `optimization_level=${x.facts!.optimizationLevel!.value} with ${fmt(x.count)} entries: Hailo's HACE inspector asks for 1024 or more samples before optimization levels above 0 pay off.`,
        'optimization',
      );
    }
  }

  // Values against the script's normalization.
  const norm = normalizationFor(x.facts, l.input?.name);
  if (o.count > 0 && norm) {
    const scale255 = norm.mean.some((v) => Math.abs(v) > 1) || norm.std.some((v) => Math.abs(v) > 1);
    const what = `normalization(${list(norm.mean)}, ${list(norm.std)}) on line ${norm.line}`;
    if (scale255) {
      const seen = (v: number) => list(norm.mean.map((m, i) => (v - m) / norm.std[i]));
      if (distribution.kind === 'uniform-unit') {
        add(
          'calib/uniform-unit',
          'warning',
          `The set looks like np.random.rand (${distribution.text}) but the script's ${what} expects 0–255 pixels: the chip would see ${seen(0)}…${seen(1)} during calibration, far from real inputs. Calibrate on real inputs in 0–255 (${LESSON}).`,
          'normalization',
        );
      } else if (o.min >= -1 && o.max <= 1) {
        add(
          'calib/range-vs-normalization',
          'warning',
          `Values lie in [${fmt(o.min)}, ${fmt(o.max)}], already scaled, but the script's ${what} expects 0–255 before it: the set would be normalized twice. Save the raw 0–255 inputs (uint8 NHWC, as rf-detr's compile_hef.py does).`,
          'normalization',
        );
      } else if (distribution.kind === 'zero-centred') {
        add(
          'calib/normalized-twice',
          'warning',
          `Values are zero-centred (${distribution.text}), as if already normalized, but the script's ${what} normalizes again on the chip. Save the raw 0–255 inputs.`,
          'normalization',
        );
      } else if (o.min < -0.5 || o.max > 255.5) {
        add(
          'calib/range-vs-normalization',
          'warning',
          `Values reach [${fmt(o.min)}, ${fmt(o.max)}], outside the 0–255 the script's ${what} is written for.`,
          'normalization',
        );
      }
    } else if (o.max > 1.5 || o.min < -1.5) {
      add(
        'calib/range-vs-normalization',
        'warning',
        `The script's ${what} is on a 0–1 scale but the values reach [${fmt(o.min)}, ${fmt(o.max)}]; one of the two is on the wrong scale (Hailo's HACE norm_inspector expects mean/std in 0–255).`,
        'normalization',
      );
    }
    const channels = x.stats.channels.length;
    if (norm.mean.length > 1 && l.layout !== 'unknown' && channels !== norm.mean.length) {
      add('calib/normalization-channels', 'warning', `The script's ${what} has ${norm.mean.length} channels, the set ${channels}.`, 'normalization');
    }
  } else if (o.count > 0 && distribution.kind === 'uniform-unit') {
    add(
      'calib/uniform-unit',
      'info',
      `The set looks like np.random.rand (${distribution.text}): synthetic data, so any accuracy figure measured after this calibration holds for this distribution only (${LESSON}).`,
    );
  }

  const e = x.stats.entries;
  if (e && e.constant.length) {
    add(
      'calib/constant-entries',
      'warning',
      `${e.constant.length} of ${fmt(e.checked)} entries are constant (every value equal; entries ${firstFew(e.constant)}): they add no range information and pull the statistics towards one value.`,
    );
  }
  if (e && e.duplicates.length) {
    const copies = e.duplicates.reduce((a, g) => a + g.length - 1, 0);
    add(
      'calib/duplicate-entries',
      'warning',
      // A summary, never a list: a million copies of one entry made a 9.4 MB message.
      `${fmt(copies)} entries repeat others (${e.duplicates
        .slice(0, 3)
        .map((g) => g.slice(0, 4).join(' = ') + (g.length > 4 ? ` = … (${fmt(g.length)} equal entries)` : ''))
        .join(
          '; ',
        )}${e.duplicates.length > 3 ? `; … ${fmt(e.duplicates.length)} groups in all` : ''}; same 64-bit content hash): the set is smaller than it looks.`,
    );
  }
  if (x.dtypeName !== 'float32' && x.dtypeName !== 'uint8' && o.count > 0) {
    add('calib/dtype', 'info', `dtype ${x.dtypeName}: public DFC scripts feed optimize float32 or uint8 arrays (dfc-flow.md §3.2, §3.4).`);
  }
  if (x.memberChoice) add('calib/npz-member', 'info', `The .npz holds several arrays; inspected ${x.memberChoice}.`);
  if (x.sampled)
    add(
      'calib/sampled',
      'info',
      `Statistics come from a sample (${x.sampleNote ?? 'part of the file'}); run \`hailo-tools calib --full\` to read every value.`,
    );
  return { findings: out, distribution };
}
