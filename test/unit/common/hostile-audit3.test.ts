// Issue 29, audit 3: an independent hostile-input audit of main, through the real entry point — the
// `hailo-tools` binary (bin/hailo-tools.js) run in a child process in a folder someone else made, as
// a new user would run it, with a 256 MB heap (a bound that is not applied shows as a crash). Each
// case builds the folder (`ws/`) beside a `home/` standing for everything outside it, then checks
// that every `home/` file is byte-for-byte and mtime-for-mtime unchanged, that no byte of it shows,
// and that the command says one sentence instead of a stack trace. Cases that still fail on main
// are skipped with the finding they show (docs/research/hostile-audit-3.md lists them all); the
// language-server cases are in test/lsp/hostile-audit3.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import Module from 'node:module';
import { copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAKE_DOCKER, fakeDocker, NEEDS_PYTHON, scenario } from '../../fakes/fakeDocker';
import { makeFifo, releaseFifo, tarMember, TAR_END } from '../../helpers/hostile';
import { ultralyticsDetector, ultralyticsMetadata } from '../../helpers/detectorOnnx';
import { withExternalData } from '../../helpers/onnxBuilder';
import { repoRoot } from '../../helpers/shared';
import { findModelFiles, readReferenceModel } from '../../../server/src/api';
import { fakeVscode } from '../../fakes/vscodeModule';
import { outsideLab, type OutsideLab } from '../../helpers/outsideLab';

const BIN = join(repoRoot, 'bin', 'hailo-tools.js');
const MODEL = join(repoRoot, 'examples', 'model');
const NMS = join(repoRoot, 'test', 'fixtures', 'nms', 'custom');
const SECRET = 'PRIVATE-a3-5e1f0c-DO-NOT-SHOW';
const NO_STACK = /^\s+at .+[:(]\d+/m;

const lab = (): OutsideLab => outsideLab('hailo-audit3-');

interface Run {
  code: number | null;
  out: string;
  err: string;
  signal: NodeJS.Signals | null;
  ms: number;
}

/** `hailo-tools ARGS` in `cwd`, as a user runs it, in a 256 MB heap (a fake docker's state folder in env when given). */
function cli(cwd: string, args: string[], env: Record<string, string> = {}, timeout = 60_000): Run {
  const t = Date.now();
  const r = spawnSync(process.execPath, ['--max-old-space-size=256', BIN, ...args], {
    cwd,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, out: r.stdout, err: r.stderr, signal: r.signal, ms: Date.now() - t };
}

/** One sentence, not a crash: no signal, no stack trace, no secret, an ordinary exit status. */
function calm(r: Run, what: string): void {
  assert.equal(r.signal, null, `${what}: killed by ${r.signal} (${r.ms} ms)\n${r.err.slice(0, 2000)}`);
  assert.doesNotMatch(r.err, NO_STACK, `${what}: a stack trace was printed:\n${r.err.slice(0, 2000)}`);
  assert.doesNotMatch(r.err, /internal error|FATAL ERROR/, `${what}: ${r.err.slice(0, 2000)}`);
  assert.ok(!`${r.out}${r.err}`.includes(SECRET), `${what}: a byte of the outside file shows`);
  assert.ok(r.code !== null && r.code <= 3, `${what}: exit ${r.code}`);
}

/** The members of a plain tar (a HAR): name → bytes. */
function tarMembers(buf: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (let at = 0; at + 512 <= buf.length;) {
    const name = buf.toString('utf8', at, at + 100).replace(/\0.*$/s, '');
    if (!name) break;
    const size = parseInt(
      buf
        .toString('ascii', at + 124, at + 136)
        .replace(/\0.*$/s, '')
        .trim(),
      8,
    );
    out.set(name, buf.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

const harWith = (members: Map<string, Buffer>) => Buffer.concat([...[...members].map(([n, b]) => tarMember(n, b)), TAR_END]);

// ---- A3-1: class indices from Ultralytics' forms (metadata.yaml, ONNX metadata_props) --------------

test("labels by class index in the Ultralytics forms (metadata.yaml block and flow, an ONNX's metadata_props) are bounded before allocation: check and recipe say one sentence in a 256 MB heap", () => {
  const l = lab();
  try {
    const hefDir = (name: string) => {
      mkdirSync(join(l.ws, name));
      for (const f of ['custom.hef', 'custom_nms_config.json', 'custom.alls']) copyFileSync(join(NMS, f), join(l.ws, name, f));
      return join(l.ws, name);
    };
    writeFileSync(join(hefDir('block'), 'metadata.yaml'), 'names:\n  150000000: a\n'); // 22 bytes
    writeFileSync(join(hefDir('flow'), 'metadata.yaml'), "names: {150000000: 'a'}\n");
    const md = ultralyticsMetadata('Ultralytics YOLOv8n', ['a']);
    md.names = "{150000000: 'a'}";
    const onnx = ultralyticsDetector({ kind: 'yolov8', classes: 1, metadata: md });
    writeFileSync(join(hefDir('onnx'), 'custom.onnx'), onnx);
    writeFileSync(join(l.ws, 'yolov8n.onnx'), onnx);
    for (const [dir, target] of [
      ['block', 'custom.hef'],
      ['block', 'custom.alls'],
      ['flow', 'custom.hef'],
      ['onnx', 'custom.hef'],
      ['onnx', 'custom.alls'],
    ]) {
      const r = cli(join(l.ws, dir), ['check', target]);
      calm(r, `${dir}: check ${target}`);
      assert.ok(r.ms < 20_000, `${dir}: check ${target} took ${r.ms} ms`);
    }
    for (const dir of ['block', 'flow'])
      assert.match(cli(join(l.ws, dir), ['check', 'custom.hef']).err, /metadata\.yaml names class 150,000,000 is over the limit of 65,536 items/);
    const r = cli(l.ws, ['recipe', 'yolov8n.onnx']);
    calm(r, 'recipe yolov8n.onnx');
    assert.match(`${r.out}${r.err}`, /names class 150,000,000 is over the limit of 65,536 items/);
  } finally {
    l.cleanup();
  }
});

// ---- A3-3: the calibration set found beside a HAR, through a link out ------------------------------

test(
  'noise: a calibration set beside the HAR that links outside the folder is not read (no distribution of it printed or saved, nothing mounted)',
  { skip: NEEDS_PYTHON, timeout: 120_000 },
  () => {
    const l = lab();
    const fd = fakeDocker({ scenario: scenario('noise') });
    try {
      copyFileSync(join(MODEL, 'tinycnn_quantized.har'), join(l.ws, 'tinycnn_quantized.har'));
      const priv = l.outside('private_calib.npy', readFileSync(join(MODEL, 'tinycnn_calib.npy')));
      symlinkSync(priv, join(l.ws, 'x_calib.npy'));
      const r = cli(l.ws, ['noise', '--docker', FAKE_DOCKER, 'tinycnn_quantized.har'], { HAILO_FAKE_DOCKER_STATE: fd.dir });
      calm(r, 'noise');
      const shown = `${r.out}${r.err}${existsSync(join(l.ws, 'tinycnn_quantized.noise.json')) ? readFileSync(join(l.ws, 'tinycnn_quantized.noise.json'), 'utf8') : ''}`;
      assert.doesNotMatch(shown, /mean 127\.489|x_calib\.npy, 64 entries/, 'the outside set was read and its distribution shown');
      assert.ok(!fd.calls().some((c) => c.method === 'analyze_noise'), 'the analysis ran on the outside set');
      l.assertOutsideUntouched();
    } finally {
      fd.cleanup();
      l.cleanup();
    }
  },
);

// ---- A3-4: newlines in names a file holds forge output lines ----------------------------------------

const FORGED = 'evil.alls:1:1 error FORGED everything is broken';

test('check DIR: a script whose file name holds a newline cannot forge a line of the report', () => {
  const l = lab();
  try {
    writeFileSync(join(l.ws, `x\n${FORGED}\ny.alls`), 'foo(\n');
    const r = cli(l.ws, ['check', '.']);
    calm(r, 'check .');
    assert.ok(!r.out.split('\n').includes(FORGED) && !r.out.split('\n').some((s) => s.startsWith('evil.alls:')), r.out);
  } finally {
    l.cleanup();
  }
});

test('har: a network or member name holding a newline cannot forge a line of the report', () => {
  const l = lab();
  try {
    const m = tarMembers(readFileSync(join(MODEL, 'tinycnn_quantized.har')));
    const hn = JSON.parse(m.get('tinycnn.hn')!.toString('utf8')) as { name: string };
    hn.name = 'tinycnn\nno layer needs 16 bits FORGED';
    m.set('tinycnn.hn', Buffer.from(JSON.stringify(hn)));
    const npz = m.get('tinycnn.npz')!;
    m.delete('tinycnn.npz');
    m.set('tinycnn\nFORGED member.npz', npz);
    writeFileSync(join(l.ws, 'n.har'), harWith(m));
    const r = cli(l.ws, ['har', 'n.har']);
    calm(r, 'har');
    assert.ok(!r.out.split('\n').some((s) => s.startsWith('no layer needs 16 bits FORGED') || s.startsWith('FORGED member')), r.out);
  } finally {
    l.cleanup();
  }
});

test('sweep: the notes of a finished result in a cloned results folder cannot forge lines of the table', { skip: NEEDS_PYTHON, timeout: 120_000 }, () => {
  const l = lab();
  const fd = fakeDocker();
  try {
    sweepFolder(l.ws, { axes: { optimization_level: [0] }, out: 'r' });
    const env = { HAILO_FAKE_DOCKER_STATE: fd.dir };
    cli(l.ws, ['sweep', '--docker', FAKE_DOCKER, 'p.sweep.json'], env, 110_000);
    const resultPath = join(l.ws, 'r', 'base', 'sweep-result.json');
    const result = JSON.parse(readFileSync(resultPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(resultPath, JSON.stringify({ ...result, notes: ['fine\ndocker contexts FORGED'] }));
    const r = cli(l.ws, ['sweep', '--docker', FAKE_DOCKER, 'p.sweep.json'], env, 110_000);
    calm(r, 'sweep');
    assert.match(r.err + r.out, /reused/);
    assert.ok(!r.out.split('\n').some((s) => s.startsWith('docker contexts FORGED')), r.out);
  } finally {
    fd.cleanup();
    l.cleanup();
  }
});

// ---- nms_postprocess paths: a sibling folder sharing the folder's name as a prefix, /proc, /dev ----

test('check: nms_postprocess paths into a sibling folder named like the folder (ws-evil), /proc/self/environ and /dev/zero are not read; one note each', () => {
  const l = lab();
  try {
    const sibling = join(l.ws, '..', 'ws-evil');
    mkdirSync(sibling);
    writeFileSync(
      join(sibling, 'c.json'),
      readFileSync(join(NMS, 'custom_nms_config.json'), 'utf8').replace('"classes": 80', `"classes": 77, "x": "${SECRET}"`),
    );
    symlinkSync(join(sibling, 'c.json'), join(l.ws, 'linked.json'));
    const paths = ['../ws-evil/c.json', join(sibling, 'c.json'), 'linked.json', '/proc/self/environ', '/dev/zero', '../ws/../ws-evil/c.json'];
    paths.forEach((p, i) => writeFileSync(join(l.ws, `n${i}.alls`), `nms_postprocess("${p}", meta_arch=yolov8, engine=cpu)\n`));
    for (const [i, p] of paths.entries()) {
      const r = cli(l.ws, ['check', `n${i}.alls`], { SECRET_ENV: SECRET });
      calm(r, p);
      assert.ok(r.ms < 20_000, `${p}: ${r.ms} ms`);
      assert.doesNotMatch(r.out + r.err, /\b77\b/, `${p}: the sibling's config was read`);
      assert.match(
        r.err,
        new RegExp(
          `The nms_postprocess path '${p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}' named in n${i}\\.alls was not read: it leads \\(links resolved\\) outside`,
        ),
      );
    }
  } finally {
    rmSync(join(l.ws, '..', 'ws-evil'), { recursive: true, force: true });
    l.cleanup();
  }
});

// ---- sweep plans ---------------------------------------------------------------------------------

function sweepFolder(ws: string, plan: Record<string, unknown>): void {
  for (const f of ['tinycnn_hailo_model.har', 'tinycnn.alls', 'tinycnn_calib.npy']) copyFileSync(join(MODEL, f), join(ws, f));
  const base = {
    model: 'tinycnn_hailo_model.har',
    alls: 'tinycnn.alls',
    calibration: 'tinycnn_calib.npy',
    hwArch: 'hailo10h',
    contexts: [{ name: 'default', width: 1 }],
  };
  writeFileSync(join(ws, 'p.sweep.json'), JSON.stringify({ ...base, ...plan }));
}

test("sweep plan: '..' into a sibling folder named like the plan's (out, calibration, model, alls), an absolute out, and axis values holding '../' stay below the plan's folder", () => {
  const l = lab();
  try {
    const sibling = join(l.ws, '..', 'ws-evil');
    mkdirSync(sibling);
    copyFileSync(join(MODEL, 'tinycnn_calib.npy'), join(sibling, 'c.npy'));
    copyFileSync(join(MODEL, 'tinycnn_hailo_model.har'), join(sibling, 'm.har'));
    copyFileSync(join(MODEL, 'tinycnn.alls'), join(sibling, 's.alls'));
    for (const [field, value, why] of [
      ['out', '../ws-evil/out', /'out' must be a folder below the plan's folder/],
      ['out', join(sibling, 'out'), /'out' must be a folder below the plan's folder/],
      ['calibration', '../ws-evil/c.npy', /'calibration' names .* which is not inside the plan's folder/],
      ['calibration', 'tinycnn_calib.npy/../../ws-evil/c.npy', /'calibration' names .* which is not inside the plan's folder/],
      ['model', '../ws-evil/m.har', /'model' names .* which is not inside the plan's folder/],
      ['alls', join(sibling, 's.alls'), /'alls' names .* which is not inside the plan's folder/],
    ] as const) {
      sweepFolder(l.ws, { [field]: value });
      const r = cli(l.ws, ['sweep', '--dry-run', 'p.sweep.json']);
      calm(r, `${field}=${value}`);
      assert.equal(r.code, 2, `${field}=${value}: ${r.err}`);
      assert.match(r.err, why);
    }
    sweepFolder(l.ws, { axes: { optimization_level: ['../../../ws-evil/pwn', 1] }, out: 'r' });
    const r = cli(l.ws, ['sweep', '--dry-run', '--json', 'p.sweep.json']);
    calm(r, 'axis values with ../');
    const doc = JSON.parse(r.out) as { rows: { files: { folder: string } }[] };
    assert.equal(doc.rows.length, 2);
    for (const row of doc.rows) assert.ok(row.files.folder.startsWith(join(l.ws, 'r') + '/') && !row.files.folder.includes('..'), row.files.folder);
    assert.deepEqual(readdirSync(sibling).sort(), ['c.npy', 'm.har', 's.alls']);
  } finally {
    rmSync(join(l.ws, '..', 'ws-evil'), { recursive: true, force: true });
    l.cleanup();
  }
});

test(
  'sweep: sweep.json, sweep.csv and a variant folder linked outside are never written through; a sweep-result.json linked to an outside result is not read',
  { skip: NEEDS_PYTHON, timeout: 120_000 },
  () => {
    const l = lab();
    const fd = fakeDocker();
    try {
      sweepFolder(l.ws, { axes: { optimization_level: [0] }, out: 'r' });
      mkdirSync(join(l.ws, 'r'));
      symlinkSync(l.outside('v.json', `${SECRET}\n`), join(l.ws, 'r', 'sweep.json'));
      symlinkSync(l.outside('v.csv', `${SECRET}\n`), join(l.ws, 'r', 'sweep.csv'));
      l.outside('vdir/keep', 'x');
      symlinkSync(join(l.home, 'vdir'), join(l.ws, 'r', 'base'));
      const env = { HAILO_FAKE_DOCKER_STATE: fd.dir };
      const first = cli(l.ws, ['sweep', '--docker', FAKE_DOCKER, 'p.sweep.json'], env, 110_000);
      calm(first, 'sweep through linked outputs');
      assert.match(first.out, /is a symbolic link; .* is not written through it/);
      l.assertOutsideUntouched();
      // An outside result with the right key (another project of the user's), linked in as the variant's result.
      rmSync(join(l.ws, 'r', 'base'));
      const second = cli(l.ws, ['sweep', '--docker', FAKE_DOCKER, 'p.sweep.json'], env, 110_000);
      calm(second, 'sweep');
      const result = JSON.parse(readFileSync(join(l.ws, 'r', 'base', 'sweep-result.json'), 'utf8')) as Record<string, unknown>;
      const privateResult = l.outside('result.json', JSON.stringify({ ...result, notes: [SECRET], hefBytes: 777_777 }));
      rmSync(join(l.ws, 'r', 'base', 'sweep-result.json'));
      symlinkSync(privateResult, join(l.ws, 'r', 'base', 'sweep-result.json'));
      const third = cli(l.ws, ['sweep', '--docker', FAKE_DOCKER, 'p.sweep.json'], env, 110_000);
      calm(third, 'sweep with a linked result');
      assert.doesNotMatch(third.out + third.err, /reused|777/);
      assert.ok(!lstatSync(join(l.ws, 'r', 'base', 'sweep-result.json')).isSymbolicLink());
      l.assertOutsideUntouched();
    } finally {
      fd.cleanup();
      l.cleanup();
    }
  },
);

// ---- compile, noise, bisect outputs ------------------------------------------------------------------

test(
  'compile: <net>.hef, <net>.har and <net>_optimized.har linked outside, and a .hef or .dfc.log hard-linked to an outside file, are never written through',
  { skip: NEEDS_PYTHON, timeout: 120_000 },
  () => {
    const l = lab();
    const fd = fakeDocker();
    try {
      for (const f of ['tinycnn.onnx', 'tinycnn.alls', 'tinycnn_calib.npy']) copyFileSync(join(MODEL, f), join(l.ws, f));
      for (const [name, victim] of [
        ['tinycnn.hef', 'v.hef'],
        ['tinycnn.har', 'v.har'],
        ['tinycnn_optimized.har', 'v_opt.har'],
      ])
        symlinkSync(l.outside(victim, `${SECRET}\n`), join(l.ws, name));
      const args = ['compile', '--docker', FAKE_DOCKER, '--alls', 'tinycnn.alls', '--calib', 'tinycnn_calib.npy', 'tinycnn.onnx'];
      const env = { HAILO_FAKE_DOCKER_STATE: fd.dir };
      const r = cli(l.ws, args, env, 110_000);
      calm(r, 'compile through links');
      assert.equal(r.code, 0, r.err);
      for (const f of ['tinycnn.hef', 'tinycnn.har', 'tinycnn_optimized.har']) assert.ok(!lstatSync(join(l.ws, f)).isSymbolicLink(), `${f} replaced`);
      l.assertOutsideUntouched();
      rmSync(join(l.ws, 'tinycnn.hef'));
      rmSync(join(l.ws, 'tinycnn.dfc.log'));
      linkSync(l.outside('hard.hef', `${SECRET}\n`), join(l.ws, 'tinycnn.hef'));
      linkSync(l.outside('hard.log', `${SECRET}\n`), join(l.ws, 'tinycnn.dfc.log'));
      const h = cli(l.ws, args, env, 110_000);
      calm(h, 'compile through hard links');
      l.assertOutsideUntouched();
    } finally {
      fd.cleanup();
      l.cleanup();
    }
  },
);

test(
  "noise: <har>.noise.json linked outside is replaced, never written through; a HAR whose network is named '../../home/pwn' writes nothing outside",
  { skip: NEEDS_PYTHON, timeout: 120_000 },
  () => {
    const l = lab();
    const fd = fakeDocker({ scenario: scenario('noise') });
    try {
      const m = tarMembers(readFileSync(join(MODEL, 'tinycnn_quantized.har')));
      const hn = JSON.parse(m.get('tinycnn.hn')!.toString('utf8')) as { name: string };
      hn.name = '../../home/pwn';
      m.set('tinycnn.hn', Buffer.from(JSON.stringify(hn)));
      writeFileSync(join(l.ws, 'net.har'), harWith(m));
      copyFileSync(join(MODEL, 'tinycnn_calib.npy'), join(l.ws, 'tinycnn_calib.npy'));
      symlinkSync(l.outside('v.noise.json', `${SECRET}\n`), join(l.ws, 'net.noise.json'));
      const r = cli(l.ws, ['noise', '--save-har', '--docker', FAKE_DOCKER, 'net.har'], { HAILO_FAKE_DOCKER_STATE: fd.dir }, 110_000);
      calm(r, 'noise');
      assert.ok(!lstatSync(join(l.ws, 'net.noise.json')).isSymbolicLink());
      assert.ok(existsSync(join(l.ws, 'net_noise.har')));
      l.assertOutsideUntouched();
    } finally {
      fd.cleanup();
      l.cleanup();
    }
  },
);

test('bisect: MODEL.onnx.bisect.json linked to an outside file or a FIFO is neither read nor written through', { skip: NEEDS_PYTHON, timeout: 120_000 }, () => {
  const l = lab();
  const fd = fakeDocker({ scenario: scenario('bisect-parses') });
  try {
    copyFileSync(join(MODEL, 'tinycnn.onnx'), join(l.ws, 'tinycnn.onnx'));
    symlinkSync(l.outside('v.json', `{"version":1,"note":"${SECRET}"}`), join(l.ws, 'tinycnn.onnx.bisect.json'));
    const env = { HAILO_FAKE_DOCKER_STATE: fd.dir };
    const r = cli(l.ws, ['bisect', '--docker', FAKE_DOCKER, 'tinycnn.onnx'], env, 110_000);
    calm(r, 'bisect with a linked cache');
    assert.ok(!lstatSync(join(l.ws, 'tinycnn.onnx.bisect.json')).isSymbolicLink());
    l.assertOutsideUntouched();
    rmSync(join(l.ws, 'tinycnn.onnx.bisect.json'));
    if (makeFifo(join(l.ws, 'tinycnn.onnx.bisect.json'))) {
      try {
        const f = cli(l.ws, ['bisect', '--docker', FAKE_DOCKER, 'tinycnn.onnx'], env, 30_000);
        calm(f, 'bisect with a FIFO cache');
      } finally {
        releaseFifo(join(l.ws, 'tinycnn.onnx.bisect.json'));
      }
    }
  } finally {
    fd.cleanup();
    l.cleanup();
  }
});

// ---- ONNX external data ------------------------------------------------------------------------------

test(
  "ONNX external data whose location leads out ('..', absolute, a link): `onnx` names it unread, onnxruntime (accuracy) loads nothing, and a remote compile's docker cp carries no outside byte",
  { timeout: 120_000 },
  () => {
    const l = lab();
    const fd = fakeDocker({ contexts: { default: 'unix:///var/run/docker.sock', remote: 'ssh://user@gpu-box' } });
    try {
      const src = readFileSync(join(MODEL, 'tinycnn.onnx'));
      const weights = withExternalData(src, 'x').data;
      const priv = l.outside('weights.bin', weights);
      for (const [dir, location] of [
        ['dots', '../../home/weights.bin'],
        ['abs', priv],
        ['link', 'link.bin'],
      ]) {
        mkdirSync(join(l.ws, dir));
        writeFileSync(join(l.ws, dir, 'm.onnx'), withExternalData(src, location).model);
        copyFileSync(join(MODEL, 'tinycnn_quantized.har'), join(l.ws, dir, 'm.har'));
        if (dir === 'link') symlinkSync(priv, join(l.ws, dir, 'link.bin'));
        const o = cli(join(l.ws, dir), ['onnx', 'm.onnx']);
        calm(o, `${dir}: onnx`);
        assert.match(o.out, /onnx\/external-data-outside/);
        assert.match(o.out, /(leaves|links outside) the model's folder; not read/);
        const a = cli(join(l.ws, dir), ['accuracy', '--contexts', 'none', '--onnx', 'm.onnx', '--har', 'm.har', '--count', '1'], {}, 110_000);
        calm(a, `${dir}: accuracy`);
        assert.match(a.out, /float ONNX \(onnxruntime\)\s+reference\s+CRASHED: onnxruntime could not run the model: External data path/);
        if (!NEEDS_PYTHON) {
          // a docker wrapper that keeps what `docker cp -` receives
          const wrap = join(l.ws, '..', 'dockwrap.sh');
          const tars = join(l.ws, '..', 'tars');
          mkdirSync(tars, { recursive: true });
          writeFileSync(
            wrap,
            `#!/bin/sh\nfor a in "$@"; do if [ "$a" = "-" ]; then tee "${tars}/$$.tar" | "${FAKE_DOCKER}" "$@"; exit $?; fi; done\nexec "${FAKE_DOCKER}" "$@"\n`,
            { mode: 0o755 },
          );
          const c = cli(join(l.ws, dir), ['compile', '--docker', wrap, '--context', 'remote', 'm.onnx'], { HAILO_FAKE_DOCKER_STATE: fd.dir }, 110_000);
          calm(c, `${dir}: compile --context remote`);
          const sent = readdirSync(tars).map((t) => readFileSync(join(tars, t)));
          assert.ok(sent.length > 0, 'docker cp - received a tar');
          assert.ok(!sent.some((b) => b.includes(Buffer.from(weights.subarray(0, 64)))), `${dir}: the outside weights were sent to the remote docker`);
          rmSync(tars, { recursive: true, force: true });
        }
      }
      l.assertOutsideUntouched();
    } finally {
      fd.cleanup();
      l.cleanup();
    }
  },
);

// ---- the doctor's --root --------------------------------------------------------------------------

test("doctor --root R: relative links climbing out of R (module version, dpkg status), ld.so.conf includes of '../' and of themselves: nothing outside read, it finishes", () => {
  const l = lab();
  try {
    const R = join(l.ws, 'R');
    const secret = l.outside('secret.txt', `4.99.0-${SECRET}\nPackage: hailort\nStatus: install ok installed\nVersion: ${SECRET}\n`);
    l.outside('lib/libhailort.so.4.77.0', SECRET);
    for (const d of ['sys/module/hailo_pci', 'etc/ld.so.conf.d', 'var/lib/dpkg', 'usr/lib']) mkdirSync(join(R, d), { recursive: true });
    symlinkSync('../../../../../home/secret.txt', join(R, 'sys', 'module', 'hailo_pci', 'version'));
    symlinkSync('../../../../../home/secret.txt', join(R, 'var', 'lib', 'dpkg', 'status'));
    writeFileSync(join(R, 'etc', 'ld.so.conf'), `include /etc/ld.so.conf.d/*.conf\ninclude ../../../home/*\n${join(l.home, 'lib')}\n../../../home/lib\n`);
    writeFileSync(join(R, 'etc', 'ld.so.conf.d', 'a.conf'), 'include /etc/ld.so.conf\ninclude /etc/ld.so.conf.d/a.conf\n');
    assert.ok(readFileSync(join(R, 'sys', 'module', 'hailo_pci', 'version'), 'utf8').includes(SECRET), 'the link does lead to the secret on the host');
    const r = cli(l.ws, ['doctor', '--no-device', '--root', 'R', '--json', 'R']);
    calm(r, 'doctor');
    assert.ok(r.ms < 20_000, `${r.ms} ms`);
    assert.doesNotMatch(r.out, /4\.99\.0|4\.77\.0/, 'a version from outside R shows');
    assert.ok(existsSync(secret));
    l.assertOutsideUntouched();
  } finally {
    l.cleanup();
  }
});

// ---- labels beside a HEF: indices, YAML aliases, depth, FIFOs --------------------------------------

test('labels beside a HEF: indices 1e8, -1, 2^32-1, 2^53+1, a YAML alias bomb and JSON 10⁶ deep each say one sentence at once in a 256 MB heap', () => {
  const l = lab();
  try {
    const cases: [string, string][] = [
      ['labels.json', '{"1e8": "a"}'],
      ['labels.json', '{"-1": "a"}'],
      ['labels.json', '{"4294967295": "a"}'],
      ['labels.json', '{"9007199254740993": "a"}'],
      ['labels.json', '{"labels": ["a"], "150000000": "b"}'],
      ['labels.json', '['.repeat(1_000_000) + ']'.repeat(1_000_000)],
      ['labels.txt', 'a\n'.repeat(2_000_000)],
      [
        'metadata.yaml',
        'a0: &a0 [x,x,x,x,x,x,x,x,x,x]\n' +
          Array.from({ length: 11 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(',')}]`).join('\n') +
          '\nnames: *a11\n',
      ],
    ];
    for (const [i, [name, text]] of cases.entries()) {
      const dir = join(l.ws, `d${i}`);
      mkdirSync(dir);
      for (const f of ['custom.hef', 'custom_nms_config.json']) copyFileSync(join(NMS, f), join(dir, f));
      writeFileSync(join(dir, name), text);
      const r = cli(dir, ['check', 'custom.hef']);
      calm(r, `${name} ${text.slice(0, 40)}`);
      assert.ok(r.ms < 20_000, `${text.slice(0, 40)}: ${r.ms} ms`);
    }
  } finally {
    l.cleanup();
  }
});

test('FIFOs where a sidecar, labels file, NMS config or hailo-config.json is looked for: one sentence at once, never a hang', (t) => {
  const l = lab();
  const fifos: string[] = [];
  try {
    for (const f of ['custom.hef', 'custom.alls']) copyFileSync(join(NMS, f), join(l.ws, f));
    copyFileSync(join(MODEL, 'tinycnn_quantized.har'), join(l.ws, 'tinycnn_quantized.har'));
    copyFileSync(join(MODEL, 'tinycnn.onnx'), join(l.ws, 'tinycnn.onnx'));
    for (const f of ['tinycnn_quantized.noise.json', 'tinycnn_quantized.diverge.json', 'labels.json', 'custom_nms_config.json', 'hailo-config.json']) {
      if (!makeFifo(join(l.ws, f))) return t.skip('no FIFOs on this platform');
      fifos.push(join(l.ws, f));
    }
    for (const args of [
      ['har', 'tinycnn_quantized.har'],
      ['check', 'custom.hef'],
      ['check', 'custom.alls'],
      ['check', '.'],
      ['compile', '--docker', '/nonexistent/docker', 'tinycnn.onnx'],
    ]) {
      const r = cli(l.ws, args, {}, 20_000);
      calm(r, args.join(' '));
      assert.match(r.out + r.err, /FIFO \(named pipe\), not a regular file; not read|is not a file/, args.join(' '));
    }
  } finally {
    for (const f of fifos) releaseFifo(f);
    l.cleanup();
  }
});

test('JSON nested 10⁶ deep as a HAR member other than the HN (metadata.json): one sentence, no stack overflow', () => {
  const l = lab();
  try {
    const m = tarMembers(readFileSync(join(MODEL, 'tinycnn_quantized.har')));
    m.set('tinycnn.metadata.json', Buffer.from('['.repeat(1_000_000) + ']'.repeat(1_000_000)));
    writeFileSync(join(l.ws, 'meta.har'), harWith(m));
    const r = cli(l.ws, ['har', 'meta.har']);
    calm(r, 'har');
    assert.match(r.err, /member tinycnn\.metadata\.json has more than 64 levels/);
  } finally {
    l.cleanup();
  }
});

test('check DIR: 1,900 folders deep (a path of 3,800 characters) is walked to a bound, one note, at once', () => {
  const l = lab();
  try {
    let p = l.ws;
    for (let i = 0; i < 1900; i++) {
      p = join(p, 'd');
      mkdirSync(p);
    }
    writeFileSync(join(p, 'x.alls'), 'foo(\n');
    const r = cli(l.ws, ['check', '.']);
    calm(r, 'check .');
    assert.ok(r.ms < 20_000, `${r.ms} ms`);
    assert.match(r.err, /more than 64 folders deep; not walked/);
  } finally {
    spawnSync('rm', ['-rf', join(l.ws, 'd')]); // node's rmSync recurses once per level
    l.cleanup();
  }
});

// ---- A3-5: the float reference of Run on Device, found beside the HEF through links out ------------

test("Run on Device's float reference (@hailo/api findModelFiles, as the extension calls it): an ONNX and a script beside the HEF that link outside are not used", async () => {
  // The extension's entry (client/src/device/floatReference.ts) needs a device; this is the API it calls.
  const l = lab();
  try {
    copyFileSync(join(NMS, 'custom.hef'), join(l.ws, 'm.hef'));
    symlinkSync(l.outside('private.onnx', readFileSync(join(MODEL, 'tinycnn.onnx'))), join(l.ws, 'x.onnx'));
    symlinkSync(l.outside('private.alls', 'normalization1 = normalization([11.5, 22.5, 33.5], [44.5, 55.5, 66.5])\n'), join(l.ws, 'y.alls'));
    const files = await findModelFiles(join(l.ws, 'm.hef'));
    assert.equal(files.onnx, undefined, 'the ONNX linked from outside is taken as the float reference');
    assert.equal(files.alls, undefined, 'the script linked from outside is read for its normalization');
    assert.throws(() => readReferenceModel(files), /no ONNX model/);
    // inside the folder, the same files are found
    rmSync(join(l.ws, 'x.onnx'));
    rmSync(join(l.ws, 'y.alls'));
    copyFileSync(join(MODEL, 'tinycnn.onnx'), join(l.ws, 'x.onnx'));
    writeFileSync(join(l.ws, 'y.alls'), 'normalization1 = normalization([1.0, 2.0, 3.0], [4.0, 5.0, 6.0])\n');
    const inside = await findModelFiles(join(l.ws, 'm.hef'));
    assert.equal(inside.onnx?.path, join(l.ws, 'x.onnx'));
    assert.deepEqual(readReferenceModel(inside).normalizations[0].mean, [1, 2, 3]);
    l.assertOutsideUntouched();
  } finally {
    l.cleanup();
  }
});

// ---- diverge --save, a sweep's out with a link at each component ------------------------------------

test('diverge --save: <har>.diverge.json linked outside is replaced, never written through', { skip: NEEDS_PYTHON, timeout: 120_000 }, () => {
  const l = lab();
  const fd = fakeDocker();
  try {
    for (const f of ['tinycnn.onnx', 'tinycnn_quantized.har', 'tinycnn_calib.npy', 'tinycnn.alls']) copyFileSync(join(MODEL, f), join(l.ws, f));
    // the emulator's conv1 output (zeros): enough for a comparison to finish and be saved
    const npy = Buffer.concat([npyHeader('<f4', [1, 32, 32, 8]), Buffer.alloc(32 * 32 * 8 * 4)]);
    writeFileSync(join(l.ws, '..', 'conv1.npy'), npy);
    writeFileSync(join(l.ws, '..', 'scenario.json'), JSON.stringify({ interlayer: { SDK_QUANTIZED: { conv1: join(l.ws, '..', 'conv1.npy') } } }));
    fd.configure({ scenario: join(l.ws, '..', 'scenario.json') });
    symlinkSync(l.outside('v.diverge.json', `${SECRET}\n`), join(l.ws, 'tinycnn_quantized.diverge.json'));
    const args = [
      'diverge',
      '--docker',
      FAKE_DOCKER,
      '--onnx',
      'tinycnn.onnx',
      '--har',
      'tinycnn_quantized.har',
      '--inputs',
      'tinycnn_calib.npy',
      '--alls',
      'tinycnn.alls',
      '--save',
    ];
    const r = cli(l.ws, args, { HAILO_FAKE_DOCKER_STATE: fd.dir }, 110_000);
    calm(r, 'diverge --save');
    assert.match(r.out, /Saved .*tinycnn_quantized\.diverge\.json/);
    assert.ok(!lstatSync(join(l.ws, 'tinycnn_quantized.diverge.json')).isSymbolicLink());
    l.assertOutsideUntouched();
  } finally {
    fd.cleanup();
    l.cleanup();
  }
});

/** A version-1 .npy header for `shape`, padded to 64 bytes as numpy writes it. */
function npyHeader(descr: string, shape: number[]): Buffer {
  let h = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  h += ' '.repeat(64 - ((10 + h.length + 1) % 64)) + '\n';
  const b = Buffer.alloc(10);
  b.write('\x93NUMPY', 0, 'latin1');
  b[6] = 1;
  b[7] = 0;
  b.writeUInt16LE(h.length, 8);
  return Buffer.concat([b, Buffer.from(h, 'latin1')]);
}

test(
  'sweep: a plan\'s "out": "a/b/c" with a link out at any one component writes nothing outside; one sentence naming the link',
  { skip: NEEDS_PYTHON, timeout: 120_000 },
  () => {
    for (const k of [0, 1, 2]) {
      const l = lab();
      const fd = fakeDocker();
      try {
        sweepFolder(l.ws, { axes: { optimization_level: [0] }, out: 'a/b/c' });
        mkdirSync(join(l.home, 'x', 'b', 'c'), { recursive: true });
        const parts = ['a', 'b', 'c'];
        if (k > 0) mkdirSync(join(l.ws, ...parts.slice(0, k)), { recursive: true });
        symlinkSync(join(l.home, 'x', ...parts.slice(1, k + 1)), join(l.ws, ...parts.slice(0, k + 1)));
        const r = cli(l.ws, ['sweep', '--docker', FAKE_DOCKER, 'p.sweep.json'], { HAILO_FAKE_DOCKER_STATE: fd.dir }, 110_000);
        calm(r, `link at ${parts[k]}`);
        assert.match(r.err, new RegExp(`'out' cannot hold the results: '${join(l.ws, ...parts.slice(0, k + 1))}' is a symbolic link`));
        l.assertOutsideUntouched();
        assert.deepEqual(readdirSync(join(l.home, 'x', 'b', 'c')), []);
      } finally {
        fd.cleanup();
        l.cleanup();
      }
    }
  },
);

// ---- A3-6: the extension's finders beside a HAR or a calibration set, through links out -----------

/** Loads a client module with a stand-in `vscode` (the finders below touch none of it). */
async function withFakeVscode<T>(load: () => Promise<T>): Promise<T> {
  const mod = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const original = mod._load;
  mod._load = function (request: string, ...rest: unknown[]) {
    if (request === 'vscode')
      return fakeVscode([], ['window', 'workspace', 'commands', 'Uri', 'ViewColumn', 'Range', 'WorkspaceEdit', 'EventEmitter', 'Disposable']);
    return original.call(this, request, ...rest);
  };
  try {
    return await load();
  } finally {
    mod._load = original;
  }
}

test("HAR view's Write 16-bit Line and the calibration inspector: a model script beside the HAR or set that links outside is not a target (it would be edited and saved through the link)", async () => {
  const { scriptsBeside } = await withFakeVscode(() => import('../../../client/src/har/beside'));
  const { scriptBeside } = await withFakeVscode(() => import('../../../client/src/calib/calibEditor'));
  const l = lab();
  try {
    copyFileSync(join(MODEL, 'tinycnn_quantized.har'), join(l.ws, 'tinycnn_quantized.har'));
    copyFileSync(join(MODEL, 'tinycnn_calib.npy'), join(l.ws, 'tinycnn_calib.npy'));
    symlinkSync(l.outside('other-project/tinycnn.alls', 'normalization1 = normalization([1.0, 2.0, 3.0], [4.0, 5.0, 6.0])\n'), join(l.ws, 'tinycnn.alls'));
    assert.deepEqual(scriptsBeside(join(l.ws, 'tinycnn_quantized.har')), [], 'the linked script is offered for the 16-bit line');
    assert.equal(scriptBeside(join(l.ws, 'tinycnn_calib.npy')), undefined, 'the linked script is read for the set');
    rmSync(join(l.ws, 'tinycnn.alls'));
    copyFileSync(join(MODEL, 'tinycnn.alls'), join(l.ws, 'tinycnn.alls'));
    assert.deepEqual(scriptsBeside(join(l.ws, 'tinycnn_quantized.har')), [join(l.ws, 'tinycnn.alls')]);
    assert.equal(scriptBeside(join(l.ws, 'tinycnn_calib.npy')), join(l.ws, 'tinycnn.alls'));
  } finally {
    l.cleanup();
  }
});

// ---- A3-7: a finished result in a cloned results folder naming files outside its folder ------------

test(
  'sweep: a cloned finished result whose files (HEF, log, script, optimized HAR) lie outside its folder is not reused — the sweep view would open them on a click',
  { skip: NEEDS_PYTHON, timeout: 120_000 },
  () => {
    const l = lab();
    const fd = fakeDocker();
    try {
      sweepFolder(l.ws, { axes: { optimization_level: [0] }, out: 'r' });
      const env = { HAILO_FAKE_DOCKER_STATE: fd.dir };
      const first = cli(l.ws, ['sweep', '--docker', FAKE_DOCKER, 'p.sweep.json'], env, 110_000);
      calm(first, 'first sweep');
      const resultPath = join(l.ws, 'r', 'base', 'sweep-result.json');
      const result = JSON.parse(readFileSync(resultPath, 'utf8')) as { files: Record<string, string | null> };
      const key = l.outside('.ssh/id_ed25519', `${SECRET}\n`);
      const hef = l.outside('private/model.hef', readFileSync(join(NMS, 'custom.hef')));
      writeFileSync(
        resultPath,
        JSON.stringify({ ...result, files: { ...result.files, log: key, alls: key, hef, optimizedHar: join(l.home, 'private', 'm.har') } }),
      );
      const r = cli(l.ws, ['sweep', '--json', '--docker', FAKE_DOCKER, 'p.sweep.json'], env, 110_000);
      calm(r, 'sweep');
      const doc = JSON.parse(r.out) as { rows: { state: string; files: Record<string, string | null> }[] };
      for (const f of Object.values(doc.rows[0].files)) assert.ok(f === null || f.startsWith(join(l.ws, 'r', 'base')), `the row names ${f}`);
      l.assertOutsideUntouched();
    } finally {
      fd.cleanup();
      l.cleanup();
    }
  },
);

// ---- HEFs found in a folder (doctor FOLDER, genai DIR) through links out ----------------------------

test('doctor FOLDER and genai DIR: a HEF, a folder and a hailo-config.json linked out of the folder are not read; nothing of them shows', () => {
  const l = lab();
  try {
    const priv = l.outside('private/private-model.hef', readFileSync(join(NMS, 'custom.hef')));
    symlinkSync(priv, join(l.ws, 'a.hef'));
    symlinkSync(join(l.home, 'private'), join(l.ws, 'dirlink'));
    copyFileSync(join(repoRoot, 'examples', 'qwen3vl-vision-encoder-no-config.hef'), join(l.ws, 'v.hef'));
    symlinkSync(l.outside('gq.json', `{"encoder_output_layers_names_suffixes":["${SECRET}"],"patch_size":14}`), join(l.ws, 'hailo-config.json'));
    mkdirSync(join(l.ws, 'R'));
    const d = cli(l.ws, ['doctor', '--no-device', '--root', 'R', '.']);
    calm(d, 'doctor .');
    assert.doesNotMatch(d.out, /HAILO8P|private-model|dirlink/, d.out);
    const g = cli(l.ws, ['genai', '--json', '--ollama', 'http://127.0.0.1:9', '.']);
    calm(g, 'genai .');
    assert.doesNotMatch(g.out, /private-model|dirlink|a\.hef/, g.out);
    l.assertOutsideUntouched();
  } finally {
    l.cleanup();
  }
});
