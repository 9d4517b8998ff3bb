// The one gate for anything that executes code on the user's machine: docker (the Dataflow
// Compiler image), native HailoRT through koffi, any child process. A folder opened in Restricted
// Mode may hold a malicious .alls/.hef/settings.json; reading and analysing it is safe, running
// tools because of it is not. Every command that executes MUST call `requireWorkspaceTrust`
// first (test/unit/repo/security.test.ts fails on a module that spawns or loads native code without it).
//
// The decision is written against a small `TrustHost` interface so it is testable without VS Code;
// `vscodeTrustHost()` is the real one.

/** The part of the VS Code API the guard needs. */
export interface TrustHost {
  isTrusted(): boolean;
  /** Shows a warning with buttons; resolves with the chosen button or undefined. */
  warn(message: string, ...buttons: string[]): PromiseLike<string | undefined>;
  /** Opens VS Code's workspace-trust editor. */
  manageTrust(): PromiseLike<unknown>;
  log(message: string): void;
}

// TrustToken lives in server/src/core/common/trust.ts so the device client and CLI can demand it too.
import { mintTrustToken, type TrustToken } from '@hailo/api';
export type { TrustToken };

export const MANAGE_TRUST_BUTTON = 'Manage Workspace Trust';

export function restrictedModeMessage(action: string): string {
  return `${action} runs programs on this machine, so it is disabled in Restricted Mode. Trust this folder to use it.`;
}

/**
 * Resolves with a TrustToken when the workspace is trusted. Otherwise tells the user why `action`
 * cannot run, offers to open the trust editor, logs the refusal, and resolves undefined: the
 * caller must stop.
 */
export async function requireWorkspaceTrust(action: string, host: TrustHost): Promise<TrustToken | undefined> {
  if (host.isTrusted()) return mintTrustToken(action);
  const message = restrictedModeMessage(action);
  host.log(`refused in Restricted Mode: ${action}`);
  // Not awaited: the caller's answer ("no") must not wait for the user to close the notification.
  void Promise.resolve(host.warn(message, MANAGE_TRUST_BUTTON)).then((choice) => {
    if (choice === MANAGE_TRUST_BUTTON) return host.manageTrust();
    return undefined;
  });
  return undefined;
}
