// The packaged extension loads in a real VS Code and activates when a user opens an .alls file.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { eventually, hailoExtension, openInEditor, workspaceFile, deadlineMs } from './host';

describe('packaged extension', () => {
  it('runs from the .vsix contents: bundles, no sources or node_modules', () => {
    const ext = hailoExtension();
    const root = ext.extensionPath;
    assert.ok(existsSync(join(root, 'dist', 'client.js')), 'dist/client.js is packaged');
    assert.ok(existsSync(join(root, 'dist', 'server.js')), 'dist/server.js is packaged');
    for (const absent of ['client', 'server', 'test', 'node_modules', 'tsconfig.json', 'esbuild.mjs']) {
      assert.ok(!existsSync(join(root, absent)), `${absent} must not be in the .vsix (found in ${readdirSync(root).join(', ')})`);
    }
  });

  it('activates when an .alls file is opened, with the document in the alls language', async () => {
    const editor = await openInEditor(workspaceFile('e2e-fixtures', 'e2e-minimal.alls'));
    assert.equal(editor.document.languageId, 'alls');
    const ext = hailoExtension();
    await eventually(() => (ext.isActive ? true : undefined), deadlineMs(), 'the Hailo extension to activate');
    assert.ok((await vscode.languages.getLanguages()).includes('alls'));
  });
});
