// DFC log fixtures (test/fixtures/dfc/<case>/): each log is built from public DFC output
// (SOURCES.md says which lines are real); expected.json was written by hand from the log and its
// sources — the stage times, versions, summary figures and positions are read off the lines, never
// copied from the reader's output. Every case is also streamed in random chunk sizes (seeded):
// the report must be identical to reading the log whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { DfcLogReader, onnxNodeIndex, readDfcLog, type DfcExit, type DfcLogContext, type DfcReport } from '../../../server/src/core/dfc';
import { readOnnxFile } from '../../../server/src/core/onnx/reader';
import { analyzeOnnx } from '../../../server/src/core/onnx/analysis';
import { renderGraphView } from '../../../server/src/core/onnx/graphView';
import { repoRoot } from '../../helpers/shared';
import { prng } from '../../helpers/random';

export const DFC_FIXTURES = join(repoRoot, 'test', 'fixtures', 'dfc');
const cases = readdirSync(DFC_FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

interface CaseFile {
  alls?: string;
  onnx?: string;
  exit?: DfcExit;
}

function load(name: string): { log: string; ctx: DfcLogContext; exit?: DfcExit; graphText?: string } {
  const dir = join(DFC_FIXTURES, name);
  const c: CaseFile = existsSync(join(dir, 'case.json')) ? JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8')) : {};
  const ctx: DfcLogContext = { logPath: 'run.log' };
  let graphText: string | undefined;
  if (c.alls) {
    ctx.allsPath = c.alls;
    ctx.allsText = readFileSync(join(dir, c.alls), 'utf8');
  }
  if (c.onnx) {
    const a = analyzeOnnx(readOnnxFile(join(dir, c.onnx)));
    ctx.onnx = onnxNodeIndex(a, c.onnx);
    ctx.onnxPath = c.onnx;
    graphText = renderGraphView(a, c.onnx).text;
  }
  return { log: readFileSync(join(dir, 'run.log'), 'utf8'), ctx, exit: c.exit, graphText };
}

/** Where the graph view shows a node, found by searching its text (`  NAME = Op(...)`), 1-based. */
function graphViewPlace(text: string, node: string) {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.startsWith(`  ${node} = `));
  assert.ok(i >= 0, `graph view shows node ${node}`);
  return { line: i + 1, column: 3, endLine: i + 1, endColumn: 3 + node.length };
}

type Expected = Omit<DfcReport, 'diagnostics'> & { diagnostics: Record<string, unknown>[] };

function check(name: string, r: DfcReport, expected: Expected, graphText?: string) {
  const { diagnostics, ...rest } = r;
  const { diagnostics: want, ...wantRest } = expected;
  assert.deepEqual(rest, wantRest, `${name}: report`);
  assert.equal(diagnostics.length, want.length, `${name}: ${diagnostics.map((d) => `${d.code}@${d.line}`).join(', ')}`);
  want.forEach((w, i) => {
    const d = diagnostics[i] as unknown as Record<string, unknown>;
    const { messageIncludes, messageExcludes, excerptLength, onGraphView, ...keys } = w as Record<string, unknown> & {
      messageIncludes?: string[];
      messageExcludes?: string[];
      excerptLength?: number;
      onGraphView?: boolean;
    };
    for (const [k, v] of Object.entries(keys)) assert.deepEqual(d[k], v, `${name}: diagnostic ${i} ${k}`);
    if (onGraphView) {
      const p = graphViewPlace(graphText!, d.node as string);
      assert.deepEqual({ line: d.line, column: d.column, endLine: d.endLine, endColumn: d.endColumn }, p, `${name}: diagnostic ${i} on its graph-view line`);
    }
    for (const s of messageIncludes ?? [])
      assert.ok((d.message as string).includes(s), `${name}: diagnostic ${i} message mentions ${JSON.stringify(s)}: ${d.message}`);
    for (const s of messageExcludes ?? []) assert.ok(!(d.message as string).includes(s), `${name}: diagnostic ${i} never claims ${JSON.stringify(s)}`);
    if (excerptLength !== undefined) assert.equal((d.excerpt as string[] | undefined)?.length, excerptLength, `${name}: diagnostic ${i} excerpt`);
    assert.ok(typeof d.message === 'string' && (d.message as string).length > 20, `${name}: diagnostic ${i} explains itself`);
  });
}

test('dfc fixtures: there is one case per code of the reader and per outcome', async () => {
  const { DFC_CODES } = await import('../../../server/src/core/dfc/codes');
  const seen = new Set<string>();
  const outcomes = new Set<string>();
  for (const name of cases) {
    const e = JSON.parse(readFileSync(join(DFC_FIXTURES, name, 'expected.json'), 'utf8')) as Expected;
    outcomes.add(e.outcome);
    for (const d of e.diagnostics) seen.add(d.code as string);
  }
  assert.deepEqual([...seen].sort(), Object.keys(DFC_CODES).sort());
  assert.deepEqual([...outcomes].sort(), ['failed', 'incomplete', 'killed', 'success']);
});

for (const name of cases) {
  test(`dfc fixture ${name}: the report equals expected.json`, () => {
    const { log, ctx, exit, graphText } = load(name);
    const expected = JSON.parse(readFileSync(join(DFC_FIXTURES, name, 'expected.json'), 'utf8')) as Expected;
    check(name, readDfcLog(log, ctx, exit), expected, graphText);
  });

  test(`dfc fixture ${name}: streamed in random chunks (seeded) gives the same report and the same diagnostics as events`, () => {
    const { log, ctx, exit } = load(name);
    const whole = readDfcLog(log, ctx, exit);
    const seed = [...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
    const rnd = prng(seed);
    for (let k = 0; k < 12; k++) {
      const reader = new DfcLogReader(ctx);
      const max = [1, 3, 17, 256][k % 4];
      let streamed = 0;
      for (let i = 0; i < log.length;) {
        const n = 1 + Math.floor(rnd() * max);
        for (const e of reader.push(log.slice(i, i + n))) if (e.kind === 'diagnostic') streamed++;
        i += n;
      }
      const r = reader.end(exit);
      assert.deepEqual(r, whole, `${name}: chunking ${k} (seed ${seed})`);
      assert.ok(streamed <= r.diagnostics.length, `${name}: no more live diagnostics than the report has`);
    }
    // Bytes split anywhere, UTF-8 sequences included (the bars' █ is three bytes), as the CLI reads files.
    const bytes = Buffer.from(log, 'utf8');
    const reader = new DfcLogReader(ctx);
    const dec = new StringDecoder('utf8');
    for (let i = 0; i < bytes.length;) {
      const n = 1 + Math.floor(rnd() * 5);
      reader.push(dec.write(bytes.subarray(i, i + n)));
      i += n;
    }
    reader.push(dec.end());
    assert.deepEqual(reader.end(exit), whole, `${name}: byte chunks`);
  });
}
