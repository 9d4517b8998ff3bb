// Editor features of the `.alls` core, called directly (prisma-style): the cursor is marked `|`
// in each script. A hand-built ModelLayerIndex stands in for the HAR reader's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  analyze,
  checkDocument,
  codeActions,
  complete,
  definition,
  documentSymbols,
  foldingRanges,
  hover,
  semanticTokens,
  signatureHelp,
} from '../../../server/src/core/alls';
import { modelFromJson } from '../../helpers/allsModel';
import type { Diagnostic, TextEdit } from '../../../server/src/core/common/types';
import { LineIndex } from '../../../server/src/core/alls/lineIndex';

const MODEL = modelFromJson({
  source: 'yolo.har',
  networkName: 'yolo',
  layers: [
    {
      name: 'conv1',
      type: 'conv',
      inputShapes: [[-1, 640, 640, 3]],
      outputShapes: [[-1, 320, 320, 16]],
      originalNames: ['/model.0/conv/Conv'],
      detail: 'ONNX `Conv`, kernel 3×3',
      location: { uri: 'file:///m/yolo.onnx', range: { start: { line: 12, character: 2 }, end: { line: 12, character: 9 } } },
    },
    { name: 'conv2', type: 'conv', originalNames: ['/model.1/conv/Conv'] },
    { name: 'concat1', type: 'concat' },
    { name: 'matmul1', type: 'matmul' },
  ],
});

function at(marked: string) {
  const i = marked.indexOf('|');
  assert.ok(i >= 0, 'no | cursor in the script');
  const text = marked.slice(0, i) + marked.slice(i + 1);
  const doc = analyze(text);
  return { doc, pos: doc.lines.positionAt(i), text };
}

const labels = (marked: string, model = false) => {
  const { doc, pos } = at(marked);
  return complete(doc, pos, model ? { model: MODEL } : {}).map((e) => e.label);
};

test('completion: commands at the start of a statement and after `=`, not after a finished call', () => {
  const start = labels('perf|');
  assert.ok(start.includes('performance_param') && start.includes('normalization') && start.includes('quantization_param'));
  assert.ok(!start.includes('place'), 'place is a context method, not a command');
  assert.ok(labels('normalization1 = |').includes('normalization'));
  assert.deepEqual(labels('transpose() |'), []);
  assert.deepEqual(labels('# a comment |'), []);
  assert.deepEqual(labels('nms_postprocess("../a|.json")'), []);
});

test('completion: methods after `ctx.` only for names bound by context()', () => {
  assert.deepEqual(labels('context_0 = context([conv1])\ncontext_0.pl|').sort(), ['compilation_param', 'place']);
  assert.deepEqual(labels('x, y = defuse(conv1, 1)\nx.|'), []);
});

test("completion: sub-commands, then that sub-command's keywords (minus those already written)", () => {
  assert.deepEqual(labels('post_quantization_optimization(|').sort(), ['adaround', 'bias_correction', 'finetune', 'mix_precision_search']);
  const kw = labels('post_quantization_optimization(finetune, policy=enabled, |)');
  assert.ok(kw.includes('epochs') && kw.includes('loss_layer_names'));
  assert.ok(!kw.includes('policy'), 'already written');
  assert.ok(!kw.includes('calibset_size'), 'belongs to another sub-command');
  const { doc, pos } = at('post_quantization_optimization(finetune, |');
  assert.equal(complete(doc, pos).find((e) => e.label === 'epochs')?.insertText, 'epochs=');
});

test('completion: enum values after `kw=`, inside lists, booleans, and positional enum slots', () => {
  const modes = labels('quantization_param(conv1, precision_mode=a16|)');
  assert.equal(modes.length, 18);
  assert.ok(modes.includes('a16_w16') && modes.includes('a16_w8_a16'));
  assert.deepEqual(labels('post_quantization_optimization(finetune, policy=|').sort(), ['disabled', 'enabled']);
  assert.deepEqual(labels('post_quantization_optimization(finetune, loss_types=[l2, |').sort(), [
    'L2REL',
    'ce',
    'l2',
    'l2rel',
    'l2rel_channelwise_we',
    'l2rel_channelwise_weighted',
  ]);
  assert.deepEqual(labels('compilation_param(conv1, buffer_in_l4=|').sort(), ['False', 'True']);
  assert.deepEqual(labels('change_output_activation(conv1, |').sort(), ['gelu', 'linear', 'sigmoid', 'tanh']);
  const mixed = labels('compilation_param(conv1, mixed_mem=|');
  assert.ok(mixed.includes('allowed') && mixed.includes('True'));
});

test("completion: layer slots offer names defined earlier, and the model's layers when a .har is known", () => {
  const script = 'conv9_d0, conv9_dc = defuse(conv9, 1)\nquantization_param([|';
  assert.deepEqual(labels(script).sort(), ['conv9_d0', 'conv9_dc']);
  const withModel = labels(script, true);
  for (const n of ['conv1', 'conv2', 'concat1', 'matmul1', 'conv9_d0']) assert.ok(withModel.includes(n), n);
  assert.ok(labels('quantization_param({conv|', true).includes('conv1'));
  // Names defined later are not offered.
  assert.ok(!labels('quantization_param(|)\nlate = concat([a], b)').includes('late'));
});

test('hover: command, keyword, enum value, sub-command', () => {
  const h = (s: string, model = false) => {
    const { doc, pos } = at(s);
    return hover(doc, pos, model ? { model: MODEL } : {})?.markdown ?? '';
  };
  assert.match(h('quantiz|ation_param(conv1, precision_mode=a8_w8)'), /per-layer quantization settings/);
  assert.match(h('quantization_param(conv1, precision_m|ode=a8_w8)'), /a<act>_w<weights>/);
  assert.match(h('quantization_param(conv1, precision_mode=a16_w8_a|16)'), /16-bit activations, 8-bit weights, 16-bit output/);
  assert.match(h('post_quantization_optimization(fine|tune)'), /quantization-aware fine-tuning/);
  assert.match(h('allocator_param(time|out=30m)'), /duration/);
  // The silent drop to level 0 is named where a script sets the level (R13's evidence).
  assert.match(
    h('model_optimization_flavor(optimization_le|vel=0)'),
    /drops its \*default\* to, silently, when the calibration set has fewer than 1024 images or the container has no GPU/,
  );
});

test("hover: a layer shows the model's type, shapes, ONNX source names and detail", () => {
  const { doc, pos } = at('quantization_param(con|v1, precision_mode=a8_w8)');
  const md = hover(doc, pos, { model: MODEL })!.markdown;
  assert.match(md, /yolo\/conv1/);
  assert.match(md, /`conv` layer/);
  assert.match(md, /input: `\[-1, 640, 640, 3\]`/);
  assert.match(md, /output: `\[-1, 320, 320, 16\]`/);
  assert.match(md, /\/model\.0\/conv\/Conv/);
  assert.match(md, /kernel 3×3/);
  assert.match(md, /yolo\.har/);
  const glob = at('quantization_param({con|v*}, precision_mode=a8_w8)');
  assert.match(hover(glob.doc, glob.pos, { model: MODEL })!.markdown, /matches 2 layers: `conv1`, `conv2`/);
  const scoped = at('quantization_param(yolo/conv|2, precision_mode=a8_w8)');
  assert.match(hover(scoped.doc, scoped.pos, { model: MODEL })!.markdown, /\/model\.1\/conv\/Conv/);
});

test('hover: a context object shows its definition', () => {
  const { doc, pos } = at('context_0 = context([conv1, conv2])\ncontext_|0.place(0, [conv1])');
  assert.match(hover(doc, pos)!.markdown, /Defined on line 1 by `context`/);
});

test('definition: context_0.place → the context_0 = context(...) target; layers → earlier target, then the model location', () => {
  const { doc, pos } = at('context_0 = context([conv1])\ncontext_0|.place(0, [conv1])');
  const [loc] = definition(doc, pos);
  assert.equal(loc.uri, undefined);
  assert.deepEqual(loc.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 9 } });
  const d = at('conv1_d0, conv1_dc = defuse(conv1, 1)\nbuffers(conv1_d|0, conv2, 2)');
  assert.deepEqual(definition(d.doc, d.pos)[0].range.start, { line: 0, character: 0 });
  const m = at('quantization_param(con|v1, precision_mode=a8_w8)');
  assert.deepEqual(definition(m.doc, m.pos, { model: MODEL }), [
    { uri: 'file:///m/yolo.onnx', range: { start: { line: 12, character: 2 }, end: { line: 12, character: 9 } } },
  ]);
  assert.deepEqual(definition(m.doc, m.pos), [], 'no model, no definition');
  const e = at('quantization_param(conv1, precision_mode=a8_|w8)');
  assert.deepEqual(definition(e.doc, e.pos, { model: MODEL }), []);
});

test('signature help: the form and the argument at the cursor', () => {
  const s = (marked: string) => {
    const { doc, pos } = at(marked);
    return signatureHelp(doc, pos)!;
  };
  let h = s('normalization1 = normalization([1, 2, 3], |');
  assert.equal(h.signatures[h.activeSignature].label.startsWith('normalization(mean, std, [input_layer]'), true);
  assert.equal(h.activeParameter, 1);
  h = s('input_conversion1 = input_conversion(input_layer1, |');
  assert.equal(h.signatures.length, 2);
  assert.equal(h.activeSignature, 1);
  assert.equal(h.activeParameter, 1);
  h = s('post_quantization_optimization(finetune, policy=enabled, epochs=|');
  const sig = h.signatures[0];
  const [a, b] = sig.parameters[h.activeParameter].label;
  assert.match(sig.label.slice(a, b), /^epochs=/);
  h = s('allocator_param(timeout=30m, automatic_ddr=|');
  assert.match(h.signatures[0].label, /more keywords/);
  const [c, d] = h.signatures[0].parameters[h.activeParameter].label;
  assert.match(h.signatures[0].label.slice(c, d), /^automatic_ddr=/);
  const none = at('performance_param(fps=30) |');
  assert.equal(signatureHelp(none.doc, none.pos), null);
});

test('document symbols: outline grouped by stage, in stage order', () => {
  const doc = analyze(
    'quantization_param(conv1, precision_mode=a8_w8)\nnormalization1 = normalization([1.0], [2.0])\nallocator_param(timeout=30m)\ncontext_0 = context([conv1])\ncontext_0.place(0, [conv1])\nfrob(1)\n',
  );
  const syms = documentSymbols(doc);
  assert.deepEqual(
    syms.map((s) => [s.name, s.children!.map((c) => c.name)]),
    [
      ['Model modification', ['normalization1']],
      ['Optimization (quantization)', ['quantization_param conv1']],
      ['Compilation', ['allocator_param']],
      ['Allocation (compiler-written)', ['context_0', 'context_0.place']],
      ['Unknown commands', ['frob']],
    ],
  );
});

test('folding: multi-line statements and long lists, runs of one command, comment blocks', () => {
  const text = [
    '# header line 1',
    '# header line 2',
    'post_quantization_optimization(finetune, policy=enabled,',
    '    loss_layer_names=[conv1,',
    '                      conv2],',
    '    epochs=4)',
    ...Array.from({ length: 6 }, (_, i) => `buffers(conv${i}, conv${i + 1}, 2)`),
  ].join('\n');
  const f = foldingRanges(analyze(text));
  assert.deepEqual(f, [
    { startLine: 0, endLine: 1, kind: 'comment' },
    { startLine: 2, endLine: 5, kind: 'region' },
    { startLine: 3, endLine: 4, kind: 'region' },
    { startLine: 6, endLine: 11, kind: 'region' },
  ]);
});

test('semantic tokens: roles are right, tokens are sorted, never overlap and stay on one line', () => {
  const text =
    '# c\nnorm1 = normalization([1.0], [2.0])\nquantization_param({conv*}, precision_mode=a8_w8, use_16bit_bias=True)\npost_quantization_optimization(finetune, policy=enabled)\n';
  const doc = analyze(text);
  const toks = semanticTokens(doc);
  const lines = new LineIndex(text);
  const byText = new Map(toks.map((t) => [text.slice(lines.offsetAt(t), lines.offsetAt(t) + t.length), t]));
  assert.equal(byText.get('# c')?.type, 'comment');
  assert.deepEqual(byText.get('norm1'), { line: 1, character: 0, length: 5, type: 'variable', modifiers: ['declaration'] });
  assert.equal(byText.get('normalization')?.type, 'function');
  assert.equal(byText.get('{conv*}')?.type, 'property');
  assert.equal(byText.get('precision_mode')?.type, 'parameter');
  assert.equal(byText.get('a8_w8')?.type, 'enumMember');
  assert.equal(byText.get('True')?.type, 'keyword');
  assert.equal(byText.get('finetune')?.type, 'method');
  assert.equal(byText.get('1.0')?.type, 'number');
  for (let i = 1; i < toks.length; i++) {
    const a = toks[i - 1];
    const b = toks[i];
    assert.ok(b.line > a.line || (b.line === a.line && b.character >= a.character + a.length), `overlap at ${b.line}:${b.character}`);
  }
});

function applyEdits(text: string, edits: TextEdit[]): string {
  const lines = new LineIndex(text);
  const sorted = [...edits].sort((a, b) => lines.offsetAt(b.range.start) - lines.offsetAt(a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, lines.offsetAt(e.range.start)) + e.newText + out.slice(lines.offsetAt(e.range.end));
  return out;
}

test('quick fixes: applying the preferred did-you-mean fix of each typo leaves a clean script', () => {
  let text =
    'quantizaton_param(conv1, precision_mode=a8_w9)\npost_quantization_optimization(finetun, policy=enabeld, epoch=4)\nnormalization([127.5], [127.5])\n';
  for (let round = 0; round < 10; round++) {
    const diags: Diagnostic[] = checkDocument(analyze(text));
    const fixable = diags.filter((d) => d.fixes?.length);
    if (!fixable.length) break;
    const d = fixable[0];
    const actions = codeActions(diags, d.range);
    const preferred = actions.find((a) => a.diagnostic === d && a.fix.preferred)!;
    assert.ok(preferred, `no preferred fix for ${d.code}`);
    text = applyEdits(text, preferred.fix.edits);
  }
  assert.deepEqual(
    checkDocument(analyze(text)).map((d) => d.code),
    [],
  );
  assert.equal(
    text,
    'quantization_param(conv1, precision_mode=a8_w8)\npost_quantization_optimization(finetune, policy=enabled, epochs=4)\nnormalization1 = normalization([127.5], [127.5])\n',
  );
});

test("quick fixes: an unknown layer suggests the model's nearest layer", () => {
  const text = 'quantization_param(convv1, precision_mode=a8_w8)\n';
  const diags = checkDocument(analyze(text), { model: MODEL });
  const [d] = diags.filter((x) => x.code === 'alls/unknown-layer');
  assert.equal(d.fixes?.[0].edits[0].newText, 'conv1');
  assert.deepEqual(codeActions(diags, { start: { line: 5, character: 0 }, end: { line: 5, character: 0 } }), [], 'nothing outside the range');
});
