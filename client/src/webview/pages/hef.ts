// The HEF inspector's page script (→ dist/webview/hef.js, loaded by nonce). The page arrives
// rendered and escaped (client/src/hef/render.ts); this only posts button clicks and shows the
// host's status line. Messages: ../protocols/hef.ts.
import { unhandled } from '../protocol';
import type { HefFromPage, HefToPage } from '../protocols/hef';
import { connectHost } from './lib/channel';
import { keepSectionsOpen, onClick, showStatus } from './lib/page';

const host = connectHost<HefToPage, HefFromPage>();
onClick('copy-json', () => host.post({ type: 'copyJson' }));
onClick('reload', () => host.post({ type: 'reload' }));
onClick('run-on-device', () => host.post({ type: 'runOnDevice' }));
host.onMessage((m) => {
  switch (m.type) {
    case 'status':
      showStatus(m.text);
      break;
    default:
      unhandled(m.type);
  }
});
keepSectionsOpen(host);
