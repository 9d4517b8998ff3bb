// Fake `docker` CLI for the compile tests (the DFC image cannot run here). It mimics exactly the
// calls server/src/processes/compile/ makes, with docker's own messages and exit codes:
//   version · info · context inspect · image ls · image inspect · run · create · start --attach ·
//   cp (tar on stdin/stdout) · inspect · ps · kill · rm --force,   global --context NAME.
// `run --interactive` hands the client's stdin to the driver (docker forwards it the same way).
// `run`/`start` execute the REAL driver script (driver/hailo_compile.py) under python3 against the
// fake hailo_sdk_client in ../python, with container paths mapped onto the bind mounts (or onto a
// per-container root folder for files that came in by `docker cp`). kill/rm --force SIGKILL the
// driver (exit 137); a driver that SIGKILLs itself (the fake DFC's "oom" scenario) is reported as
// OOMKilled, as docker reports the kernel's OOM killer.
//
// Several docker hosts: `contexts` maps names to endpoints (unix:// is this machine, ssh:// and
// tcp:// are remote: no bind mounts); `contextOverrides.<name>` replaces any config key for that
// host alone (its images, daemon state, fake-DFC scenario — a slow host is a scenario with a delay).
// `vanishAfterMs` makes a host go away that long after a container starts on it: the attached
// client prints docker's "error waiting for container: EOF" and exits 125, and from then on every
// call to that context fails as docker's ssh connection helper does when the host is unreachable
// (docker/for-win#13569: `error during connect: … command [ssh … docker system dial-stdio] has
// exited with exit status 255, make sure the URL is valid …: stderr=ssh: connect to host …`).
//
// State lives in $HAILO_FAKE_DOCKER_STATE: config.json (written by the tests; see DEFAULTS),
// argv.jsonl (every invocation's argv, one JSON array per line), containers/<name>.json and
// containers/<name>.root/ (the container's own file system).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { pipeline } = require('node:stream/promises');

const REPO = path.resolve(__dirname, '..', '..', '..');
const tar = require(require.resolve('tar-stream', { paths: [REPO] }));

const DEFAULTS = {
  daemon: 'up', // 'up' | 'down' | 'permission'
  clientVersion: '27.3.1',
  serverVersion: '27.3.1',
  images: ['hailo_ai_sw_suite_2026-04:1'],
  imageLabels: {}, // normalized image ref → its Config.Labels
  runtimes: ['io.containerd.runc.v2', 'runc'],
  rootless: false,
  contexts: { default: 'unix:///var/run/docker.sock' },
  currentContext: 'default',
  scenario: null, // path of a fake-DFC scenario JSON (test/fixtures/compile/scenarios/)
  python: 'python3',
  contextOverrides: {}, // context name → config keys for that host only
  vanishAfterMs: null, // this host goes away that long after a container starts on it
};

const DAEMON_DOWN = 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?';
const PERMISSION =
  'permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get "http://%2Fvar%2Frun%2Fdocker.sock/v1.47/version": dial unix /var/run/docker.sock: connect: permission denied';

/** What docker's ssh connection helper prints when the host cannot be reached (see the header). */
function unreachable(endpoint, apiPath) {
  const m = /^ssh:\/\/(?:([^@/]+)@)?([^:/]+)(?::(\d+))?/.exec(endpoint);
  if (!m)
    return `error during connect: Get "http://docker.example.com/v1.47${apiPath}": dial tcp ${endpoint.replace(/^tcp:\/\//, '')}: connect: no route to host`;
  const [, user, host, port] = m;
  const ssh = ['ssh', ...(user ? ['-l', user] : []), ...(port ? ['-p', port] : []), '--', host, 'docker system dial-stdio'].join(' ');
  return `error during connect: Get "http://docker.example.com/v1.47${apiPath}": command [${ssh}] has exited with exit status 255, make sure the URL is valid, and Docker 18.09 or later is installed on the remote host: stderr=ssh: connect to host ${host} port ${port ?? 22}: No route to host`;
}

const goneMarker = (dir, ctx) => path.join(dir, 'gone', encodeURIComponent(ctx));

function stateDir() {
  const dir = process.env.HAILO_FAKE_DOCKER_STATE;
  if (!dir) {
    process.stderr.write('fake docker: HAILO_FAKE_DOCKER_STATE is not set\n');
    process.exit(2);
  }
  fs.mkdirSync(path.join(dir, 'containers'), { recursive: true });
  return dir;
}

function loadConfig(dir) {
  const file = path.join(dir, 'config.json');
  const cfg = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  return { ...DEFAULTS, ...cfg };
}

const out = (s) => process.stdout.write(s);
const err = (s) => process.stderr.write(s);
function fail(message, code) {
  err(message.endsWith('\n') ? message : `${message}\n`);
  process.exit(code);
}

// ---------- container records ----------

function recordPath(dir, name) {
  return path.join(dir, 'containers', `${name}.json`);
}
function readRecord(dir, name) {
  try {
    return JSON.parse(fs.readFileSync(recordPath(dir, name), 'utf8'));
  } catch {
    return undefined;
  }
}
function writeRecord(dir, rec) {
  const p = recordPath(dir, rec.name);
  const tmp = `${p}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(rec, null, 1));
  fs.renameSync(tmp, p);
}
/** Updates a record unless it was removed meanwhile (rm --force wins). */
function updateRecord(dir, name, patch) {
  const rec = readRecord(dir, name);
  if (!rec) return undefined;
  Object.assign(rec, typeof patch === 'function' ? patch(rec) : patch);
  writeRecord(dir, rec);
  return rec;
}
function allRecords(dir) {
  return fs
    .readdirSync(path.join(dir, 'containers'))
    .filter((n) => n.endsWith('.json'))
    .map((n) => readRecord(dir, n.slice(0, -5)))
    .filter(Boolean);
}
function findRecord(dir, ref) {
  return readRecord(dir, ref) ?? allRecords(dir).find((r) => r.id.startsWith(ref));
}
function alive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
/** A running record whose driver died without the run process noticing (it was killed too). */
function refresh(dir, rec) {
  if (rec.state === 'running' && !alive(rec.pid) && !alive(rec.runnerPid))
    return updateRecord(dir, rec.name, { state: 'exited', exitCode: rec.exitCode ?? 137 }) ?? rec;
  return rec;
}

// ---------- option parsing (the subset of `docker run/create` flags, plus common extra ones) ----------

const VALUE_FLAGS = new Map(
  Object.entries({
    '--name': 'name',
    '--label': 'label',
    '-l': 'label',
    '--mount': 'mount',
    '--volume': 'volume',
    '-v': 'volume',
    '--env': 'env',
    '-e': 'env',
    '--user': 'user',
    '-u': 'user',
    '--workdir': 'workdir',
    '-w': 'workdir',
    '--memory': 'memory',
    '-m': 'memory',
    '--memory-swap': 'memorySwap',
    '--gpus': 'gpus',
    '--entrypoint': 'entrypoint',
    '--pull': 'pull',
    '--shm-size': 'shmSize',
    '--ipc': 'ipc',
    '--network': 'network',
    '--net': 'network',
    '--device': 'device',
    '--cpus': 'cpus',
    '--group-add': 'groupAdd',
    '--runtime': 'runtime',
    '--ulimit': 'ulimit',
    '--add-host': 'addHost',
    '--hostname': 'hostname',
    '-h': 'hostname',
    '--platform': 'platform',
    '--cap-add': 'capAdd',
    '--security-opt': 'securityOpt',
    '--tmpfs': 'tmpfs',
  }),
);
const BOOL_FLAGS = new Set(['--rm', '-i', '--interactive', '-t', '--tty', '-it', '-ti', '-d', '--detach', '--privileged', '--init', '--read-only']);

function parseRunOptions(args, command) {
  const o = { labels: {}, mounts: [], env: [], extra: [], flags: [] };
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-')) break;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const flag = eq > 0 ? a.slice(0, eq) : a;
    if (BOOL_FLAGS.has(flag)) {
      o.flags.push(flag);
      continue;
    }
    const key = VALUE_FLAGS.get(flag);
    if (!key) fail(`unknown flag: ${flag}\nSee 'docker ${command} --help'.`, 125);
    const value = eq > 0 ? a.slice(eq + 1) : args[++i];
    if (value === undefined) fail(`flag needs an argument: ${flag}\nSee 'docker ${command} --help'.`, 125);
    if (key === 'label') {
      const k = value.indexOf('=');
      o.labels[k < 0 ? value : value.slice(0, k)] = k < 0 ? '' : value.slice(k + 1);
    } else if (key === 'mount') {
      o.mounts.push(parseMount(value, command));
    } else if (key === 'volume') {
      const parts = value.split(':');
      o.mounts.push({ type: 'bind', source: parts[0], target: parts[1], readonly: parts[2] === 'ro' });
    } else if (key === 'env') o.env.push(value);
    else if (['device', 'groupAdd', 'capAdd', 'securityOpt', 'addHost', 'ulimit', 'tmpfs'].includes(key)) o.extra.push([flag, value]);
    else o[key] = value;
  }
  if (i >= args.length) fail(`"docker ${command}" requires at least 1 argument.\nSee 'docker ${command} --help'.`, 125);
  o.image = args[i];
  o.cmd = args.slice(i + 1);
  return o;
}

/** Go encoding/csv, as docker/cli opts/mount.go reads --mount (strict quotes, "" for a quote). */
function csvFields(line) {
  const fields = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (i >= line.length) throw new Error(`parse error on line 1, column ${i + 1}: extraneous or missing " in quoted-field`);
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          if (i < line.length && line[i] !== ',') throw new Error(`parse error on line 1, column ${i + 1}: extraneous or missing " in quoted-field`);
          break;
        }
        field += line[i++];
      }
    } else {
      while (i < line.length && line[i] !== ',') {
        if (line[i] === '"') throw new Error(`parse error on line 1, column ${i + 1}: bare " in non-quoted-field`);
        field += line[i++];
      }
    }
    fields.push(field);
    if (i >= line.length) return fields;
    i++; // the comma
  }
}

function parseMount(value, command) {
  let fields;
  try {
    fields = csvFields(value);
  } catch (e) {
    fail(`invalid argument "${value}" for "--mount" flag: ${e.message}\nSee 'docker ${command} --help'.`, 125);
  }
  const m = { type: 'volume', readonly: false };
  for (const f of fields) {
    const k = f.indexOf('=');
    const key = k < 0 ? f : f.slice(0, k);
    const val = k < 0 ? undefined : f.slice(k + 1);
    if (val === undefined && (key === 'readonly' || key === 'ro')) m.readonly = true;
    else if (key === 'type') m.type = val;
    // docker/cli opts/mount.go makes only "." and "./…" absolute; any other relative source goes to the daemon as it is.
    else if (key === 'source' || key === 'src') m.source = val === '.' || val.startsWith('./') ? path.resolve(val) : val;
    else if (key === 'target' || key === 'dst' || key === 'destination') m.target = val;
    else if (key === 'readonly' || key === 'ro') m.readonly = val === 'true' || val === '1';
    else fail(`invalid argument "${value}" for "--mount" flag: unexpected key '${key}' in '${f}'\nSee 'docker ${command} --help'.`, 125);
  }
  if (!m.target) fail(`invalid argument "${value}" for "--mount" flag: target is required\nSee 'docker ${command} --help'.`, 125);
  return m;
}

const normalizeRef = (ref) => (/:[^/]+$/.test(ref) ? ref : `${ref}:latest`);

// ---------- the container's file system ----------

/** Host path of a container path: the longest mount target that contains it, else the container root. */
function hostPathOf(rec, p) {
  if (!p.startsWith('/')) return p;
  let best;
  for (const m of rec.mounts) {
    if (p === m.target || p.startsWith(`${m.target.replace(/\/$/, '')}/`)) {
      if (!best || m.target.length > best.target.length) best = m;
    }
  }
  if (best) return best.source + p.slice(best.target.length);
  return path.join(rec.root, p);
}

// ---------- commands ----------

function cmdVersion(cfg) {
  const client = { Platform: { Name: 'Docker Engine - Community' }, Version: cfg.clientVersion, ApiVersion: '1.47', Os: 'linux', Arch: 'amd64' };
  if (cfg.daemon !== 'up') {
    out(`${JSON.stringify({ Client: client, Server: null })}\n`);
    fail(cfg.daemon === 'permission' ? PERMISSION : DAEMON_DOWN, 1);
  }
  out(`${JSON.stringify({ Client: client, Server: { Platform: { Name: 'Docker Engine - Community' }, Version: cfg.serverVersion, ApiVersion: '1.47' } })}\n`);
}

function requireDaemon(cfg, prefix = '', code = 1) {
  if (cfg.daemon === 'down') fail(`${prefix}${DAEMON_DOWN}`, code);
  if (cfg.daemon === 'permission') fail(`${prefix}${PERMISSION}`, code);
}

function requireFormat(args, expected) {
  const i = args.indexOf('--format');
  const got = i >= 0 ? args[i + 1] : undefined;
  if (got !== expected) fail(`fake docker: unsupported --format ${JSON.stringify(got)} (this fake knows ${JSON.stringify(expected)})`, 2);
}

function main(argv) {
  Promise.resolve()
    .then(() => dispatch(argv))
    .catch((e) => fail(`fake docker: ${e && e.stack ? e.stack : e}`, 1));
}

function dispatch(argv) {
  const dir = stateDir();
  fs.appendFileSync(path.join(dir, 'argv.jsonl'), `${JSON.stringify(argv)}\n`);
  const base = loadConfig(dir);
  let args = [...argv];
  let context;
  while (args[0] === '--context' || args[0] === '-c' || args[0]?.startsWith('--context=')) {
    if (args[0].startsWith('--context=')) {
      context = args[0].slice('--context='.length);
      args = args.slice(1);
    } else {
      context = args[1];
      args = args.slice(2);
    }
  }
  const ctxName = context ?? base.currentContext;
  if (!(ctxName in base.contexts)) fail(`context "${ctxName}" does not exist`, 1);
  const cfg = { ...base, ...(base.contextOverrides?.[ctxName] ?? {}) };
  const endpoint = cfg.contexts[ctxName];
  const env = { dir, cfg, context: ctxName, endpoint, remote: !/^(unix|npipe):\/\//.test(endpoint) };
  const [command, ...rest] = args;
  // A host that went away (or whose daemon is down behind ssh) answers nothing but the connection error.
  const hostDown = fs.existsSync(goneMarker(dir, ctxName)) || (env.remote && cfg.daemon === 'down');
  if (hostDown && !(command === 'context' && rest[0] === 'inspect')) {
    if (command === 'version') out(`${JSON.stringify({ Client: { Version: cfg.clientVersion, ApiVersion: '1.47' }, Server: null })}\n`);
    fail(unreachable(endpoint, command === 'version' ? '/version' : '/containers/json'), 1);
  }
  switch (command) {
    case 'version':
      requireFormat(rest, '{{json .}}');
      return cmdVersion(cfg);
    case 'info':
      requireDaemon(cfg);
      requireFormat(rest, '{"Runtimes":{{json .Runtimes}},"SecurityOptions":{{json .SecurityOptions}}}');
      return out(
        `${JSON.stringify({
          Runtimes: Object.fromEntries(cfg.runtimes.map((r) => [r, { path: r === 'nvidia' ? 'nvidia-container-runtime' : 'runc' }])),
          SecurityOptions: ['name=seccomp,profile=builtin', ...(cfg.rootless ? ['name=rootless'] : [])],
        })}\n`,
      );
    case 'context': {
      if (rest[0] !== 'inspect') fail(`fake docker: context ${rest[0]} is not mimicked`, 2);
      requireFormat(rest, '{{json .Endpoints.docker.Host}}');
      const named = rest.slice(1).filter((a, i, all) => a !== '--format' && all[i - 1] !== '--format');
      const name = named[0] ?? ctxName;
      if (!(name in cfg.contexts)) fail(`context "${name}" does not exist`, 1);
      return out(`${JSON.stringify(cfg.contexts[name])}\n`);
    }
    case 'image':
    case 'images': {
      requireDaemon(cfg);
      const sub = command === 'images' ? 'ls' : rest[0];
      if (sub === 'ls') {
        requireFormat(rest, '{{.Repository}}:{{.Tag}}');
        return out(cfg.images.map((i) => `${normalizeRef(i)}\n`).join(''));
      }
      if (sub === 'inspect') {
        requireFormat(rest, '{{.Id}} {{json .Config.Labels}}');
        const ref = rest[rest.length - 1];
        if (!cfg.images.map(normalizeRef).includes(normalizeRef(ref))) fail(`Error response from daemon: No such image: ${ref}`, 1);
        // Go's json of an image without labels is `null`, as docker prints it.
        const labels = (cfg.imageLabels ?? {})[normalizeRef(ref)] ?? null;
        return out(`sha256:${Buffer.from(normalizeRef(ref)).toString('hex').padEnd(64, '0').slice(0, 64)} ${JSON.stringify(labels)}\n`);
      }
      return fail(`fake docker: image ${sub} is not mimicked`, 2);
    }
    case 'run':
      return cmdRun(env, rest, true);
    case 'create':
      return cmdRun(env, rest, false);
    case 'start':
      return cmdStart(env, rest);
    case 'cp':
      return cmdCp(env, rest);
    case 'inspect': {
      requireDaemon(cfg);
      requireFormat(rest, '{{json .State}}');
      const rec = findRecord(dir, rest[rest.length - 1]);
      if (!rec) fail(`Error: No such object: ${rest[rest.length - 1]}`, 1);
      const r = refresh(dir, rec);
      return out(
        `${JSON.stringify({ Status: r.state, Running: r.state === 'running', OOMKilled: !!r.oomKilled, ExitCode: r.exitCode ?? 0, Pid: r.state === 'running' ? r.pid : 0 })}\n`,
      );
    }
    case 'ps':
      return cmdPs(env, rest);
    case 'kill':
      return cmdKill(env, rest, false);
    case 'rm':
      return cmdKill(env, rest, true);
    default:
      return fail(`fake docker: '${command}' is not mimicked`, 2);
  }
}

function cmdRun(env, args, start) {
  const { dir, cfg } = env;
  const command = start ? 'run' : 'create';
  const prefix = start ? 'docker: ' : '';
  const refusal = start ? 125 : 1;
  requireDaemon(cfg, prefix, refusal);
  const o = parseRunOptions(args, command);
  const name = o.name ?? `fake_${process.pid}`;
  const existing = readRecord(dir, name);
  if (existing) {
    fail(
      `${prefix}Error response from daemon: Conflict. The container name "/${name}" is already in use by container "${existing.id}". You have to remove (or rename) that container to be able to reuse that name.\n\nRun 'docker ${command} --help' for more information`,
      refusal,
    );
  }
  if (!cfg.images.map(normalizeRef).includes(normalizeRef(o.image))) {
    if (o.pull === 'never')
      fail(`${prefix}Error response from daemon: No such image: ${normalizeRef(o.image)}.\n\nRun 'docker ${command} --help' for more information`, refusal);
    fail(
      `Unable to find image '${normalizeRef(o.image)}' locally\n${prefix}Error response from daemon: pull access denied for ${o.image.split(':')[0]}, repository does not exist or may require 'docker login': denied: requested access to the resource is denied.\n\nRun 'docker ${command} --help' for more information`,
      refusal,
    );
  }
  for (const m of o.mounts) {
    // moby volume/mounts/linux_parser.go: a bind source must be absolute (checked before it must exist).
    if (m.type === 'bind' && m.source !== undefined && !path.isAbsolute(m.source)) {
      fail(
        `${prefix}Error response from daemon: invalid mount config for type "bind": invalid mount path: '${m.source}' mount path must be absolute\n\nRun 'docker ${command} --help' for more information`,
        refusal,
      );
    }
    // On a remote context the daemon resolves bind sources on ITS machine: ours do not exist there.
    if (m.type === 'bind' && (env.remote || !fs.existsSync(m.source))) {
      fail(
        `${prefix}Error response from daemon: invalid mount config for type "bind": bind source path does not exist: ${m.source}\n\nRun 'docker ${command} --help' for more information`,
        refusal,
      );
    }
  }
  const id = require('node:crypto').randomBytes(32).toString('hex');
  const root = path.join(dir, 'containers', `${name}.root`);
  fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
  const rec = {
    name,
    id,
    image: normalizeRef(o.image),
    labels: o.labels,
    mounts: o.mounts,
    env: o.env,
    user: o.user ?? null,
    workdir: o.workdir ?? '/',
    entrypoint: o.entrypoint ?? null,
    cmd: o.cmd,
    // `run --interactive`: the container's stdin is the client's (the parser bisection's requests).
    interactive: o.flags.includes('-i') || o.flags.includes('--interactive'),
    memory: o.memory ?? null,
    gpus: o.gpus ?? null,
    context: env.context,
    root,
    state: 'created',
    createdAt: new Date().toISOString(),
  };
  writeRecord(dir, rec);
  if (!start) return out(`${id}\n`);
  return startContainer(env, rec, 'docker: ', 125);
}

function cmdStart(env, args) {
  requireDaemon(env.cfg);
  const ref = args.filter((a) => !a.startsWith('-'))[0];
  if (!args.includes('--attach') && !args.includes('-a')) fail('fake docker: only `start --attach` is mimicked', 2);
  const rec = findRecord(env.dir, ref);
  if (!rec) fail(`Error response from daemon: No such container: ${ref}\nError: failed to start containers: ${ref}`, 1);
  return startContainer(env, rec, '', 1, `\nError: failed to start containers: ${ref}`);
}

function startContainer(env, rec, prefix, refusal, suffix = '') {
  const { dir, cfg } = env;
  if (rec.gpus && !cfg.runtimes.includes('nvidia')) {
    fail(
      `${prefix}Error response from daemon: could not select device driver "" with capabilities: [[gpu]].${suffix || "\n\nRun 'docker run --help' for more information"}`,
      refusal,
    );
  }
  const entry = rec.entrypoint ? [rec.entrypoint, ...rec.cmd] : rec.cmd;
  if (entry.length === 0) fail(`${prefix}Error response from daemon: no command specified${suffix}`, refusal);
  const program = entry[0] === 'python3' || entry[0] === 'python' ? cfg.python : null;
  if (!program) {
    updateRecord(dir, rec.name, { state: 'exited', exitCode: 127 });
    fail(
      `${prefix}Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "${entry[0]}": executable file not found in $PATH: unknown`,
      127,
    );
  }
  const containerEnv = {};
  for (const e of rec.env) {
    const k = e.indexOf('=');
    if (k > 0) containerEnv[e.slice(0, k)] = e.slice(k + 1);
  }
  if (containerEnv.HOME) {
    containerEnv.HOME = hostPathOf(rec, containerEnv.HOME);
    fs.mkdirSync(containerEnv.HOME, { recursive: true });
  }
  const childEnv = {
    PATH: process.env.PATH,
    ...containerEnv,
    PYTHONPATH: path.join(REPO, 'test', 'fakes', 'python'),
    PYTHONDONTWRITEBYTECODE: '1',
    HAILO_FAKE_DFC: cfg.scenario ?? '',
    HAILO_FAKE_DFC_CALLS: path.join(dir, 'calls.jsonl'),
    HAILO_FAKE_REPO: REPO,
    // So the fake DFC records the paths the driver would see inside a real container.
    HAILO_FAKE_MOUNTS: JSON.stringify([...rec.mounts.map((m) => [m.source, m.target]), [rec.root, '']]),
  };
  const cwd = hostPathOf(rec, rec.workdir);
  if (!fs.existsSync(cwd)) {
    updateRecord(dir, rec.name, { state: 'exited', exitCode: 128 });
    fail(
      `${prefix}Error response from daemon: failed to create task: chdir to cwd ("${rec.workdir}") set in config.json failed: no such file or directory${suffix}`,
      refusal,
    );
  }
  const child = spawn(
    program,
    // A container path is an argument of its own or the value of `--option=/path` (the driver's form).
    entry
      .slice(1)
      .map((a) => (/^--[\w-]+=\//.test(a) ? `${a.slice(0, a.indexOf('=') + 1)}${hostPathOf(rec, a.slice(a.indexOf('=') + 1))}` : hostPathOf(rec, a))),
    { cwd, env: childEnv, stdio: [rec.interactive ? 'inherit' : 'ignore', 'pipe', 'pipe'] },
  );
  child.stdout.pipe(process.stdout);
  child.stderr.pipe(process.stderr);
  updateRecord(dir, rec.name, { state: 'running', pid: child.pid, runnerPid: process.pid, startedAt: new Date().toISOString() });
  child.on('error', (e) => {
    updateRecord(dir, rec.name, { state: 'exited', exitCode: 127 });
    fail(`${prefix}fake docker: cannot start ${program}: ${e.message}`, 127);
  });
  let vanished = false;
  if (typeof cfg.vanishAfterMs === 'number') {
    setTimeout(() => {
      // The host goes away: the connection drops (nothing more arrives), the context stops answering.
      vanished = true;
      fs.mkdirSync(path.join(dir, 'gone'), { recursive: true });
      fs.writeFileSync(goneMarker(dir, env.context), new Date().toISOString());
      child.stdout.unpipe();
      child.stderr.unpipe();
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, cfg.vanishAfterMs);
  }
  child.on('close', (code, signal) => {
    if (vanished) {
      // docker/cli waitExitOrRemoved: the wait fails with the connection; the client exits 125.
      err('error waiting for container: EOF\n');
      process.exitCode = 125;
      return;
    }
    const signals = { SIGKILL: 9, SIGTERM: 15, SIGINT: 2 };
    const exitCode = code ?? 128 + (signals[signal] ?? 1);
    const final = updateRecord(dir, rec.name, (r) => ({
      state: 'exited',
      exitCode,
      // SIGKILL nobody asked for (no kill/rm): the kernel's OOM killer, as docker reports it.
      oomKilled: signal === 'SIGKILL' && !r.killRequested,
    }));
    process.exitCode = final ? exitCode : 137;
  });
}

function cmdKill(env, args, remove) {
  const { dir, cfg } = env;
  requireDaemon(cfg);
  const force = args.includes('--force') || args.includes('-f');
  const refs = args.filter((a) => !a.startsWith('-'));
  let code = 0;
  for (const ref of refs) {
    const rec = findRecord(dir, ref);
    if (!rec) {
      err(`Error response from daemon: No such container: ${ref}\n`);
      code = 1;
      continue;
    }
    const r = refresh(dir, rec);
    if (r.state === 'running') {
      if (remove && !force) {
        err(`Error response from daemon: cannot remove container "/${r.name}": container is running: stop the container before removing or force remove\n`);
        code = 1;
        continue;
      }
      updateRecord(dir, r.name, { killRequested: true });
      // `rm --force` of a running container: docker marks it for removal before killing it, and the
      // attached client learns of the exit after that; here the record goes first, so an `inspect`
      // after the run's exit finds no such object (the order a real run most often sees).
      if (remove) fs.rmSync(recordPath(dir, r.name), { force: true });
      try {
        process.kill(r.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
      const until = Date.now() + 5000;
      while (alive(r.pid) && Date.now() < until) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    } else if (!remove) {
      err(`Error response from daemon: cannot kill container: ${r.name}: container ${r.id} is not running\n`);
      code = 1;
      continue;
    }
    if (remove) {
      fs.rmSync(recordPath(dir, r.name), { force: true });
      fs.rmSync(r.root, { recursive: true, force: true });
    }
    out(`${ref}\n`);
  }
  process.exitCode = code;
}

function cmdPs(env, args) {
  const { dir, cfg } = env;
  requireDaemon(cfg);
  const all = args.includes('--all') || args.includes('-a');
  const filters = [];
  for (let i = 0; i < args.length; i++) if (args[i] === '--filter' || args[i] === '-f') filters.push(args[++i]);
  requireFormat(
    args,
    '{{.ID}}\t{{.Names}}\t{{.State}}\t{{.Label "dev.hailo-tools.owner"}}\t{{.Label "dev.hailo-tools.staging"}}\t{{.Label "dev.hailo-tools.model"}}',
  );
  for (const rec of allRecords(dir)) {
    const r = refresh(dir, rec);
    if (r.context !== env.context) continue; // each docker host has its own containers
    if (!all && r.state !== 'running') continue;
    const ok = filters.every((f) => {
      if (!f.startsWith('label=')) fail(`fake docker: filter ${f} is not mimicked`, 2);
      const want = f.slice(6);
      const k = want.indexOf('=');
      return k < 0 ? want in r.labels : r.labels[want.slice(0, k)] === want.slice(k + 1);
    });
    const label = (k) => r.labels[`dev.hailo-tools.${k}`] ?? '';
    if (ok) out(`${r.id.slice(0, 12)}\t${r.name}\t${r.state}\t${label('owner')}\t${label('staging')}\t${label('model')}\n`);
  }
}

async function cmdCp(env, args) {
  const { dir, cfg } = env;
  requireDaemon(cfg);
  const [src, dst] = args.filter((a) => a !== '-a' && a !== '--archive' && a !== '-L');
  const split = (s) => {
    const k = s.indexOf(':');
    return k > 0 ? [s.slice(0, k), s.slice(k + 1)] : [undefined, s];
  };
  if (src === '-') {
    const [ref, into] = split(dst);
    const rec = ref && findRecord(dir, ref);
    if (!rec) fail(`Error response from daemon: No such container: ${ref}`, 1);
    const base = hostPathOf(rec, into);
    if (!fs.existsSync(base)) fail(`Error response from daemon: Could not find the file ${into} in container ${ref}`, 1);
    const extract = tar.extract();
    extract.on('entry', (header, stream, next) => {
      const target = path.join(base, header.name);
      if (!target.startsWith(base)) return fail('fake docker: archive entry leaves the destination', 1);
      if (header.type === 'directory') {
        fs.mkdirSync(target, { recursive: true, mode: header.mode });
        stream.resume();
        stream.on('end', next);
      } else {
        fs.mkdirSync(path.dirname(target), { recursive: true });
        pipeline(stream, fs.createWriteStream(target, { mode: header.mode })).then(() => next(), next);
      }
    });
    await pipeline(process.stdin, extract);
    return;
  }
  if (dst === '-') {
    const [ref, from] = split(src);
    const rec = ref && findRecord(dir, ref);
    if (!rec) fail(`Error response from daemon: No such container: ${ref}`, 1);
    const hostDir = hostPathOf(rec, from);
    if (!fs.existsSync(hostDir)) fail(`Error response from daemon: Could not find the file ${from} in container ${ref}`, 1);
    const pack = tar.pack();
    const top = path.posix.basename(from);
    const done = pipeline(pack, process.stdout);
    const walk = (hostPath, name) => {
      const st = fs.statSync(hostPath);
      if (st.isDirectory()) {
        pack.entry({ name: `${name}/`, type: 'directory', mode: st.mode & 0o7777 });
        for (const child of fs.readdirSync(hostPath).sort()) walk(path.join(hostPath, child), `${name}/${child}`);
      } else pack.entry({ name, size: st.size, mode: st.mode & 0o7777 }, fs.readFileSync(hostPath));
    };
    walk(hostDir, top);
    pack.finalize();
    await done;
    return;
  }
  fail('fake docker: only `cp - CONTAINER:PATH` and `cp CONTAINER:PATH -` are mimicked', 2);
}

module.exports = { main, csvFields };
