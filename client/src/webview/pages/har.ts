// The HAR view's page script (→ dist/webview/har.js, loaded by nonce). The page arrives rendered
// and escaped (client/src/har/render.ts); this posts clicks and the search text. Links carry
// indexes (data-*), never names, and nothing from the file is evaluated here. Messages:
// ../protocols/har.ts.
import { unhandled } from '../protocol';
import type { HarFromPage, HarToPage } from '../protocols/har';
import { connectHost } from './lib/channel';
import { keepSectionsOpen, onClick, showStatus } from './lib/page';

const host = connectHost<HarToPage, HarFromPage>();
const post = (m: HarFromPage) => host.post(m);
/** A data-* index of a link (the host checks it against its own document). */
const index = (el: Element, name: string) => Number(el.getAttribute(name));

onClick('copy-json', () => post({ type: 'copyJson' }));
onClick('reload', () => post({ type: 'reload' }));
onClick('analyze-noise', () => post({ type: 'analyzeNoise' }));
onClick('find-divergence', () => post({ type: 'findDivergence' }));
document
  .querySelectorAll('button.page-prev, button.page-next')
  .forEach((b) => b.addEventListener('click', () => post({ type: b.classList.contains('page-prev') ? 'pagePrev' : 'pageNext' })));
onClick('write-sixteen', () => {
  const chosen = [...document.querySelectorAll('input.sixteen:checked')].map((c) => index(c, 'data-noise-index'));
  post({ type: 'writeSixteen', noise: chosen });
});

const search = document.getElementById('search') as HTMLInputElement | null;
let timer: number | undefined;
search?.addEventListener('input', () => {
  window.clearTimeout(timer);
  timer = window.setTimeout(() => post({ type: 'search', query: search.value }), 250);
});
search?.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') {
    window.clearTimeout(timer);
    post({ type: 'search', query: search.value });
  }
});

const click = (selector: string, message: (a: Element) => HarFromPage) =>
  document.querySelectorAll(selector).forEach((a) =>
    a.addEventListener('click', (e) => {
      e.preventDefault();
      post(message(a));
    }),
  );
click('a.goto-script', (a) => ({ type: 'openScript', script: index(a, 'data-script'), line: index(a, 'data-line') }));
click('a.goto-onnx', (a) => ({ type: 'openOnnx', layer: index(a, 'data-layer'), name: index(a, 'data-name') }));
click('a.goto-layer', (a) => ({ type: 'focusNoise', noise: index(a, 'data-noise-index') }));
click('a.goto-diverge-layer', (a) => ({ type: 'focusDiverge', row: index(a, 'data-row') }));
click('a.goto-tensor', (a) => ({ type: 'openTensor', row: index(a, 'data-row') }));
click('a.filter-type', (a) => ({ type: 'search', query: a.getAttribute('data-type') ?? '' }));

host.onMessage((m) => {
  switch (m.type) {
    case 'status':
      showStatus(m.text);
      break;
    default:
      unhandled(m.type);
  }
});
document.querySelector('tr.focus')?.scrollIntoView({ block: 'center' });
keepSectionsOpen(host);
// A status posted while this page was being replaced (the view is rebuilt when a file beside the
// HAR changes) reached the old page: ask the host for the last one once this page listens.
post({ type: 'ready' });
