// Diagnostics for `.alls` scripts: syntax errors from the parser plus rules R1–R20 of the
// reference (docs/research/alls-reference.md#rules) and known DFC faults. Severities follow the evidence: errors where the DFC is
// known to fail or a set is authoritative, warnings where the facts are corpus-derived, infos for
// advice. Every message names its evidence.
//
// One module per rule family, all writing to one RuleContext (context.ts): commands.ts (the
// command, contexts, legacy forms, sub-commands), arguments.ts + values.ts (keywords, positionals,
// each value against its slot), targets.ts, then the command-specific families
// (normalization.ts, quantization.ts, nms.ts, placement.ts) and, once per script, layerRefs.ts.
import { analyze, type AllsDocument, type ResolvedStatement } from '../analysis';
import type { AllsCode } from '../codes';
import type { CommandSpec } from '../schemaTypes';
import type { Diagnostic } from '../../common/types';
import { noisyLayerDiagnostics } from '../noisyLayers';
import { checkArgOrder, checkKeywords, checkPositionals } from './arguments';
import { checkCommand, checkSubcommand } from './commands';
import { RuleContext, type CheckOptions } from './context';
import { checkLayerRefs } from './layerRefs';
import { checkNmsArguments, checkNmsPath } from './nms';
import { checkNormalization, checkOrder, INPUT_INSERTERS } from './normalization';
import { checkCluster } from './placement';
import { checkCalibration, checkClipping, checkOptimizationLevel, checkPrecision } from './quantization';
import { checkTargets } from './targets';
import { pushAll } from '../../common/arrays';

export type { CheckOptions } from './context';

function run(ctx: RuleContext): Diagnostic[] {
  const doc = ctx.doc;
  if (doc.binary) {
    ctx.add(0, 0, 'error', 'alls/binary-file', 'This file contains NUL bytes: it looks binary, not like a model script. Not analysed.');
    return ctx.finish();
  }
  if (doc.skipped) {
    ctx.add(0, 0, 'warning', 'alls/limit', doc.skipped);
    return ctx.finish();
  }
  for (const e of doc.script.errors) {
    ctx.add(e.start, e.end, e.severity, e.code as AllsCode, e.message, e.related ? { related: e.related } : {});
  }
  for (const c of doc.script.trailingComments) {
    ctx.add(
      c.start,
      c.end,
      'info',
      'alls/trailing-comment',
      "Comment after code: Hailo's scripts only use full-line comments, and whether the DFC accepts a trailing comment is unknown. Move it to its own line to be safe.",
      {
        fixes: [],
      },
    );
  }
  let firstInserter: ResolvedStatement | undefined;
  for (const st of doc.statements) {
    checkStatement(ctx, st);
    const name = st.node.call?.name.text;
    if (st.spec && !st.isMethod && name) {
      if (name === 'normalization' && firstInserter) checkOrder(ctx, st, firstInserter);
      if (INPUT_INSERTERS.has(name) && !firstInserter) firstInserter = st;
    }
  }
  checkLayerRefs(ctx);
  return ctx.finish();
}

/** One statement, family by family (the order is the order findings of equal range are listed in). */
function checkStatement(ctx: RuleContext, st: ResolvedStatement): void {
  const spec = checkCommand(ctx, st);
  if (!spec) return;
  const ordered = checkArgOrder(ctx, st);
  checkTargets(ctx, st, spec, ordered);
  if (spec.subcommands) checkSubcommand(ctx, st, spec);
  checkKeywords(ctx, st, spec);
  if (ordered) checkPositionals(ctx, st, spec);
  checkSpecific(ctx, st, spec);
}

// ---- command-specific rules ----------------------------------------------------------------

function checkSpecific(ctx: RuleContext, st: ResolvedStatement, spec: CommandSpec): void {
  switch (spec.name) {
    case 'normalization':
      checkNormalization(ctx, st);
      break;
    case 'quantization_param':
      checkPrecision(ctx, st);
      checkClipping(ctx, st, 'activation_clipping_values', 'activation_clipping_mode');
      break;
    case 'pre_quantization_optimization':
      if (st.sub?.name === 'activation_clipping' || st.sub?.name === 'weights_clipping') checkClipping(ctx, st, 'clipping_values', 'mode');
      break;
    case 'model_optimization_flavor':
      checkOptimizationLevel(ctx, st);
      break;
    case 'model_optimization_config':
      checkCalibration(ctx, st);
      break;
    case 'nms_postprocess':
      checkNmsPath(ctx, st);
      checkNmsArguments(ctx, st);
      break;
    case 'place':
      checkCluster(ctx, st);
      break;
  }
}

export function checkDocument(doc: AllsDocument, options: CheckOptions = {}): Diagnostic[] {
  const list = run(new RuleContext(doc, options));
  // A noise analysis of the model: its 16-bit line, checked on the edited script without the noise.
  const noise = options.model?.noise;
  if (noise)
    pushAll(
      list,
      noisyLayerDiagnostics(doc, noise, list, (text) => checkText(text, { ...options, model: { ...options.model!, noise: undefined } })),
    );
  return list;
}

export function checkText(text: string, options: CheckOptions = {}): Diagnostic[] {
  return checkDocument(analyze(text), options);
}
