// R9 / R10 / R20: one value against its slot — kind, enum words, ranges, list lengths.
import { isBoolWord, isNoneWord, valueFits } from '../analysis';
import type { NameNode, ValueNode } from '../ast';
import { KIND_BIT, kindBits, type EnumSpec, type ParamSpec } from '../schemaTypes';
import { suggest } from '../suggest';
import type { RuleContext } from './context';
import { DESCRIBE_KIND, describeValue, listWords, short, slotLabel } from './messages';

// ---- R9 / R10 / R20 values -----------------------------------------------------------------

/**
 * `name` is the keyword, or the parameter of `command`'s positional: how messages name the slot
 * (built only for a message — most values are fine).
 */
export function checkValue(ctx: RuleContext, value: ValueNode, prm: ParamSpec, name: string, command?: string): void {
  if (value.kind === 'missing') return;
  const spec = prm.value;
  if (!valueFits(value, prm)) {
    reportMisfit(ctx, value, spec, slotLabel(name, command));
    return;
  }
  // Kinds fit; now words inside lists, enum details, ranges and lengths.
  if (value.kind === 'list') {
    if (kindBits(spec) & KIND_BIT.enumList && spec.enum) {
      for (const item of value.items) if (item.kind === 'name' && !spec.enum.names.has(item.text)) badEnum(ctx, item, spec.enum, slotLabel(name, command));
    }
    if (spec.length !== undefined && value.items.length !== spec.length && value.close >= 0) {
      ctx.add(
        value.start,
        value.end,
        spec.rangeSeverity ?? 'warning',
        'alls/list-length',
        `\`${slotLabel(name, command)}\` takes ${spec.length} values; found ${value.items.length}.`,
      );
    }
    for (const item of value.items) if (item.kind === 'number') checkRange(ctx, item.value, item, spec, name, command);
    return;
  }
  if (value.kind === 'number') checkRange(ctx, value.value, value, spec, name, command);
  if (value.kind === 'name' && spec.enum) {
    const ev = spec.enum.byName.get(value.text);
    if (ev?.arch && !(ev.name === 'a16_w8' && ctx.settings.hwArch === 'hailo10h')) ctx.checkArch(value, `\`${slotLabel(name, command)}=${ev.name}\``, ev.arch);
  }
}

/** A value of the wrong kind for its slot. */
function reportMisfit(ctx: RuleContext, value: Exclude<ValueNode, { kind: 'missing' }>, spec: ParamSpec['value'], label: string): void {
  const layerish = spec.kinds.every((k) => k === 'layer' || k === 'glob' || k === 'layerList');
  if (value.kind === 'name' && (isBoolWord(value.text) || isNoneWord(value.text))) {
    // e.g. `share_config=True`: some keywords take both spellings, this one was only seen with words.
    const accepts = spec.kinds
      .map((k) =>
        k === 'enum' && spec.enum
          ? `one of ${listWords(
              spec.enum.values.map((v) => v.name),
              6,
            )}`
          : DESCRIBE_KIND[k],
      )
      .join(' or ');
    ctx.add(value.start, value.end, 'warning', 'alls/value-type', `\`${label}\` takes ${accepts} in Hailo's scripts; found ${describeValue(value)}.`);
  } else if (spec.enum && (value.kind === 'name' || value.kind === 'string')) {
    badEnum(ctx, value, spec.enum, label, spec.kinds.includes('bool'));
  } else if (layerish && (value.kind === 'name' || value.kind === 'glob' || value.kind === 'list')) {
    const accepts = spec.kinds.map((k) => DESCRIBE_KIND[k]).join(' or ');
    ctx.add(value.start, value.end, 'info', 'alls/layer-ref-kind', `\`${label}\` takes ${accepts} in Hailo's scripts; found ${describeValue(value)}.`);
  } else {
    const accepts = spec.kinds
      .map((k) =>
        k === 'enum' && spec.enum
          ? `one of ${listWords(
              spec.enum.values.map((v) => v.name),
              6,
            )}`
          : DESCRIBE_KIND[k],
      )
      .join(' or ');
    ctx.add(value.start, value.end, 'warning', 'alls/value-type', `\`${label}\` takes ${accepts}; found ${describeValue(value)}.`);
  }
}

function badEnum(ctx: RuleContext, value: NameNode | Extract<ValueNode, { kind: 'string' }>, e: EnumSpec, label: string, alsoBool = false): void {
  const word = value.kind === 'name' ? value.text : value.value;
  const names = e.values.map((v) => v.name);
  if (alsoBool) names.push('True', 'False');
  const cands = suggest(word, names);
  const mean = cands.length ? ` Did you mean \`${cands[0]}\`?` : '';
  if (e.closed) {
    ctx.add(
      value.start,
      value.end,
      'error',
      'alls/invalid-value',
      `\`${short(word)}\` is not a valid \`${label}\`: expected one of ${listWords(names, 20)} (${e.source}).${mean}`,
      {
        fixes: ctx.renameFixes(value, cands, 'the value'),
      },
    );
  } else {
    ctx.add(
      value.start,
      value.end,
      'warning',
      'alls/unrecognized-value',
      `\`${short(word)}\` is not among the \`${label}\` values seen: ${listWords(names, 12)} (${e.source}; the set may be incomplete).${mean}`,
      {
        fixes: ctx.renameFixes(value, cands, 'the value'),
      },
    );
  }
}

function checkRange(ctx: RuleContext, v: number, node: { start: number; end: number }, spec: ParamSpec['value'], name: string, command?: string): void {
  const low = spec.min !== undefined && v < spec.min;
  const high = spec.max !== undefined && v > spec.max;
  if (!low && !high) return;
  const label = slotLabel(name, command);
  const bounds = spec.max === undefined ? `≥ ${spec.min}` : spec.min === undefined ? `≤ ${spec.max}` : `${spec.min}–${spec.max}`;
  ctx.add(
    node.start,
    node.end,
    spec.rangeSeverity ?? 'warning',
    'alls/out-of-range',
    `\`${label}\` must be ${bounds}${spec.rangeNote ? ` (${spec.rangeNote})` : ''}; found ${v}.`,
  );
}
