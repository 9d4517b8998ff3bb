// The "Run on Device" results page's script (→ dist/webview/deviceResults.js with uPlot, and
// deviceResults.css, uPlot's stylesheet; loaded by nonce). The page arrives rendered and escaped
// (client/src/device/resultsRender.ts); this draws the charts and posts button clicks. Messages:
// ../protocols/deviceResults.ts.
import { unhandled } from '../protocol';
import type { DeviceResultsFromPage, DeviceResultsToPage } from '../protocols/deviceResults';
import { connectHost } from './lib/channel';
import { drawCharts } from './lib/charts';
import { onClick, showStatus } from './lib/page';

const host = connectHost<DeviceResultsToPage, DeviceResultsFromPage>();
drawCharts();
onClick('export-json', () => host.post({ type: 'exportJson' }));
onClick('run-again', () => host.post({ type: 'runAgain' }));
onClick('fix-onnx', () => host.post({ type: 'fix', fix: 'set-onnx' }));
onClick('fix-onnxruntime', () => host.post({ type: 'fix', fix: 'set-onnxruntime' }));
host.onMessage((m) => {
  switch (m.type) {
    case 'status':
      showStatus(m.text);
      break;
    default:
      unhandled(m.type);
  }
});
