// The fake docker CLI (test/fakes/docker) from a test's side: a state folder with its config, the
// argv of every docker call it received, the fake DFC's recorded ClientRunner calls, and the
// containers it still holds.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { repoRoot } from '../helpers/shared';

/**
 * The fake docker runs the real driver script under python3, which needs numpy (every DFC image
 * has it). Without them outside CI the compile tests skip with a note; under CI they run and fail.
 */
export const NEEDS_PYTHON: string | undefined = (() => {
  const r = spawnSync('python3', ['-c', 'import numpy'], { encoding: 'utf8' });
  if (r.status === 0) return undefined;
  const why = 'python3 with numpy is needed by the fake DFC (apt-get install python3-numpy)';
  if (process.env.CI) return undefined;
  process.stderr.write(`NOTE: ${why}; skipping the compile tests that run the driver script\n`);
  return why;
})();

export const FAKE_DOCKER = join(repoRoot, 'test', 'fakes', 'docker', 'docker');
export const DRIVER_DIR = join(repoRoot, 'driver');
export const scenario = (name: string) => join(repoRoot, 'test', 'fixtures', 'compile', 'scenarios', `${name}.json`);

export interface FakeDockerConfig {
  daemon?: 'up' | 'down' | 'permission';
  images?: string[];
  /** normalized image ref → its Config.Labels (docker image inspect). */
  imageLabels?: Record<string, Record<string, string>>;
  runtimes?: string[];
  rootless?: boolean;
  contexts?: Record<string, string>;
  currentContext?: string;
  scenario?: string | null;
  python?: string;
  /** Per docker context: any of these keys for that host alone (its images, daemon, scenario, vanishAfterMs). */
  contextOverrides?: Record<string, Omit<FakeDockerConfig, 'contexts' | 'currentContext' | 'contextOverrides'>>;
  /** The host goes away this long after a container starts on it (see fakeDocker.js). */
  vanishAfterMs?: number;
}

export interface FakeDocker {
  dir: string;
  configure(config: FakeDockerConfig): void;
  /** Every docker invocation's argv, in order. */
  argv(): string[][];
  /** The fake DFC's ClientRunner calls, in order. */
  calls(): { method: string; args: unknown[]; kwargs: Record<string, unknown> }[];
  /** Names of containers the fake docker still knows (created, running or exited). */
  containers(): string[];
  /** Contexts whose host went away (vanishAfterMs). */
  gone(): string[];
  /** Brings a host that went away back. */
  revive(context: string): void;
  cleanup(): void;
}

export function fakeDocker(config: FakeDockerConfig = {}): FakeDocker {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-fake-docker-'));
  mkdirSync(join(dir, 'containers'), { recursive: true });
  const readLines = (name: string) =>
    existsSync(join(dir, name))
      ? readFileSync(join(dir, name), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      : [];
  const fd: FakeDocker = {
    dir,
    configure: (c) => writeFileSync(join(dir, 'config.json'), JSON.stringify({ scenario: scenarioPath('success'), ...c }, null, 1)),
    argv: () => readLines('argv.jsonl'),
    calls: () => readLines('calls.jsonl'),
    containers: () =>
      readdirSync(join(dir, 'containers'))
        .filter((n) => n.endsWith('.json'))
        .map((n) => n.slice(0, -5)),
    gone: () => (existsSync(join(dir, 'gone')) ? readdirSync(join(dir, 'gone')).map(decodeURIComponent) : []),
    revive: (context) => rmSync(join(dir, 'gone', encodeURIComponent(context)), { force: true }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
  fd.configure(config);
  return fd;
}

function scenarioPath(name: string): string {
  return scenario(name);
}
