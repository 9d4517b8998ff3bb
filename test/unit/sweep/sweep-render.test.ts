// The sweep page and the plan's schema: the shell escapes every name and refuses a weak CSP; the
// view the page draws from has the table's columns, the # numbering the chart uses, which cell
// opens what, and chart points only for measured variants; the JSON schema VS Code validates
// *.sweep.json with offers exactly the fields, shortcuts and architectures the plan checker takes,
// and the example plan passes the checker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderSweepShell } from '../../../client/src/sweep/render';
import { sweepView } from '../../../client/src/sweep/view';
import { buildDocument, type SweepRow } from '../../../server/src/core/sweep/table';
import { readPlan, SHORTCUTS, type SweepPlan } from '../../../server/src/core/sweep/plan';
import { expandVariants } from '../../../server/src/core/sweep/variants';
import { HW_ARCHES } from '../../../server/src/core/common/arch';
import { repoRoot } from '../../helpers/shared';

const page = {
  nonce: 'n0nce',
  cspMeta: `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-n0nce'">`,
  styleUri: 's',
  scriptUri: 'j',
  chartStyleUri: 'c',
};
const HOSTILE = '<img src=x onerror=alert(1)>"\'`';

test('the page: names escaped, scripts only by nonce, a weak CSP refused', () => {
  const html = renderSweepShell(`Sweep: ${HOSTILE}`, `/p/${HOSTILE}.sweep.json`, page);
  assert.ok(!html.includes('<img'), 'no element from a name');
  assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&#96;'));
  assert.equal((html.match(/<script/g) ?? []).length, 1);
  assert.match(html, /<script nonce="n0nce" src="j"><\/script>/);
  assert.ok(!/ on[a-z]+=/.test(html.replace(/onerror=alert/g, '')), 'no inline handler');
  assert.throws(
    () =>
      renderSweepShell('t', 'p', { ...page, cspMeta: `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'">` }),
    /weak Content-Security-Policy/,
  );
});

function row(i: number, over: Partial<SweepRow>): SweepRow {
  return {
    version: 1,
    key: `k${i}`,
    id: `v${i}`,
    label: `optimization_level=${i}`,
    values: { optimization_level: String(i) },
    finished: true,
    state: 'done',
    message: null,
    outcome: 'success',
    failedStage: null,
    stages: { parse: null, optimize: 10 + i, compile: 5 },
    seconds: 20 + i,
    dockerContext: 'gpu',
    image: null,
    hwArch: 'hailo10h',
    dfcVersion: null,
    contexts: 2,
    utilization: { control: 59.4, compute: 55.9, memory: 33.5 },
    hefBytes: 6224,
    mtmd: null,
    accuracy: { context: 'quantized', status: 'ok', relativeError: 0.0123, cosine: 0.99, maxAbsError: 0.5, inputs: '8 draws', key: 'a' },
    device: null,
    files: { folder: `/o/v${i}`, alls: `/o/v${i}/m.alls`, log: `/o/v${i}/m.dfc.log`, har: null, optimizedHar: null, hef: `/o/v${i}/m.hef` },
    notes: [],
    startedAt: null,
    endedAt: null,
    ...over,
  };
}

test('view: the table columns with # first, cell texts, links (HEF column → HEF, others → log), chart points for measured variants only', () => {
  const plan = { path: '/p/x.sweep.json', name: 'x', out: '/o' } as SweepPlan;
  const doc = buildDocument(
    plan,
    ['optimization_level'],
    [
      row(0, {}),
      row(1, {
        state: 'failed',
        failedStage: 'optimize',
        message: HOSTILE,
        accuracy: null,
        hefBytes: null,
        files: { folder: '/o/v1', alls: '/o/v1/m.alls', log: '/o/v1/m.dfc.log', har: null, optimizedHar: null, hef: null },
      }),
      row(2, { state: 'running', stage: 'optimize · Calibration 3/64', finished: false, accuracy: null, seconds: null }),
    ],
    [{ name: '', width: 2, state: 'up', local: true, message: null, ran: 3 }],
    't0',
    null,
  );
  const v = sweepView(doc, true);
  assert.equal(v.title, 'Sweep: x');
  assert.equal(v.running, true);
  assert.deepEqual(
    v.columns.slice(0, 4).map((c) => c.id),
    ['n', 'variant', 'axis:optimization_level', 'state'],
  );
  assert.ok(!v.columns.some((c) => c.id === 'folder' || c.id === 'log'), 'paths stay in the host');
  const col = (id: string) => v.columns.findIndex((c) => c.id === id);
  assert.equal(v.columns[col('hef_bytes')].link, 'hef');
  assert.equal(v.columns[col('variant')].link, 'log');
  assert.equal(v.rows[0].cells[col('rel_error')].text, '1.23 %');
  assert.equal(v.rows[0].cells[col('rel_error')].v, 0.0123);
  assert.equal(v.rows[0].cells[col('hef_bytes')].text, '6.1 KB');
  assert.equal(v.rows[0].cells[col('control_util_pct')].text, '59.4');
  assert.equal(v.rows[1].cells[col('message')].text, HOSTILE, 'text, which the page writes with textContent');
  assert.deepEqual(v.rows[1].has, { log: true, hef: false, alls: true });
  assert.equal(v.rows[2].cells[col('state')].text, 'running · optimize · Calibration 3/64');
  assert.equal(v.rows[2].cells[col('state')].v, 'running');
  assert.deepEqual(v.chart, [{ n: 1, seconds: 20, fps: null, relErrorPct: 1.23 }]);
  assert.match(v.chartNote, /emulator \(quantized\) against the float model/);
  assert.deepEqual(v.contexts, [{ name: 'current', width: 2, state: 'up', ran: 3, message: '' }]);
  assert.equal(v.summary, '3 variants, 1 running, 1 done, 1 failed');
});

test('schema: the fields, axis shortcuts and architectures of the plan checker; package.json validates *.sweep.json with it; the example plan passes', () => {
  const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas', 'sweep.schema.json'), 'utf8'));
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  assert.deepEqual(manifest.contributes.jsonValidation.find((j: { url: string }) => j.url === './schemas/sweep.schema.json').fileMatch, ['*.sweep.json']);
  assert.match(readFileSync(join(repoRoot, '.vscodeignore'), 'utf8'), /^!schemas\/\*\.json$/m, 'the schema is packaged');
  // Every field the checker takes (plan.ts `known`) and no other.
  const src = readFileSync(join(repoRoot, 'server', 'src', 'core', 'sweep', 'plan.ts'), 'utf8');
  const known = /const known = new Set\(\[([^\]]+)\]\)/
    .exec(src)![1]
    .match(/'([^']+)'/g)!
    .map((s) => s.slice(1, -1));
  assert.deepEqual(Object.keys(schema.properties).sort(), known.sort());
  assert.equal(schema.additionalProperties, false);
  assert.deepEqual(Object.keys(schema.properties.axes.properties).sort(), Object.keys(SHORTCUTS).sort());
  for (const [name, s] of Object.entries(schema.properties.axes.properties) as [string, { description: string }][]) {
    assert.ok(s.description.includes(SHORTCUTS[name].command), `${name}'s hover names its .alls command`);
    assert.ok(s.description.includes(SHORTCUTS[name].keyword));
  }
  assert.deepEqual(schema.properties.hwArch.oneOf[0].enum, [...HW_ARCHES]);
  assert.equal(schema.properties.contexts.items.oneOf[1].properties.width.maximum, 16);
  // The example a user opens first is a plan the checker takes, and a sweep worth running.
  const plan = readPlan(join(repoRoot, 'examples', 'model', 'tinycnn.sweep.json'));
  assert.ok(expandVariants(plan).length >= 4);
  assert.ok(plan.accuracy);
});
