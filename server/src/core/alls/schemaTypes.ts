// Shapes of the command schema (schema.ts holds the data). Evidence levels travel with every
// entry so rules can pick a severity honestly: corpus-derived sets are warnings, authoritative
// sets (the DFC 5.3.0 precision_mode enum) are errors.
import type { ArchFamily } from '../common/arch';

/** How a value may be written. */
export type ValueKind =
  | 'int'
  | 'number'
  | 'bool' // True / False (also lowercase `true`, seen 28×)
  | 'none' // None / null
  | 'enum' // a bare word from `enum`
  | 'layer' // one layer name
  | 'glob' // `{conv*}`
  | 'layerList' // `[conv1, conv2]`
  | 'string' // "path.json"
  | 'duration' // `30m`, `2h`
  | 'numberList'
  | 'intList'
  | 'enumList'
  | 'name' // any bare word, unchecked
  | 'any';

/**
 * Where a fact comes from: `corpus` = Hailo's model zoo scripts, `hailo` = Hailo's own code or
 * docs, `third-party` = other people's code or forum posts (unverified).
 */
export type Evidence = 'corpus' | 'hailo' | 'third-party';

export type { ArchFamily };

export interface ArchNote {
  /** Families whose scripts contain this item. */
  seenOn: ArchFamily[];
}

export interface EnumValue {
  name: string;
  doc: string;
  evidence?: Evidence;
  arch?: ArchNote;
}

export interface EnumSpec {
  /** Name for messages, e.g. `PrecisionMode`. */
  name: string;
  values: EnumValue[];
  /** The value names, for membership tests. */
  names: ReadonlySet<string>;
  /** The values by name (the first of each name). */
  byName: ReadonlyMap<string, EnumValue>;
  /** The set is known to be complete (error on anything else) vs. observed so far (warning). */
  closed: boolean;
  /** Where the set comes from, for messages. */
  source: string;
}

export interface ValueSpec {
  kinds: ValueKind[];
  /** `kinds` as a bit set (KIND_BIT), filled in by the schema. */
  bits?: number;
  enum?: EnumSpec;
  min?: number;
  max?: number;
  /** Severity of a value outside [min, max]. */
  rangeSeverity?: 'error' | 'warning';
  /** Why the range holds (quoted in the message). */
  rangeNote?: string;
  /** Exact list length. */
  length?: number;
}

export interface ParamSpec {
  name: string;
  doc: string;
  value: ValueSpec;
  evidence?: Evidence;
  /** First model-zoo tag / DFC version seen in. */
  since?: string;
  arch?: ArchNote;
  /** Superseded by this spelling. */
  replacedBy?: string;
  /** The model-zoo releases whose scripts use this keyword (for legacy hints). */
  zoo?: ZooUse;
  /** Positional only: may be left out (trailing). */
  optional?: boolean;
  /** Positional only: repeats to the end. */
  variadic?: boolean;
}

/** One accepted form of the positional arguments. */
export interface Signature {
  params: ParamSpec[];
}

export type Stage = 'modification' | 'optimization' | 'compilation' | 'allocation';

export const STAGE_TITLES: Record<Stage, string> = {
  modification: 'Model modification',
  optimization: 'Optimization (quantization)',
  compilation: 'Compilation',
  allocation: 'Allocation (compiler-written)',
};

/**
 * How complete a command's argument list is known to be. `documented`: complete by the DFC user
 * guide's signature or by Hailo's parser behaviour quoted in a public traceback — an unknown
 * keyword or a missing required argument is an error that quotes `evidence`. `corpus`: only what
 * scripts were seen to write — a warning that says so.
 */
export interface ArgumentSet {
  kind: 'documented' | 'corpus';
  evidence: string;
  /** The DFC's own words for an unknown keyword (`No argument named`), quoted with the keyword. */
  refusal?: string;
}

export interface SubcommandSpec {
  name: string;
  doc: string;
  kwargs: Record<string, ParamSpec>;
  /** Keywords of this feature (default: the corpus-derived set). */
  argumentSet?: ArgumentSet;
  evidence: Evidence;
  since?: string;
  arch?: ArchNote;
}

export interface CommandSpec {
  name: string;
  doc: string;
  stage: Stage;
  evidence: Evidence;
  since?: string;
  /** Assignment targets: always written, never written, or either. */
  targets: 'required' | 'none' | 'optional';
  /** `confirmed` = a DFC parse error proves it; `usage` = every corpus use does it. */
  targetEvidence?: 'confirmed' | 'usage';
  /** Accepted positional forms (after the sub-command, if any). Empty list = no positionals. */
  signatures: Signature[];
  kwargs: Record<string, ParamSpec>;
  /** How complete `kwargs` and the required positionals are known to be (issue 10 recall). */
  argumentSet: ArgumentSet;
  /** First positional is a bare sub-command / feature name. */
  subcommands?: { enumName: string; items: Record<string, SubcommandSpec> };
  /** Written as `ctx.name(...)` in current scripts. */
  methodOnly?: boolean;
  /**
   * The bare call (no context object) is an older form that released model-zoo scripts used: a
   * hint, never an error (issue 10: a form any release used is not wrong).
   */
  bareForm?: ZooUse;
  /** Legacy spelling and what replaced it. */
  replacedBy?: string;
  /** The model-zoo releases whose scripts use this command (for legacy hints). */
  zoo?: ZooUse;
  arch?: ArchNote;
}

/**
 * Which released model-zoo versions (git tags of hailo-ai/hailo_model_zoo) have scripts that use
 * a form, and in how many distinct script versions (blobs): from the history corpus,
 * ../shared/corpus/alls-history (scripts/alls-history.mjs).
 */
export interface ZooUse {
  /** e.g. `v1.0–v5.0.0`. */
  releases: string;
  /** Distinct script versions (git blobs) that use it. */
  scripts: number;
}

/** Bit of each ValueKind in `ValueSpec.bits`. */
export const KIND_BIT: Record<ValueKind, number> = {
  int: 1,
  number: 2,
  bool: 4,
  none: 8,
  enum: 16,
  layer: 32,
  glob: 64,
  layerList: 128,
  string: 256,
  duration: 512,
  numberList: 1024,
  intList: 2048,
  enumList: 4096,
  name: 8192,
  any: 16384,
};

export function kindBits(v: ValueSpec): number {
  if (v.bits === undefined) v.bits = v.kinds.reduce((b, k) => b | KIND_BIT[k], 0);
  return v.bits;
}

/** Slots that hold layer references (a name, a `{pattern}` or a list of names). */
export const LAYER_BITS = KIND_BIT.layer | KIND_BIT.glob | KIND_BIT.layerList;
