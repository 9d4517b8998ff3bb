// The device path's pure parts: the .npy reader against files numpy wrote, the status → failure
// mapping (hailort5-api.md §1.8, §4), the HailoRT finder on install layouts, and the compiler's
// argument array.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readNpy, NpyError } from '../../../server/src/core/common/npy';
import { errorFromStatus, kindOfStatus } from '../../../server/src/core/device/errors';
import { compilerArgs, findHailoRT, versionFromLibraryName } from '../../../server/src/processes/device/nativeBuild';
import { percentile } from '../../../server/src/core/device/stats';
import { tempDir } from '../../fakes/fakeHailort';

test('npy: every dtype numpy writes reads back to the same values (numpy is the oracle)', () => {
  const dir = tempDir('npy');
  try {
    const dtypes = ['<u1', '<i1', '<u2', '>i2', '<u4', '<i4', '<f2', '<f4', '>f8', '<i8', '|b1'];
    const script = [
      'import numpy as np, json, sys',
      'd = sys.argv[1]',
      'out = {}',
      `for i, t in enumerate(${JSON.stringify(dtypes)}):`,
      '    a = (np.arange(24).reshape(2, 3, 4) * (1 if t[1] in "ub" else -0.5 if t[1] == "f" else -1)).astype(t)',
      '    if t == "|b1": a = (np.arange(24) % 3 == 0).reshape(2, 3, 4)',
      '    np.save(f"{d}/a{i}.npy", a)',
      '    out[str(i)] = [a.astype(np.float64).ravel().tolist(), list(a.shape)]',
      'print(json.dumps(out))',
    ].join('\n');
    const py = spawnSync('python3', ['-c', script, dir], { encoding: 'utf8' });
    assert.equal(py.status, 0, py.stderr);
    const expected = JSON.parse(py.stdout) as Record<string, [number[], number[]]>;
    dtypes.forEach((t, i) => {
      const arr = readNpy(readFileSync(join(dir, `a${i}.npy`)));
      assert.deepEqual(arr.shape, expected[i][1], t);
      assert.deepEqual([...arr.data], expected[i][0], t);
    });
    // Refusals with a reason.
    const fortran = spawnSync('python3', [
      '-c',
      `import numpy as np\nnp.save(${JSON.stringify(join(dir, 'f.npy'))}, np.asfortranarray(np.ones((3,4), np.float32)))`,
    ]);
    assert.equal(fortran.status, 0);
    assert.throws(() => readNpy(readFileSync(join(dir, 'f.npy'))), /Fortran-ordered/);
    assert.throws(() => readNpy(new Uint8Array([1, 2, 3])), NpyError);
    const whole = readFileSync(join(dir, 'a0.npy'));
    assert.throws(() => readNpy(whole.subarray(0, whole.length - 1)), /truncated \.npy data/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('statuses: 74 is busy when the scan lists a device, no device otherwise; 91/92/93/4 keep their meaning', () => {
  assert.equal(kindOfStatus(74, { scanCount: 1 }), 'busy');
  assert.equal(kindOfStatus(74, { scanCount: 0 }), 'no-device');
  assert.equal(kindOfStatus(73), 'busy');
  assert.equal(kindOfStatus(64), 'driver-missing');
  assert.deepEqual(
    [91, 92, 93, 4].map((s) => kindOfStatus(s)),
    ['hef-corrupted', 'hef-not-supported', 'hef-not-compatible', 'timeout'],
  );
  const other = errorFromStatus(77, 'VDevice::create_infer_model');
  assert.equal(other.name, 'HAILO_RPC_FAILED');
  assert.equal(other.sentence, 'HailoRT answered HAILO_RPC_FAILED (status 77) to VDevice::create_infer_model.');
});

test('finder: a prefix with headers and a versioned library; the CMake config; the version from the file name', () => {
  assert.deepEqual(versionFromLibraryName('libhailort.so.5.2.0'), { major: 5, minor: 2, revision: 0 });
  assert.equal(versionFromLibraryName('libhailort.so'), undefined);
  const root = tempDir('finder');
  try {
    const usr = join(root, 'usr');
    mkdirSync(join(usr, 'include', 'hailo'), { recursive: true });
    writeFileSync(join(usr, 'include', 'hailo', 'hailort.hpp'), '');
    mkdirSync(join(usr, 'lib'), { recursive: true });
    writeFileSync(join(usr, 'lib', 'libhailort.so.5.1.1'), '');
    writeFileSync(join(usr, 'lib', 'libhailort.so.4.23.0'), '');
    const found = findHailoRT({ env: {}, prefixes: [usr] });
    assert.ok(!('error' in found));
    assert.equal(found.libraryPath, join(usr, 'lib', 'libhailort.so.5.1.1'));
    assert.deepEqual(found.version, { major: 5, minor: 1, revision: 1 });
    assert.equal(found.foundBy, 'usual-paths');

    // Only an unversioned libhailort.so: the CMake package's ConfigVersion gives the version.
    const opt = join(root, 'opt');
    mkdirSync(join(opt, 'include', 'hailo'), { recursive: true });
    writeFileSync(join(opt, 'include', 'hailo', 'hailort.hpp'), '');
    mkdirSync(join(opt, 'lib', 'cmake', 'HailoRT'), { recursive: true });
    writeFileSync(join(opt, 'lib', 'libhailort.so'), '');
    writeFileSync(join(opt, 'lib', 'cmake', 'HailoRT', 'HailoRTConfig.cmake'), '');
    writeFileSync(join(opt, 'lib', 'cmake', 'HailoRT', 'HailoRTConfigVersion.cmake'), 'set(PACKAGE_VERSION "5.2.0")\n');
    const viaCmake = findHailoRT({ env: { HailoRT_DIR: join(opt, 'lib', 'cmake', 'HailoRT') }, prefixes: [] });
    assert.ok(!('error' in viaCmake), JSON.stringify(viaCmake));
    assert.deepEqual([viaCmake.foundBy, viaCmake.version.minor, viaCmake.includeDir], ['cmake-config', 2, join(opt, 'include')]);

    const none = findHailoRT({ env: {}, prefixes: [join(root, 'nothing')] });
    assert.ok('error' in none);
    assert.equal(none.error.kind, 'hailort-missing');
    assert.match(none.error.sentence, /h10-hailort/);

    const args = compilerArgs(found, '/src/hailo_shim.cpp', '/out/x.so');
    assert.ok(args.includes('-DHAILORT_MINOR_VERSION=1') && args.includes('-std=c++17'));
    assert.equal(args[args.indexOf('-I') + 1], join(usr, 'include'));
    assert.ok(args.includes(`-Wl,-rpath,${join(usr, 'lib')}`));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('percentile: nearest rank', () => {
  const xs = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.deepEqual([percentile(xs, 50), percentile(xs, 99), percentile(xs, 100), percentile([7], 99)], [50, 99, 100, 7]);
});
