// Hailo: Check Setup in a real VS Code: the command runs the setup doctor over this machine and
// the workspace folder and shows its report as a read-only Markdown document (hailo-setup:).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, expectUntrusted, hailoExtension, deadlineMs } from './host';

describe('Hailo: Check Setup', () => {
  it('shows one table of the installed pieces and the findings, from the command palette command', async () => {
    const ext = hailoExtension();
    if (!ext.isActive) await ext.activate();
    await vscode.commands.executeCommand('hailo.checkSetup');
    const uri = vscode.Uri.from({ scheme: 'hailo-setup', path: '/Hailo Setup.md' });
    const text = await eventually(
      async () => {
        const t = (await vscode.workspace.openTextDocument(uri)).getText();
        return t.startsWith('# Hailo: Check Setup') ? t : undefined;
      },
      deadlineMs(),
      'the Check Setup report',
    );
    assert.match(text, /\n\| component \| version \| where \/ state \|\n\|---\|---\|---\|\n/);
    // Every report lists the kernel module and libhailort rows, found or not.
    assert.match(text, /\n\| Hailo kernel module \||\n\| hailo_pci kernel module \||\n\| hailo1x_pci kernel module \|/);
    assert.match(text, /\n\| libhailort \|/);
    assert.match(text, /Every rule and its source: docs\/doctor\.md\./);
    // Restricted Mode reads files only: the devices (native code) are not asked.
    if (expectUntrusted) assert.match(text, /Devices not asked: Restricted Mode: the devices are asked only in a trusted workspace\./);
    else assert.doesNotMatch(text, /Devices not asked: Restricted Mode/);
  });
});
