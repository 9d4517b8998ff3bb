// The accuracy table's page script (→ dist/webview/accuracy.js with uPlot, and accuracy.css,
// uPlot's stylesheet; loaded by nonce). The page arrives rendered and escaped
// (client/src/accuracy/render.ts); this draws the charts and posts button clicks. Messages:
// ../protocols/accuracy.ts.
import { unhandled } from '../protocol';
import type { AccuracyFromPage, AccuracyToPage } from '../protocols/accuracy';
import { connectHost } from './lib/channel';
import { drawCharts } from './lib/charts';
import { onClick, showStatus } from './lib/page';

const host = connectHost<AccuracyToPage, AccuracyFromPage>();
drawCharts();
onClick('export-json', () => host.post({ type: 'exportJson' }));
onClick('run-again', () => host.post({ type: 'runAgain' }));
host.onMessage((m) => {
  switch (m.type) {
    case 'status':
      showStatus(m.text);
      break;
    default:
      unhandled(m.type);
  }
});
