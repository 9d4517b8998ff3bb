// HAR view webview script: buttons, links and the search box post messages to the extension host;
// links carry indexes (data-*), never names, and nothing from the file is evaluated here (the page
// arrives fully rendered and escaped).
(function () {
  const vscode = acquireVsCodeApi();
  const post = (m) => vscode.postMessage(m);
  const status = document.getElementById('status');
  const on = (id, type) => document.getElementById(id)?.addEventListener('click', () => post({ type }));
  on('copy-json', 'copyJson');
  on('reload', 'reload');
  on('analyze-noise', 'analyzeNoise');
  on('find-divergence', 'findDivergence');
  document
    .querySelectorAll('button.page-prev, button.page-next')
    .forEach((b) => b.addEventListener('click', () => post({ type: b.classList.contains('page-prev') ? 'pagePrev' : 'pageNext' })));
  document.getElementById('write-sixteen')?.addEventListener('click', () => {
    const chosen = [...document.querySelectorAll('input.sixteen:checked')].map((c) => Number(c.getAttribute('data-noise-index')));
    post({ type: 'writeSixteen', noise: chosen });
  });
  const search = document.getElementById('search');
  let timer;
  search?.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => post({ type: 'search', query: search.value }), 250);
  });
  search?.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      clearTimeout(timer);
      post({ type: 'search', query: search.value });
    }
  });
  const click = (sel, f) =>
    document.querySelectorAll(sel).forEach((a) =>
      a.addEventListener('click', (e) => {
        e.preventDefault();
        f(a);
      }),
    );
  click('a.goto-script', (a) => post({ type: 'openScript', script: Number(a.getAttribute('data-script')), line: Number(a.getAttribute('data-line')) }));
  click('a.goto-onnx', (a) => post({ type: 'openOnnx', layer: Number(a.getAttribute('data-layer')), name: Number(a.getAttribute('data-name')) }));
  click('a.goto-layer', (a) => post({ type: 'focusNoise', noise: Number(a.getAttribute('data-noise-index')) }));
  click('a.goto-diverge-layer', (a) => post({ type: 'focusDiverge', row: Number(a.getAttribute('data-row')) }));
  click('a.goto-tensor', (a) => post({ type: 'openTensor', row: Number(a.getAttribute('data-row')) }));
  click('a.filter-type', (a) => post({ type: 'search', query: a.getAttribute('data-type') || '' }));
  window.addEventListener('message', (event) => {
    const msg = event.data;
    if (msg && msg.type === 'status' && status) status.textContent = String(msg.text ?? '');
  });
  document.querySelector('tr.focus')?.scrollIntoView({ block: 'center' });
  const state = vscode.getState() || {};
  document.querySelectorAll('details.section').forEach((d) => {
    const id = d.getAttribute('data-testid');
    if (id && typeof state[id] === 'boolean') d.open = state[id];
    d.addEventListener('toggle', () => {
      const s = vscode.getState() || {};
      s[id] = d.open;
      vscode.setState(s);
    });
  });
  // A status posted while this page was being replaced (the view is rebuilt when a file beside the
  // HAR changes) reached the old page: ask the host for the last one once this page listens.
  post({ type: 'ready' });
})();
