// The fake libhailort is faithful where the product depends on it: test/fake-hailort/tests/
// selftest.cpp, compiled against the fake's headers and library, checks HailoRT's behaviour for the
// version the fake is built as — 5.2.0's documented behaviour (hailort5-api.md §1, §4, §5) and the
// 4.x rules read in the v4.18.0 … v4.23.0 sources — and the API's shape (deleted copies,
// assignments, Expected(hailo_status), the version's status values) with static_asserts that also
// hold against the real headers (native/README.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { deviceSetup, FAKE_DIR } from '../fakes/fakeHailort';
import { findHailoRT } from '../../server/src/processes/device/nativeBuild';

// Each version the shim claims, and how many behaviour checks its self-test makes (a check that
// silently stops running changes the count).
const VERSIONS: [string, number][] = [
  ['5.2.0', 32],
  ['5.0.1', 32],
  ['4.23.0', 36],
  ['4.20.0', 35],
  ['4.18.0', 35],
];

for (const [version, checks] of VERSIONS) {
  test(`fake libhailort ${version}: the self-test passes every behaviour check`, async () => {
    const setup = await deviceSetup(`fake-selftest-${version}`, version);
    try {
      const install = findHailoRT({ hailortRoot: join(setup.shim.libraryPath, '..', '..') });
      assert.ok(!('error' in install));
      const [major, minor, revision] = version.split('.');
      const exe = join(setup.dir, 'selftest');
      const build = spawnSync(
        process.env.CXX || 'g++',
        [
          '-std=c++17',
          '-pthread',
          `-DHAILORT_MAJOR_VERSION=${major}`,
          `-DHAILORT_MINOR_VERSION=${minor}`,
          `-DHAILORT_REVISION_VERSION=${revision}`,
          '-I',
          install.includeDir,
          join(FAKE_DIR, 'tests', 'selftest.cpp'),
          '-o',
          exe,
          install.libraryPath,
          `-Wl,-rpath,${join(install.libraryPath, '..')}`,
        ],
        { encoding: 'utf8' },
      );
      assert.equal(build.status, 0, build.stderr);
      const hefs = Number(major) >= 5 ? [setup.hefs.classifier, setup.hefs.hailo8] : [setup.hefs.hailo8lV1, setup.hefs.hailo8V1];
      const run = spawnSync(exe, [hefs[0], setup.facts, hefs[1]], { encoding: 'utf8' });
      const lines = run.stdout.trim().split('\n');
      assert.deepEqual(
        lines.filter((l) => l.startsWith('FAIL')),
        [],
      );
      assert.equal(lines.filter((l) => l.startsWith('PASS')).length, checks, run.stdout);
      assert.equal(run.status, 0);
    } finally {
      setup.cleanup();
    }
  });
}

for (const version of ['5.2.0', '4.20.0', '4.18.0']) {
  test(`fake libhailort ${version}: the shim compiles against it with -Wall -Wextra and no warning`, () => {
    const [major, minor, revision] = version.split('.');
    const r = spawnSync(
      process.env.CXX || 'g++',
      [
        '-std=c++17',
        '-fsyntax-only',
        '-Wall',
        '-Wextra',
        `-DHAILORT_MAJOR_VERSION=${major}`,
        `-DHAILORT_MINOR_VERSION=${minor}`,
        `-DHAILORT_REVISION_VERSION=${revision}`,
        '-I',
        join(FAKE_DIR, 'include'),
        join(FAKE_DIR, '..', '..', 'native', 'hailo_shim.cpp'),
        join(FAKE_DIR, '..', '..', 'native', 'hailo_genai.cpp'),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
  });
}
