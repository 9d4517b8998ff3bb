// What a device test file opens on the fake libhailort: one deviceSetup for the file (with the
// file's own preparation in the same `before` hook — node 20 runs a file's top-level `before`
// hooks concurrently — and removed after), and worker clients (DeviceClient over dist/deviceWorker.js)
// on a device whose driver is loaded (a sysfs root naming hailo1x_pci), all disposed after the file.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DeviceClient, type DeviceClientOptions } from '../../server/src/processes/device/client';
import { commandLineTrust } from '../../server/src/core/common/trust';
import { deviceSetup, fakeEnv, type DeviceSetup } from './fakeHailort';
import { projectRoot as repoRoot } from '../helpers/projectRoot';

export const DEVICE_WORKER = join(repoRoot, 'dist', 'deviceWorker.js');

export interface FakeClientOptions extends Pick<DeviceClientOptions, 'requestTimeoutMs' | 'hailortLogDir' | 'onEvent'> {
  /** The facts file the fake reads (default: the setup's, for its device HEFs). */
  facts?: string;
}

export interface FakeDevice {
  /** The file's setup (set once the first `before` hook ran). */
  readonly setup: DeviceSetup;
  /** The worker's environment: the fake's defaults, the driver's sysfs root, then `extra`. */
  env(extra?: Record<string, string>, facts?: string): Record<string, string>;
  /** A worker client on the fake device, disposed after the file. */
  client(extra?: Record<string, string>, options?: FakeClientOptions): DeviceClient;
}

export interface FakeDeviceOptions {
  /** The fake HailoRT version (default: deviceSetup's). */
  version?: string;
  /** The file's own preparation (HEFs, facts files), run once the setup is made. */
  prepare?: (setup: DeviceSetup) => Promise<void>;
}

/** Registers the file's setup and clean-up hooks; call at the top level of a test file. */
export function useFakeDevice(name: string, options: FakeDeviceOptions = {}): FakeDevice {
  let setup: DeviceSetup | undefined;
  const clients: DeviceClient[] = [];
  const ready = (): DeviceSetup => {
    assert.ok(setup, `the fake device of ${name} is used before its before() hook ran`);
    return setup;
  };
  before(async () => {
    assert.ok(existsSync(DEVICE_WORKER), 'dist/deviceWorker.js is missing: run `npm run build` first');
    const made = await deviceSetup(name, options.version);
    setup = made;
    await options.prepare?.(made);
  });
  after(() => {
    for (const c of clients) c.dispose();
    setup?.cleanup();
  });
  const env = (extra: Record<string, string> = {}, facts?: string) => {
    const s = ready();
    return fakeEnv(facts ?? s.facts, { HAILO_TOOLS_SYSFS_ROOT: join(s.dir, 'sysfs-with-driver'), ...extra });
  };
  return {
    get setup() {
      return ready();
    },
    env,
    client(extra = {}, options = {}) {
      const s = ready();
      mkdirSync(join(s.dir, 'sysfs-with-driver', 'sys', 'module', 'hailo1x_pci'), { recursive: true });
      const { facts, ...clientOptions } = options;
      const c = new DeviceClient({ trust: commandLineTrust('test'), workerPath: DEVICE_WORKER, shim: s.shim, env: env(extra, facts), ...clientOptions });
      clients.push(c);
      return c;
    },
  };
}
