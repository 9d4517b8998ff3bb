// One list of settings and one list of architectures: package.json's `contributes.configuration`
// must declare exactly the `hailo.*` keys of common/settings.ts with the same scope, default and
// enum (hwArch's enum is common/arch.ts's HW_ARCHES), and the reader turns raw, untrusted
// sections (VS Code's nested objects, flat dotted keys, junk) into typed settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HW_ARCHES, archesOfHefArch, archFamily } from '../../../server/src/core/common/arch';
import { DEFAULT_SETTINGS, SETTINGS, resolveSettings } from '../../../server/src/core/common/settings';
import { repoRoot } from '../../helpers/shared';

interface Property {
  scope?: string;
  default?: unknown;
  enum?: string[];
}
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Property> } | { properties: Record<string, Property> }[] };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
};
const properties: Record<string, Property> = Object.assign({}, ...[manifest.contributes.configuration].flat().map((c) => c.properties));

test('settings: package.json declares exactly the settings of common/settings.ts (key, scope, default, enum)', () => {
  const declared = Object.keys(properties)
    .filter((k) => k.startsWith('hailo.'))
    .sort();
  assert.deepEqual(declared, SETTINGS.map((s) => `hailo.${s.key}`).sort());
  for (const s of SETTINGS) {
    const p = properties[`hailo.${s.key}`];
    assert.equal(p.scope, s.scope, `hailo.${s.key} scope`);
    assert.deepEqual(p.default, s.default, `hailo.${s.key} default`);
    assert.deepEqual(p.enum, s.enum ? [...s.enum] : undefined, `hailo.${s.key} enum`);
  }
});

test('settings: every path setting a folder can set is restricted (Restricted Mode ignores a folder value), the model files included', () => {
  const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
  const folderSettable = SETTINGS.filter((s) => s.path && s.scope !== 'machine' && s.scope !== 'application').map((s) => `hailo.${s.key}`);
  // Issue 18: the four model files a cloned .vscode/settings.json can point anywhere, read by the server in Restricted Mode.
  for (const key of ['hailo.model.har', 'hailo.model.onnx', 'hailo.model.calibrationSet', 'hailo.model.labels']) assert.ok(folderSettable.includes(key), key);
  for (const key of folderSettable) assert.ok(restricted.includes(key), `${key} is not in restrictedConfigurations`);
});

test('settings: the hwArch enum is the architecture list, and every architecture has a family', () => {
  assert.deepEqual(properties['hailo.hwArch'].enum, [...HW_ARCHES]);
  for (const a of HW_ARCHES) assert.ok(archFamily(a), a);
  assert.equal(archFamily('hailo9'), undefined);
});

test('settings: the defaults are what package.json says', () => {
  const get = (key: string) => key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], DEFAULT_SETTINGS);
  for (const s of SETTINGS) assert.deepEqual(get(s.key), s.default, s.key);
});

test('settings: nested and flat dotted keys read alike; invalid values fall back to the default', () => {
  const nested = resolveSettings({ hwArch: ' Hailo8L ', model: { har: 'm.har' }, hef: { inlineChecks: 'always' }, mtmd: { textModelWidth: 2048 } });
  const flat = resolveSettings({ hwArch: 'hailo8l', 'model.har': 'm.har', 'hef.inlineChecks': 'always', 'mtmd.textModelWidth': 2048 });
  assert.deepEqual(nested, flat);
  assert.equal(nested.hwArch, 'hailo8l');
  assert.equal(nested.model.har, 'm.har');
  assert.equal(nested.hef.inlineChecks, 'always');
  assert.equal(nested.mtmd.textModelWidth, 2048);
  const junk = resolveSettings({
    hwArch: 42,
    hef: { inlineChecks: 'sometimes' },
    mtmd: { textModelWidth: 1.5 },
    model: ['x'],
    __proto__: { hwArch: 'hailo8' },
  });
  assert.deepEqual(junk, DEFAULT_SETTINGS);
  assert.deepEqual(resolveSettings(null), DEFAULT_SETTINGS);
  assert.deepEqual(resolveSettings('hailo8'), DEFAULT_SETTINGS);
});

test('arch: HEF hw_arch values map to the architectures HailoRT accepts them on (hef-format.md)', () => {
  assert.deepEqual(archesOfHefArch(1), ['hailo8']); // HAILO8P: what real Hailo-8 HEFs carry
  assert.deepEqual(archesOfHefArch(3), ['hailo8l']);
  assert.deepEqual(archesOfHefArch(103), ['hailo10h', 'hailo15h']); // HAILO1XH: real Hailo-10H HEFs
  assert.deepEqual(archesOfHefArch(6), ['hailo15l']);
  assert.deepEqual(archesOfHefArch(100), []); // SAGE_A0: internal
});
