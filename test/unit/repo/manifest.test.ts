// The extension manifest (package.json) and the packaged .vsix: settings are described and
// scoped (executables machine-scoped and restricted in untrusted folders), commands are titled and
// registered, the walkthrough's files exist, the icon is a 128×128 PNG, the .vsix holds the
// self-contained bundles and nothing of the sources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, skipUnless } from '../../helpers/shared';
import { sourceFiles } from '../../helpers/securityScan';

interface Setting {
  description?: string;
  markdownDescription?: string;
  scope?: string;
  type?: string | string[];
}
interface Command {
  command: string;
  title: string;
  category?: string;
}
interface WalkthroughStep {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string | Record<string, string>; svg?: string };
  completionEvents?: string[];
}
interface Manifest {
  name: string;
  publisher: string;
  icon?: string;
  extensionKind?: string[];
  capabilities?: { untrustedWorkspaces?: { supported: boolean | 'limited'; description?: string; restrictedConfigurations?: string[] } };
  contributes: {
    configuration: { properties: Record<string, Setting> } | { properties: Record<string, Setting> }[];
    commands?: Command[];
    walkthroughs?: { id: string; title: string; steps: WalkthroughStep[] }[];
    customEditors?: unknown[];
  };
}

const manifest: Manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const settings: Record<string, Setting> = Object.assign({}, ...[manifest.contributes.configuration].flat().map((c) => c.properties));

/**
 * A setting names an executable when its key says so (…Path, …Executable, …Command) and it is
 * a string. Such a value decides which program runs: only the user may set it.
 */
export function namesExecutable(key: string, s: Setting): boolean {
  const types = [s.type ?? []].flat();
  return /(Path|Executable|Command)$/.test(key) && types.includes('string');
}

test('manifest: the executable-naming rule recognises executables (positive controls)', () => {
  assert.equal(namesExecutable('hailo.dfc.dockerPath', { type: 'string' }), true);
  assert.equal(namesExecutable('hailo.hailortExecutable', { type: ['string', 'null'] }), true);
  assert.equal(namesExecutable('hailo.compileCommand', { type: 'string' }), true);
  assert.equal(namesExecutable('hailo.hwArch', { type: 'string' }), false);
  assert.equal(namesExecutable('hailo.searchPathCount', { type: 'number' }), false);
});

test('manifest: every setting has a description and an explicit scope', () => {
  const keys = Object.keys(settings);
  assert.ok(keys.length > 0);
  for (const [key, s] of Object.entries(settings)) {
    assert.ok((s.description ?? s.markdownDescription ?? '').length >= 20, `${key} needs a description`);
    assert.ok(
      ['application', 'machine', 'machine-overridable', 'window', 'resource', 'language-overridable'].includes(s.scope ?? ''),
      `${key} needs a scope (has ${s.scope})`,
    );
    assert.ok(key.startsWith('hailo.'), `${key} must live under hailo.`);
  }
});

test('manifest: settings that name an executable are machine-scoped and restricted in untrusted folders', () => {
  const restricted = manifest.capabilities?.untrustedWorkspaces?.restrictedConfigurations ?? [];
  for (const [key, s] of Object.entries(settings)) {
    if (!namesExecutable(key, s)) continue;
    assert.equal(s.scope, 'machine', `${key} names an executable: scope must be "machine" so a workspace cannot set it`);
    assert.ok(restricted.includes(key), `${key} must be listed in capabilities.untrustedWorkspaces.restrictedConfigurations`);
  }
  for (const key of restricted) assert.ok(settings[key], `restrictedConfigurations names ${key}, which is not a setting`);
});

test('manifest: limited support for untrusted workspaces is declared and explained', () => {
  const u = manifest.capabilities?.untrustedWorkspaces;
  assert.equal(u?.supported, 'limited');
  assert.match(u?.description ?? '', /Restricted Mode/);
});

test('manifest: the extension runs where the files are (workspace extension kind)', () => {
  assert.deepEqual(manifest.extensionKind, ['workspace']);
});

test('manifest: every command has a title, the Hailo category, and a registration in the sources', () => {
  const commands = manifest.contributes.commands ?? [];
  assert.ok(commands.length > 0);
  const sources = sourceFiles(repoRoot, ['client/src', 'server/src'])
    .map((f) => f.text)
    .join('\n');
  for (const c of commands) {
    assert.ok(c.command.startsWith('hailo.'), c.command);
    assert.ok(c.title.length > 3, `${c.command} needs a title`);
    assert.equal(c.category, 'Hailo', `${c.command}: category "Hailo" puts it under "Hailo:" in the palette`);
    assert.ok(sources.includes(`'${c.command}'`) || sources.includes(`"${c.command}"`), `${c.command} is contributed but never registered`);
  }
});

test('manifest: the walkthrough points at existing files and commands', () => {
  const walkthroughs = manifest.contributes.walkthroughs ?? [];
  assert.ok(walkthroughs.length > 0, 'a walkthrough is contributed');
  const commandIds = new Set((manifest.contributes.commands ?? []).map((c) => c.command));
  for (const w of walkthroughs) {
    assert.ok(w.steps.length >= 3, `${w.id} has ${w.steps.length} steps`);
    for (const step of w.steps) {
      const media = [step.media.markdown, step.media.svg, ...[step.media.image ?? []].flatMap((i) => (typeof i === 'string' ? [i] : Object.values(i)))].filter(
        Boolean,
      ) as string[];
      assert.ok(media.length > 0, `${step.id} has media`);
      for (const file of media) assert.ok(existsSync(join(repoRoot, file)), `${step.id}: ${file} is missing`);
      for (const m of step.description.matchAll(/\(command:([\w.]+)/g)) {
        assert.ok(commandIds.has(m[1]) || m[1].startsWith('workbench.'), `${step.id} links to unknown command ${m[1]}`);
      }
      for (const ev of step.completionEvents ?? []) {
        const cmd = /^onCommand:(.+)$/.exec(ev)?.[1];
        if (cmd) assert.ok(commandIds.has(cmd), `${step.id} completes on unknown command ${cmd}`);
      }
    }
  }
});

test('manifest: the icon is a 128×128 PNG', () => {
  assert.ok(manifest.icon, 'icon is set');
  const png = readFileSync(join(repoRoot, manifest.icon!));
  assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], 'PNG signature');
  assert.equal(png.readUInt32BE(16), 128, 'width');
  assert.equal(png.readUInt32BE(20), 128, 'height');
});

test('manifest: README, CHANGELOG, LICENSE and SECURITY.md exist', () => {
  for (const f of ['README.md', 'CHANGELOG.md', 'LICENSE', 'SECURITY.md']) assert.ok(existsSync(join(repoRoot, f)), f);
  assert.match(readFileSync(join(repoRoot, 'LICENSE'), 'utf8'), /^MIT License/);
});

/** Modules a bundle loads at run time with require("…"). */
function requiresOf(bundle: string): string[] {
  return [...new Set([...bundle.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]))];
}

test('bundles: dist/*.js load only Node built-ins (and vscode in the client)', (t) => {
  const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
  // The CLI is a dispatcher (cli.js) and one bundle per sub-command (cli-<module>.js, esbuild.mjs).
  const cli = existsSync(join(repoRoot, 'dist')) ? readdirSync(join(repoRoot, 'dist')).filter((n) => /^cli(-[\w-]+)?\.js$/.test(n)) : [];
  for (const [name, allowed] of [['client.js', ['vscode']], ['server.js', []], ...cli.map((n) => [n, []] as const)] as const) {
    const file = join(repoRoot, 'dist', name);
    const reason = skipUnless(existsSync(file), `dist/${name} (node esbuild.mjs; test/run.mjs builds it)`);
    if (reason) return t.skip(reason);
    const foreign = requiresOf(readFileSync(file, 'utf8')).filter((m) => !builtins.has(m) && !(allowed as readonly string[]).includes(m));
    const missingRelative = foreign.filter((m) => m.startsWith('.') && !existsSync(join(repoRoot, 'dist', m)));
    const packages = foreign.filter((m) => !m.startsWith('.'));
    assert.deepEqual(packages, [], `dist/${name} requires packages that the .vsix does not ship (it has no node_modules)`);
    assert.deepEqual(missingRelative, [], `dist/${name} requires files missing from dist/`);
  }
});

test('vsix: `vsce ls` packages the bundles, grammar, snippets, media and docs, and no sources', (t) => {
  const reason = skipUnless(existsSync(join(repoRoot, 'dist', 'client.js')), 'dist/ (node esbuild.mjs; test/run.mjs builds it)');
  if (reason) return t.skip(reason);
  const vsce = join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const r = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const files = r.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  for (const needed of [
    'package.json',
    'dist/client.js',
    'dist/server.js',
    'README.md',
    'CHANGELOG.md',
    'LICENSE',
    'SECURITY.md',
    'media/icon.png',
    'language-configuration.json',
  ]) {
    assert.ok(files.includes(needed), `${needed} is not packaged:\n${files.join('\n')}`);
  }
  assert.ok(
    files.some((f) => f.startsWith('syntaxes/')),
    'grammar packaged',
  );
  assert.ok(
    files.some((f) => f.startsWith('snippets/')),
    'snippets packaged',
  );
  // The native bridge is compiled on the user's machine from dist/native: every source and header
  // it includes must be in the .vsix (a missing shim_common.hpp broke Run on Device and the chat).
  for (const f of readdirSync(join(repoRoot, 'native')).filter((n) => /\.(cpp|hpp|h)$/.test(n))) {
    assert.ok(files.includes(`dist/native/${f}`), `dist/native/${f} is not packaged: the shim cannot be compiled from the .vsix`);
  }
  const leaked = files.filter(
    (f) => /^(client|server|test|bench|native|scripts|node_modules|out|examples)\//.test(f) || /\.(ts|map|mjs)$/.test(f) || f.startsWith('.'),
  );
  assert.deepEqual(leaked, [], 'sources, tests, maps or dotfiles in the .vsix');
});
