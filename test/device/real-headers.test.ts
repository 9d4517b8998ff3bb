// Where real HailoRT headers exist (an installed HailoRT, or HAILORT_SRC naming a checkout of
// github.com/hailo-ai/hailort), the shim and the fake's self-test must compile against them:
// the proof that the fake's names and signatures are HailoRT's. Elsewhere this skips with a note;
// the result against v4.18.0 … v4.23.0, v5.0.1, v5.1.1 and v5.2.0 is recorded in native/README.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { findHailoRT } from '../../server/src/processes/device/nativeBuild';
import { repoRoot } from '../helpers/shared';

const available = !!process.env.HAILORT_SRC || !('error' in findHailoRT());

test(
  'the shim and the fake self-test compile against the real HailoRT headers',
  { skip: available ? false : 'NOTE: no HailoRT installed and HAILORT_SRC unset' },
  () => {
    const r = spawnSync(process.execPath, [join(repoRoot, 'native', 'build.mjs'), '--syntax-only'], { encoding: 'utf8', cwd: repoRoot });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /ok {3}native\/hailo_shim\.cpp against HailoRT [45]\./);
  },
);
