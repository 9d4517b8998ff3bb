// The variants of a plan: the product of its axes (models × architectures × images × calibration
// sets × every `.alls` axis, the last axis varying fastest), each with a readable label, the
// values of the axes that vary, and a folder name that stays the same when the plan is reordered
// or grows (it is made of the values, not of a position). Pure.
import { createHash } from 'node:crypto';
import { basename, extname } from 'node:path';
import type { AllsAxis, AxisValue, SweepPlan } from './plan';
import type { SettingEdit } from './derive';

export interface Variant {
  /** Folder name under the plan's `out`; unique within the plan. */
  id: string;
  /** `optimization_level=2, precision_mode=a16_w16` (only the axes that vary; `base` when none do). */
  label: string;
  /** Axis name → the value shown in the table (only the axes that vary, in plan order). */
  values: Record<string, string>;
  model: string;
  calibration?: string;
  image?: string;
  hwArch: string;
  edits: SettingEdit[];
  appends: string[];
}

/** Column names of the axes that vary, in the order the table shows them. */
export function varyingAxes(plan: SweepPlan): string[] {
  const names: string[] = [];
  if (plan.models.length > 1) names.push('model');
  if (plan.hwArches.length > 1) names.push('hwArch');
  if (plan.images.length > 1) names.push('image');
  if (plan.calibrations.length > 1) names.push('calibration');
  for (const a of plan.axes) if (a.values.length > 1) names.push(a.name);
  return names;
}

export function displayValue(v: AxisValue): string {
  return v === null ? 'base' : typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v);
}

const stem = (p: string) => basename(p, extname(p));

export function expandVariants(plan: SweepPlan): Variant[] {
  type Choice = { axis: string; shown: string; slug: string; apply: (v: Partial<Variant>) => void };
  const dims: Choice[][] = [];
  dims.push(plan.models.map((m) => ({ axis: 'model', shown: basename(m), slug: stem(m), apply: (v) => (v.model = m) })));
  dims.push(plan.hwArches.map((a) => ({ axis: 'hwArch', shown: a, slug: a, apply: (v) => (v.hwArch = a) })));
  if (plan.images.length) dims.push(plan.images.map((i) => ({ axis: 'image', shown: i, slug: i, apply: (v) => (v.image = i) })));
  if (plan.calibrations.length)
    dims.push(plan.calibrations.map((c) => ({ axis: 'calibration', shown: basename(c), slug: stem(c), apply: (v) => (v.calibration = c) })));
  for (const axis of plan.axes) {
    dims.push(
      axis.values.map((value) => ({
        axis: axis.name,
        shown: axis.kind === 'append' ? appendLabel(value as string | null) : displayValue(value),
        slug: axis.kind === 'append' ? appendLabel(value as string | null) : displayValue(value),
        apply: (v) => {
          if (value === null || value === '') return;
          if (axis.kind === 'append') v.appends!.push(value as string);
          else for (const setting of (axis as AllsAxis).settings) v.edits!.push({ setting, value });
        },
      })),
    );
  }
  const varying = new Set(varyingAxes(plan));
  const out: Variant[] = [];
  const walk = (i: number, picked: Choice[]) => {
    if (i === dims.length) {
      const v: Partial<Variant> & { edits: SettingEdit[]; appends: string[] } = { edits: [], appends: [] };
      for (const c of picked) c.apply(v);
      const shown = picked.filter((c) => varying.has(c.axis));
      const values: Record<string, string> = {};
      for (const c of shown) values[c.axis] = c.shown;
      out.push({
        id: shown.length ? shown.map((c) => `${c.axis}-${slug(c.slug)}`).join('_') : 'base',
        label: shown.length ? shown.map((c) => `${c.axis}=${c.shown}`).join(', ') : 'base',
        values,
        model: v.model!,
        calibration: v.calibration,
        image: v.image,
        hwArch: v.hwArch!,
        edits: v.edits,
        appends: v.appends,
      });
      return;
    }
    for (const c of dims[i]) walk(i + 1, [...picked, c]);
  };
  walk(0, []);
  // Folder names stay short and unique: a long one, or two values that slug alike, get a hash of the label.
  const counts = new Map<string, number>();
  for (const v of out) counts.set(v.id, (counts.get(v.id) ?? 0) + 1);
  for (const v of out) {
    if (v.id.length > 100 || (counts.get(v.id) ?? 0) > 1) {
      v.id = `${v.id.slice(0, 90).replace(/[_-]+$/, '')}-${createHash('sha256').update(v.label).digest('hex').slice(0, 8)}`;
    }
  }
  return out;
}

function appendLabel(v: string | null): string {
  if (v === null || v.trim() === '') return 'none';
  const first = v.trim().split('\n')[0];
  const call = /^([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*([^,)]*)/.exec(first);
  return call ? `${call[1]}(${call[2].trim()}${first.length > call[0].length + 1 ? ',…' : ''})` : first.slice(0, 40);
}

/** A folder-name-safe form of a value: letters, digits, `.`, `_`, `-`. */
export function slug(s: string): string {
  return (
    s
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[.-]+/, '')
      .replace(/-+$/, '')
      .slice(0, 40) || 'x'
  );
}
