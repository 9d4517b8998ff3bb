// Every browser scenario, in the order they run. Add new `*.ui.ts` files here.
import './language.ui';
import './trust.ui';
import './alls.ui';
import './hef.ui';
import './onnx.ui';
import './device.ui';
import './checkSetup.ui';
import './chat.ui';
import './speech.ui';
import './recipe.ui';
import './firstRun.ui';
import './compile.ui';
import './har.ui';
import './sweep.ui';

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { e2e } from './context';

// On failure, keep a picture of every open page: the fastest way to see what went wrong.
afterEach(async function () {
  if (this.currentTest?.state !== 'failed') return;
  const { pages, failuresDir } = e2e();
  mkdirSync(failuresDir, { recursive: true });
  const stem = this.currentTest
    .fullTitle()
    .replace(/[^a-z0-9]+/gi, '-')
    .slice(0, 80);
  for (const [i, page] of pages.entries()) {
    if (page.isClosed()) continue;
    const file = join(failuresDir, `${stem}-${i}.png`);
    await page.screenshot({ path: file }).catch(() => undefined);
    process.stdout.write(`      screenshot of the failure: ${file}\n`);
  }
});
