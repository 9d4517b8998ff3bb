// The Calibration Set Inspector's page script (→ dist/webview/calib.js, loaded by nonce). The page
// arrives rendered and escaped (client/src/calib/render.ts); this only posts button clicks and
// shows the host's status line. Messages: ../protocols/calib.ts.
import { unhandled } from '../protocol';
import type { CalibFromPage, CalibToPage } from '../protocols/calib';
import { connectHost } from './lib/channel';
import { keepSectionsOpen, onClick, showStatus } from './lib/page';

const host = connectHost<CalibToPage, CalibFromPage>();
onClick('copy-json', () => host.post({ type: 'copyJson' }));
onClick('reload', () => host.post({ type: 'reload' }));
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
