// Every diagnostic code the `.alls` checker emits, with the reference rule it implements and its
// usual severity. Codes are stable: never reuse one for another meaning. docs/alls-rules.md is
// the human version of this table (a unit test keeps the two in sync).
import type { Severity } from '../common/types';

export interface RuleInfo {
  /** Rule R1–R20 of docs/research/alls-reference.md#rules, `syntax`, `fault` (known DFC faults), `input` or `noise` (a noise analysis of the model). */
  rule: string;
  severity: Severity | 'varies';
  summary: string;
}

export const RULES = {
  'alls/syntax-error': { rule: 'syntax', severity: 'error', summary: 'the statement does not follow the grammar' },
  'alls/unclosed-bracket': { rule: 'syntax', severity: 'error', summary: 'a `(`, `[` or `{` is never closed (reported at the opener)' },
  'alls/unmatched-bracket': { rule: 'syntax', severity: 'error', summary: 'a `)`, `]` or `}` without an opener' },
  'alls/extra-closer': {
    rule: 'syntax',
    severity: 'warning',
    summary: 'a complete statement followed by extra `)`/`]`/`}` — a typo model zoo v2.8–v2.11 shipped; the DFC most likely refuses it',
  },
  'alls/missing-comma': { rule: 'syntax', severity: 'error', summary: 'two values without a comma between them' },
  'alls/unterminated-string': { rule: 'syntax', severity: 'error', summary: 'a string without its closing quote' },
  'alls/invalid-character': { rule: 'syntax', severity: 'error', summary: 'a character the language has no use for (`;`, `@`, bad UTF-8)' },
  'alls/nested-call': { rule: 'syntax', severity: 'error', summary: 'a call inside an argument (the language has none)' },
  'alls/trailing-comma': { rule: 'syntax', severity: 'warning', summary: "`,)` / `,]` — never seen in Hailo's scripts" },
  'alls/trailing-comment': { rule: 'syntax', severity: 'info', summary: 'a comment after code on the same line — never seen; acceptance unknown' },
  'alls/single-quoted-string': { rule: 'syntax', severity: 'info', summary: "a '…' string — never seen in Hailo's scripts" },
  'alls/binary-file': { rule: 'input', severity: 'error', summary: 'the file contains NUL bytes: not a model script' },
  'alls/invalid-encoding': { rule: 'input', severity: 'error', summary: 'the file is not valid UTF-8' },
  'alls/limit': {
    rule: 'input',
    severity: 'varies',
    summary:
      'the file crosses a size limit (too large, too many lines or tokens: not analysed — warning) or a statement does (nesting, items in a bracket, problems per statement — error); limits in SECURITY.md',
  },
  'alls/too-many-problems': { rule: 'input', severity: 'info', summary: 'more problems than are shown' },
  'alls/unknown-command': { rule: 'R1', severity: 'error', summary: 'not a command of the language' },
  'alls/unknown-method': { rule: 'R1', severity: 'error', summary: '`ctx.name(...)` with a name other than `place` / `compilation_param`' },
  'alls/missing-subcommand': {
    rule: 'R2',
    severity: 'error',
    summary: 'model_optimization_config / pre_… / post_quantization_optimization without a bare component name first',
  },
  'alls/unknown-subcommand': { rule: 'R2', severity: 'error', summary: 'not a known component / feature' },
  'alls/unverified-subcommand': { rule: 'R2', severity: 'warning', summary: 'a feature seen only in third-party code' },
  'alls/unknown-kwarg': {
    rule: 'R3',
    severity: 'varies',
    summary: 'a keyword not seen for this command: a warning where the list is corpus-derived, an error quoting the evidence where it is documented complete',
  },
  'alls/legacy': {
    rule: 'R3',
    severity: 'hint',
    summary: 'a form released model-zoo scripts used that newer ones replaced (bare `place`, `yuv_to_rgb`, …), with the releases',
  },
  'alls/positional-after-keyword': { rule: 'R4', severity: 'error', summary: 'a positional argument after a keyword argument' },
  'alls/missing-target': {
    rule: 'R5',
    severity: 'varies',
    summary: 'a command that is always assigned, written bare (error for normalization: confirmed by a DFC parse error)',
  },
  'alls/unexpected-target': { rule: 'R5', severity: 'warning', summary: 'a command that is never assigned, assigned' },
  'alls/target-count': {
    rule: 'R6',
    severity: 'varies',
    summary:
      'the number of targets does not fit the command (defuse, input_conversion, …); error where the DFC is known to refuse (a default defuse without its concat target)',
  },
  'alls/argument-count': {
    rule: 'R6',
    severity: 'varies',
    summary: 'positional arguments do not fit any known form of the command (too few is an error only where the signature is documented complete)',
  },
  'alls/undefined-context': { rule: 'R7', severity: 'error', summary: '`X.place(...)` where X is not bound by `X = context(...)` earlier' },
  'alls/network-group-name': { rule: 'R8', severity: 'info', summary: 'network_group target differs from its single list element' },
  'alls/invalid-value': { rule: 'R9', severity: 'error', summary: 'not in a closed enum (precision_mode, enabled/disabled/allowed)' },
  'alls/unrecognized-value': { rule: 'R9', severity: 'warning', summary: 'not among the values seen for this keyword (open, corpus-derived set)' },
  'alls/value-type': { rule: 'R9', severity: 'warning', summary: 'a value of the wrong kind (word for a number, …)' },
  'alls/out-of-range': { rule: 'R10', severity: 'varies', summary: 'a number outside its documented or observed range' },
  'alls/list-length': { rule: 'R10', severity: 'varies', summary: 'a list with the wrong number of items' },
  'alls/normalization-shape': { rule: 'R10', severity: 'error', summary: 'normalization mean and std of different lengths' },
  'alls/normalization-scale': { rule: 'R11', severity: 'warning', summary: 'normalization values all < 1: probably the 0–1 scale instead of 0–255' },
  'alls/nms-config-not-found': { rule: 'R12', severity: 'warning', summary: 'the nms_postprocess config file does not exist' },
  'alls/nms-meta-arch-missing': { rule: 'R12', severity: 'error', summary: 'nms_postprocess without meta_arch (the DFC cannot decode the outputs)' },
  'alls/nms-config-conflict': {
    rule: 'R12',
    severity: 'error',
    summary: 'nms_postprocess with a config path and config values as keywords ("Both config path and config arguments were given")',
  },
  'alls/optimization-needs-gpu': {
    rule: 'R13',
    severity: 'info',
    summary: 'an explicit optimization_level 2–4 trains on the CPU when there is no GPU (only the default level is lowered)',
  },
  'alls/calibset-size': { rule: 'R13', severity: 'info', summary: 'calibset_size above 64 only affects statistics collection' },
  'alls/duplicate-kwarg': {
    rule: 'R14',
    severity: 'info',
    summary: 'the same keyword twice in one call (a released script does it; which value wins is undocumented)',
  },
  'alls/precision-propagation': { rule: 'R15', severity: 'info', summary: 'concat/shortcut/feature_splitter asked to change bit width' },
  'alls/arch-specific': { rule: 'R16', severity: 'varies', summary: 'seen only in scripts for other architectures (setting `hailo.hwArch`)' },
  'alls/dfc-known-fault': { rule: 'fault', severity: 'warning', summary: 'a known DFC failure, with its evidence' },
  'alls/modification-order': { rule: 'R17', severity: 'info', summary: 'normalization written after an input conversion runs before it' },
  'alls/use-before-definition': { rule: 'R18', severity: 'info', summary: 'a name used before the statement that defines it' },
  'alls/unknown-layer': { rule: 'R19', severity: 'warning', summary: 'a layer not in the parsed model (only with a .har)' },
  'alls/glob-no-match': { rule: 'R19', severity: 'warning', summary: 'a `{pattern}` that matches no layer (only with a .har)' },
  'alls/noisy-layers': {
    rule: 'noise',
    severity: 'info',
    summary: 'a layer noise analysis of the HAR names layers that need more bits; quick fix: the 16-bit quantization_param line',
  },
  'alls/layer-ref-kind': { rule: 'R20', severity: 'info', summary: 'a glob or list where the command takes one layer (or the reverse)' },
} satisfies Record<string, RuleInfo>;

export type AllsCode = keyof typeof RULES;
