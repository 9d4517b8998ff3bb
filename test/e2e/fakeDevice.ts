// The fake HailoRT for the trusted e2e instance (bundled to out/e2e-*/device/fakeDevice.js so the
// helpers' repo root resolves): the fake libhailort built into its cached install prefix (the
// instance's machine-scoped `hailo.hailort.path` points at it; the extension compiles the real
// shim against it, as on a user's machine) and the facts file of the workspace's HEFs, which the
// simulated device reads (FAKE_HAILORT_* in the code-server environment).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fakeEnv, fakeHailortPrefix, writeFacts } from '../helpers/fakeHailort';

export async function setupFakeDevice(workspace: string, dir: string): Promise<{ prefix: string; env: Record<string, string> }> {
  const prefix = fakeHailortPrefix();
  const hefs = readdirSync(workspace).filter((f) => f.endsWith('.hef')).map((f) => join(workspace, f));
  const facts = join(dir, 'fake-device-facts.tsv');
  await writeFacts(hefs, facts);
  return { prefix, env: fakeEnv(facts) };
}
