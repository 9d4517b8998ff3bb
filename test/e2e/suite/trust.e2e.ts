// Workspace trust as the extension sees it: the driver runs the suite once trusted and once in
// Restricted Mode; the extension must activate (limited support) in both.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { expectUntrusted } from './host';

describe('workspace trust', () => {
  it(`the folder is ${expectUntrusted ? 'untrusted (Restricted Mode)' : 'trusted'}`, () => {
    assert.equal(vscode.workspace.isTrusted, !expectUntrusted);
  });
});
