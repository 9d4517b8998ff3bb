// The plan of each variant (core/sweep/variantPlan.ts), against docs/sweep.md "A variant": the base
// script with the variant's settings written in, a header line naming the variant (left out of the
// key), an .alls error making the variant invalid before docker is asked, the warnings the
// variant's settings bring kept as its notes, and no script at all when the plan has none to give.
// Expected scripts are written out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePlan, type SweepPlan } from '../../../server/src/core/sweep/plan';
import { planVariants, stripHeader } from '../../../server/src/core/sweep/variantPlan';

function withPlan(plan: Record<string, unknown>, files: Record<string, string>, check: (plan: SweepPlan) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-variant-plan-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    check(parsePlan(JSON.stringify(plan), join(dir, 'tiny.sweep.json')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const BASE = 'model_optimization_flavor(optimization_level=1)\n';

test('plan: each variant gets the base script with its value written in, after a header naming the sweep and the variant', () => {
  withPlan({ model: 'm.har', alls: 'm.alls', hwArch: 'hailo10h', axes: { optimization_level: [0, 1] } }, { 'm.har': 'x', 'm.alls': BASE }, (plan) => {
    const planned = planVariants(plan, BASE);
    assert.deepEqual(
      planned.map((p) => [p.variant.id, p.script, p.invalid, p.notes]),
      [
        [
          'optimization_level-0',
          "# hailo-tools sweep 'tiny', variant optimization_level=0, from m.alls\nmodel_optimization_flavor(optimization_level=0)\n",
          undefined,
          [],
        ],
        [
          'optimization_level-1',
          "# hailo-tools sweep 'tiny', variant optimization_level=1, from m.alls\nmodel_optimization_flavor(optimization_level=1)\n",
          undefined,
          [],
        ],
      ],
    );
    // The key hashes what is compiled: without the header, the script is the base with its value changed.
    assert.equal(stripHeader(planned[0].script!), 'model_optimization_flavor(optimization_level=0)\n');
  });
});

test('plan: a value the DFC refuses makes the variant invalid (nothing runs); a warning its settings bring is a note, the baseline has none', () => {
  withPlan(
    {
      model: 'm.har',
      alls: 'm.alls',
      hwArch: 'hailo10h',
      axes: { optimization_level: [1, 7], precision_mode: { layers: ['conv1'], values: [null, 'a16_w4'] } },
    },
    { 'm.har': 'x', 'm.alls': BASE },
    (plan) => {
      const byId = new Map(planVariants(plan, BASE).map((p) => [p.variant.id, p]));
      const refused = byId.get('optimization_level-7_precision_mode-base')!;
      assert.match(refused.invalid ?? '', /^The derived script is refused by the \.alls rules \(line 2: .*\); nothing was run\.$/);
      const baseline = byId.get('optimization_level-1_precision_mode-base')!;
      assert.equal(baseline.invalid, undefined);
      assert.deepEqual(baseline.notes, []);
      const a16w4 = byId.get('optimization_level-1_precision_mode-a16_w4')!;
      assert.equal(a16w4.invalid, undefined);
      // The rules' note on a16_w4 (a known DFC 5.3.0 optimize fault), as a warning: the variant still runs.
      assert.equal(a16w4.notes.filter((n) => /^warning \S+: .*a16_w4/.test(n)).length, 1, a16w4.notes.join('\n'));
    },
  );
});

test('plan: without a base script a variant that sets nothing compiles the model as it is (no script); one that sets something gets a script of its own', () => {
  withPlan({ model: 'm.har', hwArch: 'hailo10h', images: ['dfc:1', 'dfc:2'] }, { 'm.har': 'x' }, (plan) => {
    assert.deepEqual(
      planVariants(plan, null).map((p) => [p.variant.image, p.script]),
      [
        ['dfc:1', null],
        ['dfc:2', null],
      ],
    );
  });
  withPlan({ model: 'm.har', hwArch: 'hailo10h', axes: { compression_level: [1] } }, { 'm.har': 'x' }, (plan) => {
    const [p] = planVariants(plan, null);
    assert.equal(stripHeader(p.script!), 'model_optimization_flavor(compression_level=1)\n');
  });
});
