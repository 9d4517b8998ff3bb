// What the commands that run the DFC container share: the docker options (compile describes them;
// bisect, noise, diverge and accuracy refer to it), the DockerSettings they make, and the driver
// job's environment (the launcher, the driver/ folder, the host user, the abort signal).
import { FileRoots } from '../core/common/confined';
import { dirname, join, resolve } from 'node:path';
import type { Gpus } from '../core/common/settings';
import type { TrustToken } from '../core/common/trust';
import { hostUser, trustedLauncher } from '../processes/compile/launcher';
import type { DockerSettings } from '../processes/compile/runner';
import type { DriverJobEnv } from '../processes/noise/driverJob';

const AS_COMPILE = 'as for hailo-tools compile';

/** The docker options as the commands after compile list them (a command may reword one). */
export const DOCKER_OPTIONS = {
  docker: { type: 'string', arg: 'PATH', help: AS_COMPILE },
  context: { type: 'string', arg: 'NAME', help: AS_COMPILE },
  image: { type: 'string', arg: 'IMAGE', help: AS_COMPILE },
  memory: { type: 'string', arg: 'LIMIT', help: AS_COMPILE },
  gpus: { type: 'string', arg: 'G', help: AS_COMPILE },
} as const;

export interface DockerValues {
  docker?: string;
  context?: string;
  image?: string;
  memory?: string;
  gpus?: string;
  'docker-arg'?: string[];
}

/** The container settings the options name, or the sentence refusing --gpus. */
export function dockerSettings(v: DockerValues, gpusDefault: Gpus): DockerSettings | { error: string } {
  const gpus = v.gpus ?? gpusDefault;
  if (gpus !== 'auto' && gpus !== 'all' && gpus !== 'none') return { error: `--gpus is auto, all or none, not '${gpus}'` };
  return { dockerPath: v.docker ?? 'docker', context: v.context, image: v.image, memoryLimit: v.memory, gpus, extraRunArgs: v['docker-arg'] ?? [] };
}

/** The environment of a driver job started from the command line (trusted: the user typed it). */
export function driverJobEnv(trust: TrustToken, driverDir: string | undefined, signal?: AbortSignal): DriverJobEnv & { driverDir: string } {
  return { launch: trustedLauncher(trust, { newProcessGroup: true }), driverDir: driverDir ?? defaultDriverDir(), user: hostUser(), signal };
}

/** `driver/` of the package: dist/cli.js → ../driver (also from the sources, for tests). */
export function defaultDriverDir(): string {
  for (const d of [join(__dirname, '..', 'driver'), join(__dirname, '..', '..', '..', 'driver'), resolve('driver')]) {
    if (FileRoots.of([d]).isFile(join(d, 'hailo_compile.py'))) return d; // the package's own driver/ folder
  }
  return join(dirname(__dirname), 'driver');
}
