// Lexer and parser: exact node ranges for every statement form of the reference (§1.3), tokens
// for the lexical corner cases (§1.1), and positions under CRLF / no final newline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../../../server/src/core/alls/parser';
import { tokenList, Tok } from '../../../server/src/core/alls/lexer';
import { LineIndex } from '../../../server/src/core/alls/lineIndex';
import type { ArgNode, DictNode, GlobNode, ListNode, NameNode, StatementNode, ValueNode } from '../../../server/src/core/alls/ast';

const slice = (text: string, n: { start: number; end: number }) => text.slice(n.start, n.end);

function one(text: string): StatementNode {
  const s = parse(text);
  assert.deepEqual(s.errors, [], `unexpected errors: ${JSON.stringify(s.errors)}`);
  assert.equal(s.statements.length, 1);
  return s.statements[0];
}

test('lexer: numbers, durations, names with / - . $, globs with character classes, bools', () => {
  const toks = tokenList(
    'a = f(-1, 0., 1e-5, 1.5e-05, 30m, 2h, centerpose_regnetx_1.6gf_fpn/conv63, sh_from_conv83_to_conv84_d0-3_1559, "$HMZ_DATA/x.json", {conv_feature_splitter[0-9]*_[2-3]}, True, None)',
  );
  const shown = toks.filter((t) => t.kind !== Tok.Comma && t.kind !== Tok.Eof).map((t) => [Tok[t.kind], t.text]);
  assert.deepEqual(shown, [
    ['Name', 'a'],
    ['Equals', ''],
    ['Name', 'f'],
    ['LParen', ''],
    ['Number', '-1'],
    ['Number', '0.'],
    ['Number', '1e-5'],
    ['Number', '1.5e-05'],
    ['Name', '30m'],
    ['Name', '2h'],
    ['Name', 'centerpose_regnetx_1.6gf_fpn/conv63'],
    ['Name', 'sh_from_conv83_to_conv84_d0-3_1559'],
    ['String', '"$HMZ_DATA/x.json"'],
    ['Glob', '{conv_feature_splitter[0-9]*_[2-3]}'],
    ['Name', 'True'],
    ['Name', 'None'],
    ['RParen', ''],
  ]);
});

test('lexer: `{` before `:` or a newline opens a dictionary, not a pattern', () => {
  assert.deepEqual(
    tokenList('{a: [b]}').map((t) => Tok[t.kind]),
    ['LBrace', 'Name', 'Colon', 'LBracket', 'Name', 'RBracket', 'RBrace', 'Eof'],
  );
  assert.deepEqual(
    tokenList('{}').map((t) => Tok[t.kind]),
    ['Glob', 'Eof'],
  );
  assert.deepEqual(
    tokenList('{a,\n b}').map((t) => Tok[t.kind]),
    ['LBrace', 'Name', 'Comma', 'Newline', 'Name', 'RBrace', 'Eof'],
  );
});

test('parser: plain call, keyword args with spaces around `=`, ranges of every node', () => {
  const text = 'post_quantization_optimization(finetune, policy=enabled, epochs = 4, loss_types = [l2rel,ce])';
  const st = one(text);
  const call = st.call!;
  assert.equal(slice(text, call.name), 'post_quantization_optimization');
  assert.equal(text[call.open], '(');
  assert.equal(text[call.close], ')');
  assert.deepEqual([st.start, st.end], [0, text.length]);
  const [sub, policy, epochs, loss] = call.args;
  assert.equal(slice(text, sub), 'finetune');
  assert.equal(slice(text, policy), 'policy=enabled');
  assert.equal(slice(text, epochs), 'epochs = 4');
  assert.equal(slice(text, epochs.keyword!), 'epochs');
  assert.equal(slice(text, loss.value), '[l2rel,ce]');
  assert.deepEqual(
    (loss.value as ListNode).items.map((i) => slice(text, i)),
    ['l2rel', 'ce'],
  );
});

test('parser: targets — single, scoped, several (with odd spacing), `{}`, dictionary', () => {
  let text = 'lprnet/normalization1 = normalization([127.5], [128.0])';
  assert.equal(slice(text, one(text).targets[0]), 'lprnet/normalization1');
  text = 'reshape , resize, concat= input_conversion(input_layer1, nv12_to_hailo_yuv, emulator_support=True)';
  assert.deepEqual(
    one(text).targets.map((t) => slice(text, t)),
    ['reshape', 'resize', 'concat'],
  );
  text = '{} = defuse_block(matmul1, defuse_count=4)';
  const empty = one(text).targets[0] as GlobNode;
  assert.deepEqual([empty.kind, empty.pattern, slice(text, empty)], ['glob', '', '{}']);
  text = '{ net/matmul1: [net/matmul1_fs_0, net/matmul1_dc], net/matmul2: [net/m2_a] } = defuse_block(net/matmul1, net/matmul2, defuse_count=4)';
  const st = one(text);
  const dict = st.targets[0] as DictNode;
  assert.equal(dict.kind, 'dict');
  assert.deepEqual(
    dict.entries.map((e) => [slice(text, e.key), slice(text, e.value)]),
    [
      ['net/matmul1', '[net/matmul1_fs_0, net/matmul1_dc]'],
      ['net/matmul2', '[net/m2_a]'],
    ],
  );
  assert.equal(slice(text, st.call!.name), 'defuse_block');
});

test('parser: `ctx.place(...)` splits object and method; layer names with dots are not split', () => {
  const text = 'vit_base_bn_context_0.place(1, [centerpose_regnetx_1.6gf_fpn/conv70, conv4_d3])';
  const call = one(text).call!;
  assert.equal(slice(text, call.object!), 'vit_base_bn_context_0');
  assert.equal(slice(text, call.name), 'place');
  const list = call.args[1].value as ListNode;
  assert.deepEqual(
    list.items.map((x) => (x as NameNode).text),
    ['centerpose_regnetx_1.6gf_fpn/conv70', 'conv4_d3'],
  );
});

test('parser: multi-line statements inside brackets, with comments and blank lines; CRLF; no final newline', () => {
  const text =
    'post_quantization_optimization(finetune, loss_layer_names = [conv97, conv82],\r\n\r\n   # per layer\r\n   loss_types = [l2rel,\r\n ce], epochs=4)\r\nperformance_param(fps=None)';
  const s = parse(text);
  assert.deepEqual(s.errors, []);
  assert.equal(s.statements.length, 2);
  const lines = new LineIndex(text);
  const [a, b] = s.statements;
  assert.deepEqual(lines.range(a.start, a.end), { start: { line: 0, character: 0 }, end: { line: 4, character: 15 } });
  assert.deepEqual(lines.range(b.start, b.end), { start: { line: 5, character: 0 }, end: { line: 5, character: 27 } });
  const epochs = a.call!.args.find((x: ArgNode) => x.keyword?.text === 'epochs')!;
  assert.deepEqual(lines.positionAt(epochs.value.start), { line: 4, character: 13 });
  assert.equal(s.comments.length, 1);
});

test('parser: a lone CR is a line break, as in LSP documents', () => {
  const text = 'transpose()\rperformance_param(fps=1)';
  const s = parse(text);
  assert.equal(s.statements.length, 2);
  assert.deepEqual(new LineIndex(text).positionAt(s.statements[1].start), { line: 1, character: 0 });
});

test('parser: a missing `)` is reported at the opener and the next statement survives', () => {
  const text = 'normalization1 = normalization([1, 2], [3, 4]\nmodel_optimization_config(calibration, batch_size=2)\n';
  const s = parse(text);
  assert.deepEqual(
    s.errors.map((e) => [e.code, e.message, e.start]),
    [['alls/unclosed-bracket', 'unclosed `(` opened here', text.indexOf('(')]],
  );
  assert.equal(s.statements.length, 2);
  assert.equal(s.statements[1].call!.name.text, 'model_optimization_config');
  assert.equal(s.statements[1].broken, false);
});

test('parser: partial statements keep what was written (for completion and hover)', () => {
  const s = parse('quantization_param(conv1, precision_mode=');
  const call = s.statements[0].call!;
  assert.equal(call.name.text, 'quantization_param');
  assert.equal(call.args.length, 2);
  assert.equal(call.args[1].keyword!.text, 'precision_mode');
  assert.equal((call.args[1].value as ValueNode).kind, 'missing');
});
