// Workspace trust as the extension sees it: the driver runs the suite once trusted and once in
// Restricted Mode; the extension must activate (limited support) in both, and a command that
// executes a program must run only in the trusted one.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { expectUntrusted, hailoExtension } from './host';

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
  } else {
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
