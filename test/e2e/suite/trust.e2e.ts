// Workspace trust as the extension sees it: the driver runs the suite once trusted and once in
// Restricted Mode; the extension must activate (limited support) in both, and a command that
// executes a program must run only in the trusted one.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { expectUntrusted, hailoExtension, workspaceRoot } from './host';

interface CheckDockerResult {
  ran: boolean;
  reason?: string;
  level?: string;
  message?: string;
}

describe('workspace trust', () => {
  it(`the folder is ${expectUntrusted ? 'untrusted (Restricted Mode)' : 'trusted'}`, () => {
    assert.equal(vscode.workspace.isTrusted, !expectUntrusted);
  });

  if (expectUntrusted) {
    it('Hailo: Check Docker Setup is refused without starting docker', async () => {
      await hailoExtension().activate();
      const result = await vscode.commands.executeCommand<CheckDockerResult>('hailo.checkDocker');
      assert.deepEqual(result, { ran: false, reason: 'untrusted' });
    });

    it("a folder's path setting for a model file is ignored in Restricted Mode (restrictedConfigurations)", () => {
      // The driver's workspace sets hailo.model.calibrationSet to /etc/passwd (test/e2e/build.mjs).
      assert.equal(vscode.workspace.getConfiguration('hailo').get<string>('model.calibrationSet'), '');
    });
  } else {
    it("a folder's .vscode/settings.json cannot choose the docker program (machine scope)", async () => {
      // The driver's workspace sets hailo.dfc.dockerPath to a script that leaves a marker.
      // (The user settings name the fake docker CLI; the folder's try is ignored.)
      const inspected = vscode.workspace.getConfiguration('hailo').inspect<string>('dfc.dockerPath');
      assert.equal(vscode.workspace.getConfiguration('hailo').get<string>('dfc.dockerPath'), process.env.HAILO_E2E_FAKE_DOCKER);
      assert.equal(inspected?.workspaceValue, undefined, 'VS Code ignores a machine-scoped key in workspace settings');
      // The same for the extra docker run arguments (machine-scoped: they change what runs).
      assert.deepEqual(vscode.workspace.getConfiguration('hailo').get<string[]>('dfc.extraRunArgs'), []);
      assert.equal(vscode.workspace.getConfiguration('hailo').inspect<string[]>('dfc.extraRunArgs')?.workspaceValue, undefined);
      await hailoExtension().activate();
      const result = await vscode.commands.executeCommand<CheckDockerResult>('hailo.checkDocker');
      assert.equal(result?.ran, true);
      assert.equal(existsSync(join(workspaceRoot().fsPath, 'e2e-fixtures', 'EVIL-DOCKER-RAN')), false, 'the workspace-chosen program never ran');
    });

    it("a folder's model path setting is honoured by VS Code once trusted (the extension confines it itself)", () => {
      assert.equal(vscode.workspace.getConfiguration('hailo').get<string>('model.calibrationSet'), '/etc/passwd');
    });

    it('Hailo: Check Docker Setup runs docker and reports what it found', async () => {
      await hailoExtension().activate();
      const result = await vscode.commands.executeCommand<CheckDockerResult>('hailo.checkDocker');
      assert.equal(result?.ran, true);
      // Whatever this machine has (no docker, a stopped daemon, no Hailo image, a ready image),
      // the user gets one sentence that starts with what was found.
      assert.match(result?.message ?? '', /^(Docker|Running)/);
    });
  }
});
