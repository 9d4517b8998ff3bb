// The CLI people install: `npm pack` → `npm install -g ./hailo-tools-*.tgz` (into a temp prefix)
// gives a `hailo-tools` that runs the README's examples from the installed package, starts the
// language server, and ends quietly when its reader goes away (`… | head`). The package needs no
// runtime dependency (every bundle is self-contained), and every package the sources import is
// declared in package.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../helpers/shared';
import { stripComments } from '../../helpers/securityScan';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

function importedPackages(): Map<string, string> {
  const builtins = new Set(builtinModules);
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (['node_modules', 'out', 'dist', 'fixtures'].includes(name) || name.startsWith('.')) continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|mts|mjs|js|cjs)$/.test(name)) {
        for (const m of stripComments(readFileSync(p, 'utf8')).matchAll(
          // `from` only in an import/export statement: a log line in a test ("choose from 'hailo8'") is not an import
          /(?:^\s*(?:import|export)\b[^;'"]*?\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"./][^'"]*)['"]/gm,
        )) {
          const spec = m[1];
          if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(\/[\w./-]*)?$/.test(spec)) continue; // not a package specifier
          if (spec.startsWith('node:') || builtins.has(spec.split('/')[0]) || spec.startsWith('@hailo/') || spec === 'vscode') continue;
          const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
          if (!found.has(name)) found.set(name, p.slice(repoRoot.length + 1));
        }
      }
    }
  };
  for (const d of ['server', 'client', 'test', 'bench', 'scripts', 'bin']) walk(join(repoRoot, d));
  return found;
}

test('package: every package the sources import is declared; none is a runtime dependency (the bundles carry them)', () => {
  const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]);
  const undeclared = [...importedPackages()].filter(([name]) => !declared.has(name)).map(([name, file]) => `${name} (${file})`);
  assert.deepEqual(undeclared, []);
  // `vscode` is the extension host's own module; its types are @types/vscode.
  assert.deepEqual(Object.keys(pkg.dependencies ?? {}), [], 'dist/*.js require only Node built-ins (bundles test), so the installed CLI needs no dependency');
});

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

test('package: npm pack → npm install -g in a temp prefix gives a working hailo-tools', { timeout: 240_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'hailo-pack-'));
  try {
    // dist/ is built (test/run.mjs builds first); --ignore-scripts keeps pack from rebuilding it.
    const pack = spawnSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
    assert.equal(pack.status, 0, pack.stderr);
    const [{ filename, files }] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
    const paths = files.map((f) => f.path);
    for (const needed of ['bin/hailo-tools.js', 'dist/cli.js', 'dist/server.js', 'examples/qwen3vl-vision-encoder.hef', 'README.md', 'LICENSE'])
      assert.ok(paths.includes(needed), `${needed} in the package`);
    assert.deepEqual(
      paths.filter((p) => /^(server|client|test|bench)\/|\.map$|^node_modules\//.test(p)),
      [],
      'no sources, maps or node_modules',
    );

    const prefix = join(tmp, 'prefix');
    // From the temp folder, so the project's .npmrc plays no part; no registry is needed (no dependencies).
    const install = spawnSync(npm, ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', join(tmp, filename)], {
      cwd: tmp,
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(install.status, 0, install.stderr);
    const bin = join(prefix, process.platform === 'win32' ? 'hailo-tools.cmd' : join('bin', 'hailo-tools'));
    const installed = join(prefix, process.platform === 'win32' ? '' : 'lib', 'node_modules', pkg.name);
    const run = (...args: string[]) => spawnSync(bin, args, { cwd: tmp, encoding: 'utf8', timeout: 60_000 });

    const help = run('--help');
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /usage: hailo-tools <command>/);
    const good = run('check', join(installed, 'examples', 'good'));
    assert.equal(good.status, 0, good.stdout + good.stderr);
    assert.match(good.stdout, /5 files checked: 0 errors/);
    const broken = run('check', '--json', join(installed, 'examples', 'broken'));
    assert.equal(broken.status, 1);
    assert.ok((JSON.parse(broken.stdout) as { summary: { errors: number } }).summary.errors > 0);
    const hef = run('hef', '--mtmd', join(installed, 'examples', 'qwen3vl-vision-encoder.hef'));
    assert.equal(hef.status, 0, hef.stdout + hef.stderr);
    const lsp = run('lsp');
    assert.equal(lsp.status, 2);
    assert.match(lsp.stderr, /no transport given/);
    // `lsp --stdio` (cli-lsp.js loading server.js beside it) answers an editor's initialize.
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
    const exit = JSON.stringify({ jsonrpc: '2.0', method: 'exit' });
    const framed = (m: string) => `Content-Length: ${Buffer.byteLength(m)}\r\n\r\n${m}`;
    const server = spawn(bin, ['lsp', '--stdio'], { cwd: tmp, stdio: ['pipe', 'pipe', 'pipe'] });
    let answer = '';
    let stderr = '';
    server.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const initialized = new Promise<string>((resolve, reject) => {
      server.stdout.on('data', (d: Buffer) => {
        answer += d.toString('utf8');
        if (/"capabilities"/.test(answer)) resolve(answer);
      });
      server.on('exit', (code) => reject(new Error(`lsp --stdio exited ${code} before answering: ${stderr}`)));
    });
    server.stdin.write(framed(init));
    assert.match(await initialized, /"id":1,"result":\{"capabilities":/);
    server.stdin.write(framed(exit));
    await new Promise((resolve) => server.on('exit', resolve));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('cli: a reader that goes away (`hailo-tools check --json … | head`) ends it quietly', async () => {
  // 400 broken scripts: far more JSON than a pipe holds; the reader takes the first chunk and closes.
  const dir = mkdtempSync(join(tmpdir(), 'hailo-epipe-'));
  const script = readFileSync(join(repoRoot, 'examples', 'broken', 'typos.alls'));
  for (let i = 0; i < 400; i++) writeFileSync(join(dir, `s${i}.alls`), script);
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'check', '--json', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  rmSync(dir, { recursive: true, force: true });
  assert.equal(stderr, '', 'no EPIPE stack trace');
  assert.ok(code === 0 || code === 1, `exit ${code}: an ordinary exit status, not a crash`);
});

test('cli: a command loads the dispatcher and its own bundle, nothing of the other commands', () => {
  // A preload prints, at exit, the files of dist/ the process compiled (require.cache).
  const dir = mkdtempSync(join(tmpdir(), 'hailo-load-'));
  const preload = join(dir, 'loaded.js');
  writeFileSync(
    preload,
    `process.on('exit', () => process.stderr.write('##loaded ' + JSON.stringify(Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(join(repoRoot, 'dist'))}))) + '\\n'));`,
  );
  try {
    const loaded = (...args: string[]) => {
      const r = spawnSync(process.execPath, ['-r', preload, join(repoRoot, 'bin', 'hailo-tools.js'), ...args], { encoding: 'utf8', timeout: 60_000 });
      const line = r.stderr.split('\n').find((l) => l.startsWith('##loaded '));
      assert.ok(line, r.stderr);
      return (JSON.parse(line.slice(9)) as string[]).map((f) => f.slice(repoRoot.length + 1)).sort();
    };
    assert.deepEqual(loaded('hef', join(repoRoot, 'examples', 'qwen3vl-vision-encoder.hef')), ['dist/cli-hef.js', 'dist/cli.js']);
    assert.deepEqual(loaded('check', join(repoRoot, 'examples', 'good')), ['dist/cli-check.js', 'dist/cli.js']);
    assert.deepEqual(loaded('--help'), ['dist/cli.js']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
