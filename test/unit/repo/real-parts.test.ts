// The rule behind every skip: locally a missing real part (../shared, docker, a devDependency
// with real models) is a visible NOTE and a skip; under CI or HAILO_REQUIRE_ALL=1 it throws, so
// the test file fails and the run is red.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MissingPartError, requireAllParts, skipUnless } from '../../helpers/shared';

test('real parts: CI (any non-false value) and HAILO_REQUIRE_ALL=1 require every part', () => {
  assert.equal(requireAllParts({}), false);
  assert.equal(requireAllParts({ CI: 'true' }), true);
  assert.equal(requireAllParts({ CI: '1' }), true);
  assert.equal(requireAllParts({ CI: 'false' }), false);
  assert.equal(requireAllParts({ CI: '' }), false);
  assert.equal(requireAllParts({ HAILO_REQUIRE_ALL: '1' }), true);
});

test('real parts: a missing part skips with a NOTE locally and throws under CI', () => {
  assert.equal(skipUnless('/some/path', 'x', { CI: 'true' }), false);
  assert.match(skipUnless(undefined, 'the thing', {}) as string, /^NOTE: the thing is missing; skipping/);
  assert.throws(
    () => skipUnless(undefined, 'the thing', { CI: 'true' }),
    (e: unknown) => e instanceof MissingPartError && /the thing is missing.*under CI/.test((e as Error).message),
  );
  assert.throws(() => skipUnless(false, 'the thing', { HAILO_REQUIRE_ALL: '1' }), MissingPartError);
});
