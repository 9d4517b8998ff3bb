// The fake libhailort is faithful where the product depends on it: test/fake-hailort/tests/
// selftest.cpp, compiled against the fake's headers and library, checks HailoRT 5.2.0's
// documented behaviour (hailort5-api.md §1, §4, §5) and the API's shape (deleted copies,
// assignments, Expected(hailo_status)) with static_asserts that also hold against the real headers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { deviceSetup, FAKE_DIR } from '../helpers/fakeHailort';
import { findHailoRT } from '../../server/src/device/nativeBuild';

test('fake libhailort: the self-test passes every behaviour check', async () => {
  const setup = await deviceSetup('fake-selftest');
  try {
    const install = findHailoRT({ hailortRoot: join(setup.shim.libraryPath, '..', '..') });
    assert.ok(!('error' in install));
    const exe = join(setup.dir, 'selftest');
    const build = spawnSync(
      process.env.CXX || 'g++',
      [
        '-std=c++17',
        '-pthread',
        '-DHAILORT_MAJOR_VERSION=5',
        '-DHAILORT_MINOR_VERSION=2',
        '-DHAILORT_REVISION_VERSION=0',
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
    const run = spawnSync(exe, [setup.hefs.classifier, setup.facts], { encoding: 'utf8' });
    const lines = run.stdout.trim().split('\n');
    assert.deepEqual(
      lines.filter((l) => l.startsWith('FAIL')),
      [],
    );
    assert.equal(lines.filter((l) => l.startsWith('PASS')).length, 21, run.stdout);
    assert.equal(run.status, 0);
  } finally {
    setup.cleanup();
  }
});

test('fake libhailort: the shim compiles against it with -Wall -Wextra and no warning', () => {
  const r = spawnSync(
    process.env.CXX || 'g++',
    [
      '-std=c++17',
      '-fsyntax-only',
      '-Wall',
      '-Wextra',
      '-DHAILORT_MAJOR_VERSION=5',
      '-DHAILORT_MINOR_VERSION=2',
      '-DHAILORT_REVISION_VERSION=0',
      '-I',
      join(FAKE_DIR, 'include'),
      join(FAKE_DIR, '..', '..', 'native', 'hailo_shim.cpp'),
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
});
