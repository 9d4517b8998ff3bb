// Recall and its honesty (issue 10): every command records how complete its argument list is
// known to be (schema `argumentSet`), and the severity of an unknown keyword or a missing
// required argument follows it — error quoting the evidence where the list is documented
// complete, warning that says "corpus" otherwise. Sibling slots share one vocabulary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMANDS, CORPUS_ARGUMENTS, argumentSetOf } from '../../../server/src/core/alls/schema';
import { checkText } from '../../../server/src/core/alls/rules';

test('every command records its argument set, with evidence', () => {
  for (const c of COMMANDS.values()) {
    assert.ok(c.argumentSet.kind === 'documented' || c.argumentSet.kind === 'corpus', c.name);
    assert.ok(c.argumentSet.evidence.length > 20, `${c.name}: evidence`);
    for (const s of Object.values(c.subcommands?.items ?? {})) assert.ok(argumentSetOf(c, s).evidence, `${c.name}(${s.name})`);
  }
});

test('a corpus-derived keyword list gives warnings that say so', () => {
  const [d] = checkText('set_seed(sed=23)\n').filter((x) => x.code === 'alls/unknown-kwarg');
  assert.equal(d.severity, 'warning');
  assert.match(d.message, /Hailo's scripts and is not exhaustive/);
  const [a] = checkText('remove_node()\n').filter((x) => x.code === 'alls/argument-count');
  assert.equal(a.severity, 'warning');
});

test('a documented argument list makes an unknown keyword and a missing argument errors quoting the evidence', () => {
  // The mechanism, on one command switched to a documented set for this test only.
  const spec = COMMANDS.get('remove_node')!;
  const saved = spec.argumentSet;
  spec.argumentSet = { kind: 'documented', evidence: 'EVIDENCE-QUOTE (source)' };
  try {
    const kw = checkText('remove_node(format_conversion1, layer=x)\n').find((x) => x.code === 'alls/unknown-kwarg')!;
    assert.equal(kw.severity, 'error');
    assert.match(kw.message, /The list is complete: EVIDENCE-QUOTE \(source\)/);
    const missing = checkText('remove_node()\n').find((x) => x.code === 'alls/argument-count')!;
    assert.equal(missing.severity, 'error');
    assert.match(missing.message, /The signature is complete: EVIDENCE-QUOTE/);
    // Too many arguments is not a documented refusal: still a warning.
    assert.equal(checkText('remove_node(a, b)\n').find((x) => x.code === 'alls/argument-count')!.severity, 'warning');
  } finally {
    spec.argumentSet = saved;
  }
  assert.equal(spec.argumentSet, CORPUS_ARGUMENTS);
});

test('sibling slots share a vocabulary: clipping modes', () => {
  const qp = COMMANDS.get('quantization_param')!.kwargs.activation_clipping_mode.value.enum!;
  const pre = COMMANDS.get('pre_quantization_optimization')!.subcommands!.items;
  const act = pre.activation_clipping.kwargs.mode.value.enum!;
  const weights = pre.weights_clipping.kwargs.mode.value.enum!;
  assert.deepEqual([...qp.names].sort(), [...act.names].sort());
  for (const m of act.names) assert.ok(weights.names.has(m), `weights_clipping lacks ${m}`);
  // The case of the issue: several independent scripts write weights_clipping with mode=percentile.
  const diags = checkText('pre_quantization_optimization(weights_clipping, layers={*}, mode=percentile, clipping_values=[0.01, 99.99])\n');
  assert.deepEqual(
    diags.map((d) => d.code),
    [],
  );
});
