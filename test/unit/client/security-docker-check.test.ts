// "Hailo: Check Docker Setup" — the verdict from docker's outputs (pure), and the whole path
// through the trust-gated runner against the docker binary of this machine when it has one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { skipUnless } from '../../helpers/shared';
import { dockerReport, hailoImagesIn, parseDockerVersion } from '../../../client/src/docker/dockerStatus';
import { runTool, type ToolResult } from '../../../client/src/security/runTool';
import { requireWorkspaceTrust } from '../../../client/src/security/workspaceTrust';
import { fakeTrustHost } from '../../fakes/trustHost';

// Output of `docker version --format '{{json .}}'` (docker 28.2.2) with the daemon stopped.
const DAEMON_DOWN_STDOUT =
  '{"Client":{"Version":"28.2.2","ApiVersion":"1.50","DefaultAPIVersion":"1.50","GitCommit":"e6534b4","GoVersion":"go1.24.3","Os":"linux","Arch":"amd64","BuildTime":"Fri May 30 12:07:14 2025","Context":"default"},"Server":null}\n';
const DAEMON_DOWN_STDERR = 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n';
const DAEMON_UP_STDOUT =
  '{"Client":{"Version":"28.2.2","ApiVersion":"1.50"},"Server":{"Platform":{"Name":"Docker Engine - Community"},"Version":"28.2.2","ApiVersion":"1.50"}}\n';

const ok = (stdout: string, stderr = ''): ToolResult => ({ code: 0, stdout, stderr });

test('docker check: version JSON, daemon up and down', () => {
  assert.deepEqual(parseDockerVersion(DAEMON_DOWN_STDOUT), { client: '28.2.2', server: undefined });
  assert.deepEqual(parseDockerVersion(DAEMON_UP_STDOUT), { client: '28.2.2', server: '28.2.2' });
  assert.deepEqual(parseDockerVersion('not json'), {});
  assert.deepEqual(parseDockerVersion('{broken'), {});
});

test('docker check: Hailo images are picked out of `docker image ls`', () => {
  assert.deepEqual(hailoImagesIn('ubuntu:22.04\nhailo_ai_sw_suite_2025-10:1\n\nHailo8_dfc:3.27\n'), ['hailo_ai_sw_suite_2025-10:1', 'Hailo8_dfc:3.27']);
  assert.deepEqual(hailoImagesIn(''), []);
});

test('docker check: each situation gets one sentence that says what to do', () => {
  const missing = dockerReport('docker', { code: undefined, stdout: '', stderr: '', error: { code: 'ENOENT', message: 'spawn docker ENOENT' } });
  assert.equal(missing.level, 'error');
  assert.match(missing.message, /not found \('docker'\).*hailo\.dfc\.dockerPath/);

  const down = dockerReport('docker', { code: 1, stdout: DAEMON_DOWN_STDOUT, stderr: DAEMON_DOWN_STDERR });
  assert.equal(down.level, 'warning');
  assert.match(down.message, /^Docker 28\.2\.2 is installed but its daemon is not reachable: Cannot connect/);

  const noImage = dockerReport('docker', ok(DAEMON_UP_STDOUT), ok('ubuntu:22.04\n'));
  assert.equal(noImage.level, 'warning');
  assert.match(noImage.message, /reachable, but no Hailo image/);

  const ready = dockerReport('/usr/bin/docker', ok(DAEMON_UP_STDOUT), ok('hailo_ai_sw_suite:2025-10\n'));
  assert.equal(ready.level, 'info');
  assert.deepEqual(ready.hailoImages, ['hailo_ai_sw_suite:2025-10']);

  const timeout = dockerReport('docker', {
    code: undefined,
    stdout: '',
    stderr: '',
    error: { code: 'ETIMEDOUT', message: 'docker did not finish within 15000 ms' },
  });
  assert.equal(timeout.level, 'error');
  assert.match(timeout.message, /did not finish/);
});

test('docker check: the real docker of this machine, through the trust-gated runner', async (t) => {
  const trust = await requireWorkspaceTrust('test', fakeTrustHost(true).host);
  assert.ok(trust);
  const version = await runTool(trust, 'docker', ['version', '--format', '{{json .}}'], { timeoutMs: 15_000 });
  const reason = skipUnless(version.error?.code !== 'ENOENT', 'docker (the client, on the PATH)');
  if (reason) return t.skip(`${reason}; the ENOENT verdict is covered above`);
  const images =
    version.code === 0 ? await runTool(trust, 'docker', ['image', 'ls', '--format', '{{.Repository}}:{{.Tag}}'], { timeoutMs: 15_000 }) : undefined;
  const report = dockerReport('docker', version, images);
  // Whatever state this machine's docker is in, the client version is read and the verdict is one of the three.
  assert.match(report.clientVersion ?? '', /^\d+\.\d+/);
  assert.ok(['info', 'warning', 'error'].includes(report.level));
  assert.match(report.message, /^Docker /);
});
