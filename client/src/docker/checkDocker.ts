// Command "Hailo: Check Docker Setup" (hailo.checkDocker): is docker there, is its daemon up, is a
// Hailo DFC image loaded? It executes a program, so it passes the workspace-trust guard first and
// reads the docker path only from a machine-scoped setting.
import * as vscode from 'vscode';
import { hailoSettings } from '../settings';
import { runTool } from '../security/runTool';
import { vscodeTrustHost } from '../security/vscodeTrustHost';
import { requireWorkspaceTrust } from '../security/workspaceTrust';
import { dockerReport, type DockerReport } from './dockerStatus';

export const CHECK_DOCKER_COMMAND = 'hailo.checkDocker';

/** The command's result, also returned to callers of executeCommand (the e2e suite reads it). */
export type CheckDockerResult = { ran: false; reason: 'untrusted' } | ({ ran: true } & DockerReport);

export function registerCheckDocker(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(CHECK_DOCKER_COMMAND, async (): Promise<CheckDockerResult> => {
      const trust = await requireWorkspaceTrust('Hailo: Check Docker Setup', vscodeTrustHost(log));
      if (!trust) return { ran: false, reason: 'untrusted' };
      // Machine scope: VS Code ignores this key in workspace settings, so a repo cannot pick the program.
      const dockerPath = hailoSettings().dfc.dockerPath;
      log.info(`checking docker: ${dockerPath} version`);
      const version = await runTool(trust, dockerPath, ['version', '--format', '{{json .}}'], { timeoutMs: 15_000 });
      const images =
        version.code === 0 ? await runTool(trust, dockerPath, ['image', 'ls', '--format', '{{.Repository}}:{{.Tag}}'], { timeoutMs: 15_000 }) : undefined;
      const report = dockerReport(dockerPath, version, images);
      log[report.level === 'info' ? 'info' : report.level === 'warning' ? 'warn' : 'error'](report.message);
      const show =
        report.level === 'info'
          ? vscode.window.showInformationMessage
          : report.level === 'warning'
            ? vscode.window.showWarningMessage
            : vscode.window.showErrorMessage;
      void show(report.message, 'Show Log').then((choice) => {
        if (choice === 'Show Log') log.show();
      });
      return { ran: true, ...report };
    }),
  );
}
