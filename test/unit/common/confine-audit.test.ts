// Issue 29, the audit's classes: a folder someone else made, with links at the places the product
// reads or writes, must make it read, write or reveal nothing outside the folder. Each case builds
// the folder in a temporary directory beside a `home/` standing for everything outside it, runs the
// product's own entry point (the CLI, the sweep, the doctor's probe, the HAR view), and checks that
// the outside files are byte-for-byte and mtime-for-mtime unchanged and that no outside byte shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../server/src/cli/main';
import { PlanError, readPlan } from '../../../server/src/core/sweep/plan';
import { runSweep, type SweepEnv } from '../../../server/src/processes/sweep/run';
import { trustedLauncher } from '../../../server/src/processes/compile/launcher';
import { commandLineTrust } from '../../../server/src/core/common/trust';
import { probeSystem } from '../../../server/src/core/doctor/probe';
import { readHarView, harViewText } from '../../../server/src/core/har/harView';
import { DRIVER_DIR, FAKE_DOCKER, fakeDocker, NEEDS_PYTHON } from '../../fakes/fakeDocker';
import { repoRoot } from '../../helpers/shared';
import { captureIO } from '../../fakes/cliIO';
import { outsideLab, type OutsideLab } from '../../helpers/outsideLab';

const MODEL = join(repoRoot, 'examples', 'model');
const NMS = join(repoRoot, 'test', 'fixtures', 'nms', 'custom');
const SECRET = 'PRIVATE-7f3a9c-DO-NOT-SHOW';

const layout = (): OutsideLab => outsideLab('hailo-confine-');

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIO();
  const code = await main(args, io);
  return { code, out: io.outText, err: io.errText };
}

function sweepWorkspace(ws: string, plan: Record<string, unknown>): string {
  for (const f of ['tinycnn_hailo_model.har', 'tinycnn.alls', 'tinycnn_calib.npy']) copyFileSync(join(MODEL, f), join(ws, f));
  const planPath = join(ws, 'tiny.sweep.json');
  writeFileSync(planPath, JSON.stringify({ model: 'tinycnn_hailo_model.har', alls: 'tinycnn.alls', hwArch: 'hailo10h', ...plan }, null, 1));
  return planPath;
}

test('sweep plan: a calibration path outside the plan folder is refused before anything is mounted', () => {
  const l = layout();
  try {
    const calib = l.outside('calib/set.npy', SECRET);
    const planPath = sweepWorkspace(l.ws, { calibration: calib });
    assert.throws(
      () => readPlan(planPath),
      (e: Error) => e instanceof PlanError && /'calibration' names .* not inside the plan's folder/.test(e.message),
    );
    // The same through a link inside the folder.
    symlinkSync(join(l.home, 'calib'), join(l.ws, 'calib'));
    const linked = sweepWorkspace(l.ws, { calibration: 'calib/set.npy' });
    assert.throws(
      () => readPlan(linked),
      (e: Error) => e instanceof PlanError && /not inside the plan's folder/.test(e.message) && !e.message.includes(SECRET),
    );
  } finally {
    l.cleanup();
  }
});

test("sweep plan: 'out' through a link out of the folder is refused (results -> ../elsewhere)", () => {
  const l = layout();
  try {
    mkdirSync(join(l.home, 'elsewhere'));
    symlinkSync(join(l.home, 'elsewhere'), join(l.ws, 'results'));
    const planPath = sweepWorkspace(l.ws, { out: 'results' });
    assert.throws(
      () => readPlan(planPath),
      (e: Error) => e instanceof PlanError && /'out' cannot hold the results: .*results' is a symbolic link/.test(e.message),
    );
    // A link leading back inside is refused too: a write never follows a link.
    rmSync(join(l.ws, 'results'));
    mkdirSync(join(l.ws, 'real'));
    symlinkSync(join(l.ws, 'real'), join(l.ws, 'results'));
    assert.throws(() => readPlan(planPath), /is a symbolic link/);
  } finally {
    l.cleanup();
  }
});

test('sweep: a derived script linked to a file outside is replaced, never written through', { skip: NEEDS_PYTHON, timeout: 120_000 }, async () => {
  const l = layout();
  const fd = fakeDocker();
  process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
  try {
    const victim = l.outside('victim.alls', `${SECRET}\n`);
    const planPath = sweepWorkspace(l.ws, { axes: { optimization_level: [0] }, out: 'results' });
    const plan = readPlan(planPath);
    const env: SweepEnv = { launch: trustedLauncher(commandLineTrust('confine tests')), driverDir: DRIVER_DIR, dockerPath: FAKE_DOCKER, extraRunArgs: [] };
    const dry = await runSweep(plan, { ...env, dryRun: true });
    assert.ok(dry.rows[0].files.folder, 'the variant has a folder');
    const script = join(dry.rows[0].files.folder, 'tinycnn_hailo_model.alls'); // run.ts: <folder>/<net>.alls
    mkdirSync(join(script, '..'), { recursive: true });
    symlinkSync(victim, script);
    const doc = await runSweep(plan, env);
    l.assertOutsideUntouched();
    assert.ok(!lstatSync(script).isSymbolicLink(), 'the link was replaced by the derived script');
    assert.match(readFileSync(script, 'utf8'), /optimization_level/);
    assert.ok(!JSON.stringify(doc).includes(SECRET));
  } finally {
    fd.cleanup();
    l.cleanup();
  }
});

test('check m.hef: labels and an NMS config beside the HEF that link outside are not read, and nothing of them shows', async () => {
  const l = layout();
  try {
    copyFileSync(join(NMS, 'custom.hef'), join(l.ws, 'm.hef'));
    // 987654 classes in the outside config, three secret names in the outside labels.
    const cfg = JSON.parse(readFileSync(join(NMS, 'custom_nms_config.json'), 'utf8')) as Record<string, unknown>;
    symlinkSync(l.outside('cfg.json', JSON.stringify({ ...cfg, classes: 987654 })), join(l.ws, 'm_nms_config.json'));
    symlinkSync(l.outside('labels.json', JSON.stringify({ labels: [`${SECRET}-a`, `${SECRET}-b`, `${SECRET}-c`] })), join(l.ws, 'labels.json'));
    const r = await cli('check', '--json', join(l.ws, 'm.hef'));
    const all = r.out + r.err;
    assert.ok(!all.includes(SECRET), all);
    assert.ok(!all.includes('987654'), all);
    assert.doesNotMatch(all, /nms\/labels-count|nms\/classes|nms\/hef-differs/);
    // a link out of the folder is not among the files found beside the HEF (FileRoots.list): not found, so not read
    assert.doesNotMatch(all, /labels\.json|m_nms_config/);
    l.assertOutsideUntouched();
  } finally {
    l.cleanup();
  }
});

test('har: a noise or diverge sidecar linked to a private file — a refusal, no byte of it (CLI and the HAR view)', async () => {
  const l = layout();
  try {
    copyFileSync(join(MODEL, 'tinycnn_quantized.har'), join(l.ws, 'm.har'));
    symlinkSync(l.outside('id_rsa', `{${SECRET}`), join(l.ws, 'm.noise.json'));
    symlinkSync(l.outside('token', `[${SECRET}`), join(l.ws, 'm.diverge.json'));
    const r = await cli('har', join(l.ws, 'm.har'));
    const all = r.out + r.err;
    assert.ok(!all.includes(SECRET), all);
    assert.ok(!all.includes('PRIVATE'), all);
    assert.match(all, /m\.noise\.json' leads outside the folder/);
    const view = await readHarView(join(l.ws, 'm.har'));
    const text = JSON.stringify(view) + harViewText(view);
    assert.ok(!text.includes(SECRET) && !text.includes('PRIVATE'), 'the view shows no byte of the linked file');
    assert.ok(view.notes.some((n) => /m\.diverge\.json' leads outside/.test(n)));
    l.assertOutsideUntouched();
  } finally {
    l.cleanup();
  }
});

test('har: a malformed sidecar we do read is reported by position, quoting none of its bytes', async () => {
  const l = layout();
  try {
    copyFileSync(join(MODEL, 'tinycnn_quantized.har'), join(l.ws, 'm.har'));
    writeFileSync(join(l.ws, 'm.noise.json'), `{"format": ${SECRET}}`);
    const view = await readHarView(join(l.ws, 'm.har'));
    const note = view.notes.find((n) => n.includes('m.noise.json'));
    // The bad value starts at column 12 of `{"format": …}`: the place, never the bytes (common/json.ts).
    assert.match(note ?? '', /is not valid JSON \(line 1, column 12\)$/);
    assert.ok(!JSON.stringify(view).includes(SECRET.slice(0, 7)));
  } finally {
    l.cleanup();
  }
});

test("Check Setup: a workspace venv's hailo_platform linked out of the folder is not read", () => {
  const l = layout();
  try {
    // venv/lib/python3.11 -> a folder outside holding site-packages/hailo_platform (a link above the package).
    mkdirSync(join(l.ws, 'venv', 'lib'), { recursive: true });
    l.outside('py/site-packages/hailo_platform/__init__.py', '__version__ = "9.8.7"\n');
    symlinkSync(join(l.home, 'py'), join(l.ws, 'venv', 'lib', 'python3.11'));
    // Inside the folder, the same layout is read: the probe works, only the link out is refused.
    const site2 = join(l.ws, 'venv2', 'lib', 'python3.11', 'site-packages', 'hailo_platform');
    mkdirSync(site2, { recursive: true });
    writeFileSync(join(site2, '__init__.py'), '__version__ = "4.23.0"\n');
    const sys = probeSystem(join(l.ws, 'no-system'), l.ws);
    const versions = sys.wheels.map((w) => w.version);
    assert.ok(versions.includes('4.23.0'), `the venv inside is read: ${versions.join(', ')}`);
    assert.ok(!versions.includes('9.8.7'), 'the linked-out package is not');
  } finally {
    l.cleanup();
  }
});

test('doctor --root R: absolute links inside R resolve against R, never the host', () => {
  const l = layout();
  try {
    const R = join(l.ws, 'sysroot');
    mkdirSync(join(R, 'sys', 'module', 'hailo_pci'), { recursive: true });
    mkdirSync(join(R, 'var', 'lib', 'dpkg'), { recursive: true });
    const version = l.outside('version', '4.99.1\n');
    const status = l.outside('status', 'Package: hailort\nStatus: install ok installed\nVersion: 4.99.1\n\n');
    // Absolute targets naming the host's real files: inside R they name R/<that path>, which does not exist.
    symlinkSync(version, join(R, 'sys', 'module', 'hailo_pci', 'version'));
    symlinkSync(status, join(R, 'var', 'lib', 'dpkg', 'status'));
    let sys = probeSystem(R);
    assert.deepEqual(
      sys.modules.map((m) => [m.name, m.version]),
      [['hailo_pci', undefined]],
    );
    assert.deepEqual(sys.packages, []);
    // The same absolute target that exists inside R is read there (the system's own way).
    mkdirSync(join(R, l.home), { recursive: true });
    writeFileSync(join(R, version), '4.23.0\n');
    sys = probeSystem(R);
    assert.deepEqual(
      sys.modules.map((m) => m.version),
      ['4.23.0'],
    );
    l.assertOutsideUntouched();
    assert.ok(!existsSync(join(R, status)));
  } finally {
    l.cleanup();
  }
});

test('FileRoots.list: a link leading out of the roots (or nowhere) is not listed, so no finder can pick it; listEntries still shows links as links', async () => {
  const { FileRoots } = await import('../../../server/src/core/common/confined');
  const l = layout();
  try {
    writeFileSync(join(l.ws, 'own.npy'), 'x');
    symlinkSync(l.outside('private.npy', 'secret'), join(l.ws, 'out.npy'));
    symlinkSync(join(l.ws, 'own.npy'), join(l.ws, 'in.npy'));
    symlinkSync(join(l.ws, 'missing.npy'), join(l.ws, 'dangling.npy'));
    const roots = FileRoots.of([l.ws]);
    assert.deepEqual(roots.list(l.ws), ['in.npy', 'own.npy']);
    assert.deepEqual(roots.listOrEmpty(l.ws), ['in.npy', 'own.npy']);
    assert.deepEqual(
      roots.listEntries(l.ws).map((e) => e.name),
      ['dangling.npy', 'in.npy', 'out.npy', 'own.npy'],
    );
    // a system root resolves every link inside it: all are listed
    assert.deepEqual(FileRoots.system(l.ws).list(l.ws), ['dangling.npy', 'in.npy', 'out.npy', 'own.npy']);
  } finally {
    l.cleanup();
  }
});
