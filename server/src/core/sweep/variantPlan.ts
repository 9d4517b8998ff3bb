// The plan of every variant before anything runs: the product of the plan's axes (variants.ts), each
// with its `.alls` derived from the base script (derive.ts) and checked by the `.alls` rules for the
// architecture it compiles for — an error makes the variant `invalid` (it never reaches docker), the
// warnings its settings bring (not the base script's own) are kept as its notes (docs/sweep.md
// "A variant"). Its inputs key is added by processes/sweep/inputsHash.ts (it hashes files). Pure.
import { basename } from 'node:path';
import { checkText } from '../alls';
import { BaseScript, checkDerived, DeriveError, findingKey } from './derive';
import type { SweepPlan } from './plan';
import { expandVariants, type Variant } from './variants';

export interface VariantScript {
  variant: Variant;
  /** The derived `.alls` (header comment first); null when there is no base script and the variant sets nothing. */
  script: string | null;
  /** Why the variant cannot run (its script is refused by the rules, or cannot be written): one sentence. */
  invalid?: string;
  /** `severity code: message` of each finding the variant's settings bring to the script. */
  notes: string[];
}

export interface PlannedVariant extends VariantScript {
  /** The inputs key: a finished result with this key is this variant's result (docs/sweep.md "Nothing runs twice"). */
  key: string;
  /** The accuracy column's settings key (context, count, seed, inputs, float model); null without `accuracy`. */
  accuracyKey: string | null;
}

/** Each variant of the plan with its derived, checked script, in plan order; `baseText` is the plan's `alls` (null: none). */
export function planVariants(plan: SweepPlan, baseText: string | null): VariantScript[] {
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
  return expandVariants(plan).map((v) => {
    const notes: string[] = [];
    let script: string | null = null;
    let invalid: string | undefined;
    if (baseText !== null || v.edits.length || v.appends.length) {
      try {
        script = base.derive(v.edits, v.appends, [scriptHeader(plan, v)]);
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
    return { variant: v, script, invalid, notes };
  });
}

/** The comment line a derived script starts with: which sweep and variant wrote it. */
function scriptHeader(plan: SweepPlan, v: Variant): string {
  return `hailo-tools sweep '${plan.name}', variant ${v.label}${plan.alls ? `, from ${basename(plan.alls)}` : ''}`;
}

/** The script without our header comment: the key hashes what is compiled, not the variant's name. */
export function stripHeader(script: string): string {
  return script.replace(/^# hailo-tools sweep [^\n]*\n/, '');
}
