// The proof that running code was allowed. Editor-neutral so that the device client and the CLI
// (server/src) can demand it as the extension does: the extension gets one from
// client/src/security/workspaceTrust.ts (only in a trusted workspace); the terminal CLI, which a
// user starts on purpose and which has no workspace to trust, makes its own with
// `commandLineTrust`. Anything that starts a process or loads native code takes one.

declare const trustBrand: unique symbol;
/**
 * Proof that the workspace was trusted when `action` was asked for. Only `requireWorkspaceTrust`
 * (extension) and `commandLineTrust` (CLI) make one, and the process runners demand one, so the
 * compiler rejects code that would execute without passing a guard.
 */
export interface TrustToken {
  readonly [trustBrand]: true;
  readonly action: string;
}

/** @internal Only the two guards call this. */
export function mintTrustToken(action: string): TrustToken {
  return Object.freeze({ action }) as unknown as TrustToken;
}

/** The CLI's token: a user typed the command in a terminal. */
export function commandLineTrust(action: string): TrustToken {
  return mintTrustToken(`hailo-tools ${action}`);
}

/** True for a token made by a guard (run-time check for callers that receive `unknown`). */
export function isTrustToken(value: unknown): value is TrustToken {
  return (
    typeof value === 'object' && value !== null && typeof (value as { action?: unknown }).action === 'string' && (value as { action: string }).action.length > 0
  );
}
