// The fake libhailort's GenAI classes are faithful where the chat depends on them:
// test/fake-hailort/tests/genai_selftest.cpp, compiled against the fake's headers and library,
// checks what HailoRT's GenAI sources say (hailort5-api.md §2: KV cache held by one model, the
// parameter ranges of llm.cpp:553-565, read() 4/6, abort, context calls, a VLM's frame from the
// encoder's first input, wrong frame size/count) — as 5.2.0 and as 5.0.1, which has no context calls.
// Its static_asserts hold against the real headers too (native/README.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { FAKE_DIR, fakeHailortPrefix } from '../fakes/fakeHailort';
import { genaiSetup } from '../helpers/genaiFixtures';

for (const [version, passes] of [
  ['5.2.0', 50],
  ['5.0.1', 45],
] as const) {
  test(`fake libhailort ${version}: the GenAI self-test passes every check`, async () => {
    const setup = await genaiSetup(`genai-selftest-${version}`, version, false);
    try {
      const prefix = fakeHailortPrefix(version);
      const [major, minor, revision] = version.split('.');
      const exe = join(setup.dir, 'genai_selftest');
      const lib = join(prefix, 'lib', `libhailort.so.${version}`);
      const build = spawnSync(
        process.env.CXX || 'g++',
        [
          '-std=c++17',
          '-pthread',
          `-DHAILORT_MAJOR_VERSION=${major}`,
          `-DHAILORT_MINOR_VERSION=${minor}`,
          `-DHAILORT_REVISION_VERSION=${revision}`,
          '-I',
          join(prefix, 'include'),
          join(FAKE_DIR, 'tests', 'genai_selftest.cpp'),
          '-o',
          exe,
          lib,
          `-Wl,-rpath,${join(prefix, 'lib')}`,
        ],
        { encoding: 'utf8' },
      );
      assert.equal(build.status, 0, build.stderr);
      const run = spawnSync(exe, [setup.hefs.llm, setup.hefs.lora, setup.hefs.vlm, setup.facts], { encoding: 'utf8', timeout: 120_000 });
      const lines = run.stdout.trim().split('\n');
      assert.deepEqual(
        lines.filter((l) => l.startsWith('FAIL')),
        [],
      );
      assert.equal(lines.filter((l) => l.startsWith('PASS')).length, passes, run.stdout);
      assert.equal(run.status, 0);
      // HailoRT's own words reach the log (stderr), e.g. the one-model-per-device refusal.
      assert.match(run.stderr, /KV-Cache is already in use by another model!/);
    } finally {
      setup.cleanup();
    }
  });
}

test('the GenAI bridge compiles against the fake with -Wall -Wextra and no warning, as 5.2.0, 5.1.0 and 5.0.0', () => {
  for (const [minor, revision] of [
    [2, 0],
    [1, 0],
    [0, 0],
  ]) {
    const r = spawnSync(
      process.env.CXX || 'g++',
      [
        '-std=c++17',
        '-fsyntax-only',
        '-Wall',
        '-Wextra',
        '-DHAILORT_MAJOR_VERSION=5',
        `-DHAILORT_MINOR_VERSION=${minor}`,
        `-DHAILORT_REVISION_VERSION=${revision}`,
        '-I',
        join(FAKE_DIR, 'include'),
        join(FAKE_DIR, '..', '..', 'native', 'hailo_genai.cpp'),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '', `5.${minor}.${revision}`);
  }
});
