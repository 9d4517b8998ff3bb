// VS Code's side of workspace trust, as client/src/security/workspaceTrust.ts asks it (TrustHost):
// trusted or not, the button a user would choose on the warning, and a record of every call.
import type { TrustHost } from '../../client/src/security/workspaceTrust';

export function fakeTrustHost(trusted: boolean, choice?: string) {
  const calls = { warn: [] as string[][], manage: 0, log: [] as string[] };
  const host: TrustHost = {
    isTrusted: () => trusted,
    warn: (message, ...buttons) => {
      calls.warn.push([message, ...buttons]);
      return Promise.resolve(choice);
    },
    manageTrust: () => {
      calls.manage++;
      return Promise.resolve();
    },
    log: (m) => calls.log.push(m),
  };
  return { host, calls };
}
