// Issue 29, "every size from a file is bounded, every walk linear, every parse depth-bounded, every
// glob non-backtracking": one reproducer per case of the audit — a 23-byte labels JSON naming
// class 150,000,000 (1.6 GB, then a stack trace), a 40,000-layer HN (over a minute in `har`), an
// ld.so.conf include glob of 40 `*` (the doctor hung), 400,000 dpkg rows and JSON nested 10⁶ deep
// (stack overflows with a stack trace), a million-entry SNR list (the SNR column lost) — and a
// linear-time test for each walk over a graph a file holds (time at n and 8n: linear stays near 8,
// quadratic near 64).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseLabels } from '../../../server/src/core/nms/labels';
import { readLabels } from '../../../server/src/core/nms/bundle';
import { LimitError, limit } from '../../../server/src/core/common/limits';
import { parseFileJson, jsonNestingDepth } from '../../../server/src/core/common/json';
import { globMatcher } from '../../../server/src/core/common/glob';
import { buildHarView, dataflowOrder, readHarView } from '../../../server/src/core/har/harView';
import { parseHn, type HnLayer } from '../../../server/src/core/har/hn';
import { noiseReport } from '../../../server/src/core/har/noise';
import { DivergenceFormatError, readDivergenceResults } from '../../../server/src/core/har/divergenceResults';
import { layerTensors } from '../../../server/src/core/noise/divergence';
import { ldSoConfDirs } from '../../../server/src/core/doctor/linkage';
import { runDoctor } from '../../../server/src/core/doctor/index';
import { doctorText } from '../../../server/src/core/doctor/text';
import { renderHarPage } from '../../../client/src/har/render';
import { chainHn, harOf } from '../../helpers/hostile';
import { repoRoot } from '../../helpers/shared';

const cli = join(repoRoot, 'bin', 'hailo-tools.js');
const CSP = "default-src 'none'; style-src https://webview.test; img-src https://webview.test; font-src https://webview.test; script-src 'nonce-n0nce'";
const PAGE = {
  nonce: 'n0nce',
  cspMeta: `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
  styleUri: 'https://webview.test/hef.css',
  scriptUri: 'https://webview.test/har.js',
};

function scratch(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-bounds-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The CLI in a child with a small heap: a bound that is not applied shows as a crash or a timeout. */
function run(args: string[], cwd: string, heapMb = 256) {
  const r = spawnSync(process.execPath, [`--max-old-space-size=${heapMb}`, cli, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
}

const noStackTrace = (s: string) => assert.doesNotMatch(s, /^\s+at .+[:(]\d+/m, `a stack trace was printed:\n${s.slice(0, 2000)}`);

/** Best of `reps` wall times of `fn` (ms): the least disturbed by the other processes of the machine. */
function bestTime(fn: () => void, reps = 3): number {
  let best = Infinity;
  for (let i = 0; i < reps && (i === 0 || best < 5000); i++) {
    const t = process.hrtime.bigint();
    fn();
    best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e6);
  }
  return best;
}

/**
 * A linear pass over the same layers (a map of the names, then every input looked up): what a
 * linear walk costs at this size on this machine, cache misses and map growth included — on the
 * 2-core VM this pass alone takes 60–100× as long at 32,000 layers as at 4,000.
 */
function baselineOf(layers: readonly HnLayer[]): () => void {
  return () => {
    const m = new Map<string, number>();
    for (const l of layers) m.set(l.fullName, l.input.length);
    let s = 0;
    for (const l of layers) for (const p of l.input) s += m.get(p) ?? 0;
    if (s < 0) throw new Error('unreachable');
  };
}

/**
 * The walk's time over the baseline's at n and at 8n: a linear walk keeps the ratio (about 1×
 * growth, a little more for n log n), a quadratic one multiplies it by about 8. Growth below 3
 * separates them with room for a loaded 2-core machine.
 */
function assertLinear(what: string, n: number, work: (n: number) => { run: () => void; layers: readonly HnLayer[] }): void {
  // the small size runs 8 times per measurement, so both sizes are timed over about as long
  const ratio = (k: number, times: number) => {
    const w = work(k);
    const base = baselineOf(w.layers);
    const repeat = (f: () => void) => () => {
      for (let i = 0; i < times; i++) f();
    };
    w.run(); // warm up the JIT
    return bestTime(repeat(w.run), 5) / Math.max(bestTime(repeat(base), 5), 0.05);
  };
  const small = ratio(n, 8);
  const large = ratio(8 * n, 1);
  assert.ok(
    large / small < 3,
    `${what}: at 8× the layers the time over a linear pass grew ${(large / small).toFixed(1)}× (${small.toFixed(1)} → ${large.toFixed(1)}; linear ≈ 1, quadratic ≈ 8)`,
  );
}

// ---- sizes and indices from a file --------------------------------------------------------------

test('labels: {"150000000": "a"} is refused by its index before anything is allocated (one sentence)', () => {
  const before = process.memoryUsage().rss;
  assert.throws(
    () => parseLabels('{"150000000": "a"}', 'labels.json'),
    (e: unknown) => e instanceof LimitError && /labels\.json names class 150,000,000 is over the limit of 65,536 items/.test(e.message),
  );
  assert.ok(process.memoryUsage().rss - before < 64 * 1024 * 1024);
  // a list longer than the limit, and a names file, are refused the same way
  assert.throws(() => parseLabels(JSON.stringify(Array.from({ length: limit('labelIndex') + 1 }, () => 'x')), 'l.json'), LimitError);
  assert.throws(() => parseLabels('x\n'.repeat(limit('labelIndex') + 1), 'coco.names'), LimitError);
  // the largest index the limit allows still reads (a sparse map of a real 21k-class set)
  const ok = parseLabels('{"0": "unlabeled", "21842": "last"}', 'labels.json');
  assert.equal(ok?.names.length, 21843);
  const { dir, cleanup } = scratch();
  try {
    writeFileSync(join(dir, 'labels.json'), '{"150000000": "a"}');
    assert.match((readLabels(join(dir, 'labels.json')) as { error: string }).error, /over the limit of 65,536 items: the labels file is not used/);
  } finally {
    cleanup();
  }
});

test('labels: `check` on a HEF with that labels file beside it says one sentence, in a 256 MB heap, no stack trace', () => {
  const { dir, cleanup } = scratch();
  try {
    copyFileSync(join(repoRoot, 'test', 'fixtures', 'nms', 'custom', 'custom.hef'), join(dir, 'custom.hef'));
    writeFileSync(join(dir, 'labels.json'), '{"150000000": "a"}');
    const r = run(['check', 'custom.hef'], dir);
    noStackTrace(r.stderr);
    assert.equal(r.signal, null);
    assert.match(
      r.stderr,
      /labels\.json names class 150,000,000 is over the limit of 65,536 items: the labels file is not used, the other checks go on without it; checked without it\n/,
    );
    assert.equal(r.code, 0, r.stderr);
  } finally {
    cleanup();
  }
});

test('doctor: 400,000 Hailo rows in dpkg status list 256 packages and one row for the rest; text and exit as usual', async () => {
  const { dir, cleanup } = scratch();
  try {
    mkdirSync(join(dir, 'var', 'lib', 'dpkg'), { recursive: true });
    const rows: string[] = [];
    for (let i = 0; i < 400_000; i++) rows.push(`Package: hailort${i}\nStatus: install ok installed\nVersion: 4.20.0\n`);
    writeFileSync(join(dir, 'var', 'lib', 'dpkg', 'status'), rows.join('\n'));
    const report = await runDoctor({ root: dir, folder: dir, noScanReason: 'test' });
    const packages = report.components.filter((c) => c.kind === 'package');
    assert.equal(packages.length, limit('doctorPackages') + 1);
    assert.match(packages[packages.length - 1].detail ?? '', /dpkg's status has 400,000 Hailo packages, over the limit of 256 items/);
    assert.match(doctorText(report), /399,744 more Debian packages/);
    const r = run(['doctor', '--root', dir, dir], dir);
    noStackTrace(r.stderr);
    assert.match(r.stdout, /399,744 more Debian packages/);
  } finally {
    cleanup();
  }
});

test('noise: a million-entry SNR list keeps the layer and its figure (no spread into Math.min)', () => {
  const values = Array.from({ length: 1_000_000 }, (_, i) => 30 + (i % 7));
  values[654_321] = 4.5;
  const r = noiseReport(
    { 'net/conv1/layer_noise_analysis/snr': values, 'net/conv2/layer_noise_analysis/noise_results/net/out': values },
    { source: 't', mode: 'simple' },
  );
  assert.deepEqual(
    r.layers.map((l) => [l.name, l.snrDb]),
    [
      ['conv1', 4.5],
      ['conv2', 4.5],
    ],
  );
});

// ---- JSON nested deep ---------------------------------------------------------------------------

test('JSON nested 10⁶ deep: parseFileJson refuses it from one scan; the HAR view and `har` say one sentence', async () => {
  const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
  assert.equal(jsonNestingDepth('{"a": "[[[[", "b": [{"c": "\\"]"}]}'), 3); // brackets in strings do not count
  assert.throws(
    () => parseFileJson(deep, 'x.json'),
    (e: unknown) => e instanceof LimitError && /x\.json has more than 64 levels, over the limit of 64 levels/.test(e.message),
  );
  // a syntax error names the place, never the file's bytes
  assert.throws(
    () => parseFileJson('{"a": secret-token}', 'x.json'),
    (e: unknown) => e instanceof Error && e.message === 'x.json is not valid JSON (line 1, column 7)',
  );
  const { dir, cleanup } = scratch();
  try {
    // deep in the HN's params (every layer's params are printed) and in the noise sidecar
    const hn = `{"name":"net","net_params":{"net_scopes":["net"]},"layers":{"net/conv1":{"type":"conv","input":[],"output":[],"params":{"k":${deep}}}}}`;
    writeFileSync(join(dir, 'deep.har'), harOf(hn));
    const h = run(['har', 'deep.har'], dir);
    noStackTrace(h.stderr);
    assert.equal(h.code, 2);
    assert.match(
      h.stderr.trim(),
      /^hailo-tools har: deep\.har:net\.hn has more than 64 levels, over the limit of 64 levels: the file is not read \(one sentence naming it\); the rest goes on without it\.$/,
    );
    writeFileSync(join(dir, 'net.har'), harOf(chainHn(3)));
    writeFileSync(join(dir, 'net.noise.json'), `{"format":"hailo-tools-noise/1","statistics":${deep}}`);
    const view = await readHarView(join(dir, 'net.har'));
    assert.equal(view.layers.length, 3);
    assert.ok(
      view.notes.some((n) => /net\.noise\.json has more than 64 levels/.test(n)),
      view.notes.join('\n'),
    );
    // JSON.parse with a reviver (the divergence sidecar's) recurses in V8: 10⁶ levels overflowed the stack
    writeFileSync(join(dir, 'net.diverge.json'), `{"format":"hailo-tools-diverge/1","layers":${deep}}`);
    assert.throws(
      () => readDivergenceResults(join(dir, 'net.diverge.json')),
      (e: unknown) => e instanceof DivergenceFormatError && /has more than 64 levels/.test(e.message),
    );
    const j = run(['har', 'net.har'], dir);
    noStackTrace(j.stderr);
    assert.equal(j.code, 0, j.stderr);
  } finally {
    cleanup();
  }
});

// ---- globs ----------------------------------------------------------------------------------------

test('glob: fnmatch semantics without a RegExp', () => {
  const m = (p: string, s: string) => globMatcher(p).test(s);
  assert.ok(m('*.conf', 'libc.conf'));
  assert.ok(!m('*.conf', 'libc.conf.bak'));
  assert.ok(m('conv_feature_splitter[0-9]*_[2-3]', 'conv_feature_splitter1x_3'));
  assert.ok(!m('conv_feature_splitter[0-9]*_[2-3]', 'conv_feature_splitter1x_4'));
  assert.ok(m('conv[!0-4]', 'conv7'));
  assert.ok(!m('conv[!0-4]', 'conv3'));
  assert.ok(m('c?nv', 'conv'));
  assert.ok(m('a[]', 'a[]')); // an unclosed set is literal
  assert.ok(m('[]]x', ']x'));
  assert.ok(m('net/*', 'net/conv1')); // `*` crosses `/` as fnmatch does
  assert.ok(m('*', ''));
  assert.ok(!m('?', ''));
});

test('glob: 40 `*` against a long name answers at once (steps bounded by |pattern| × |name|)', () => {
  const pattern = 'a*'.repeat(40) + 'b';
  const name = 'a'.repeat(200);
  const steps = { n: 0 };
  const t = bestTime(() => assert.equal(globMatcher(pattern).test(name, steps), false), 1);
  assert.ok(steps.n <= pattern.length * name.length, `${steps.n} steps`);
  assert.ok(t < 1000, `${t} ms`);
  // linear in the name for a fixed pattern: 8× the name, at most about 8× the steps
  const count = (len: number) => {
    const s = { n: 0 };
    globMatcher('*x*y*z').test('xy'.repeat(len), s);
    return s.n;
  };
  assert.ok(count(8000) / count(1000) < 9, `${count(8000)} vs ${count(1000)}`);
});

test('doctor: an ld.so.conf include of 40 `*` against a long file name finishes and still reads the folders', () => {
  const { dir, cleanup } = scratch();
  try {
    mkdirSync(join(dir, 'etc', 'ld.so.conf.d'), { recursive: true });
    writeFileSync(join(dir, 'etc', 'ld.so.conf'), `include /etc/ld.so.conf.d/${'*a'.repeat(40)}*.conf\ninclude /etc/ld.so.conf.d/*.conf\n`);
    writeFileSync(join(dir, 'etc', 'ld.so.conf.d', `${'a'.repeat(60)}.cfg`), '/opt/never\n');
    writeFileSync(join(dir, 'etc', 'ld.so.conf.d', 'hailo.conf'), '/opt/hailo/lib\n');
    const t = process.hrtime.bigint();
    assert.deepEqual(ldSoConfDirs(dir), ['opt/hailo/lib']);
    assert.ok(Number(process.hrtime.bigint() - t) / 1e6 < 2000);
  } finally {
    cleanup();
  }
});

// ---- walks over graphs from files are linear ------------------------------------------------------

test('HN dataflow order: linear (inputs visited and heap moves counted; time at n and 8n)', () => {
  const hn = (n: number) => parseHn(chainHn(n), 'net.hn').layers;
  const counted = (n: number) => {
    const steps = { n: 0 };
    const order = dataflowOrder(hn(n), steps);
    assert.equal(order[0].name, 'input_layer1');
    assert.equal(order[n - 1].name, `conv${n - 1}`);
    return steps.n;
  };
  const a = counted(5000);
  const b = counted(40_000);
  assert.ok(b / a < 9, `steps ${a} → ${b}`);
  assert.ok(b < 40_000 * 8, `${b} steps for 40,000 layers`);
  assertLinear('dataflowOrder', 4000, (n) => {
    const layers = hn(n);
    return { layers, run: () => void dataflowOrder(layers) };
  });
});

test('the HAR view (model, page) and the divergence layer map of a file-sized HN: linear', () => {
  const emptyParams = { arrays: [], members: [], notes: [] } as unknown as Parameters<typeof buildHarView>[1];
  assertLinear('HAR view', 2000, (n) => {
    const har = { path: '/nowhere/net.har', members: [], hn: parseHn(chainHn(n), 'net.hn') } as unknown as Parameters<typeof buildHarView>[0];
    return {
      layers: har.hn.layers,
      run: () => {
        const doc = buildHarView(har, emptyParams);
        const stats: Record<string, number[]> = {};
        for (const l of doc.layers) stats[`${l.fullName}/layer_noise_analysis/snr`] = [1];
        const noise = noiseReport(stats, { source: 't', mode: 'simple' });
        renderHarPage(
          {
            doc: { ...doc, noise: { ...noise, chosen: noise.layers.map((l) => l.name) } },
            title: 'net.har',
            query: '',
            page: 0,
            refs: { scripts: [], lines: new Map() },
          },
          PAGE,
        );
      },
    };
  });
  // every layer shares one ONNX tensor: each conflict was a search of the list so far
  assertLinear('layerTensors', 2000, (n) => {
    const layers = parseHn(chainHn(n), 'net.hn').layers.map((l) => ({ ...l, type: 'conv', originalNames: ['node'] }));
    const analysis = { model: { graph: { nodes: [{ name: 'node', inputs: ['x'], outputs: ['t'] }], outputs: [{ name: 't' }] } } } as unknown as Parameters<
      typeof layerTensors
    >[1];
    return { layers, run: () => void layerTensors(layers, analysis) };
  });
});

test('`hailo-tools har` on a 40,000-layer HN: seconds, not minutes', () => {
  const { dir, cleanup } = scratch();
  try {
    writeFileSync(join(dir, 'net.har'), harOf(chainHn(40_000)));
    const t = Date.now();
    const r = run(['har', '--json', 'net.har'], dir, 1024);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { layers: unknown[] }).layers.length, 40_000);
    assert.ok(Date.now() - t < 30_000, `${Date.now() - t} ms`);
  } finally {
    cleanup();
  }
});
