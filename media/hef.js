// HEF inspector webview script: buttons post messages to the extension host; nothing from the
// file is evaluated here (the page arrives fully rendered and escaped).
(function () {
  const vscode = acquireVsCodeApi();
  const status = document.getElementById('status');
  document.getElementById('copy-json')?.addEventListener('click', () => vscode.postMessage({ type: 'copyJson' }));
  document.getElementById('reload')?.addEventListener('click', () => vscode.postMessage({ type: 'reload' }));
  document.getElementById('run-on-device')?.addEventListener('click', () => vscode.postMessage({ type: 'runOnDevice' }));
  window.addEventListener('message', (event) => {
    const msg = event.data;
    if (msg && msg.type === 'status' && status) status.textContent = String(msg.text ?? '');
  });
  // Keep which sections are open across reloads of the same editor.
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
})();
