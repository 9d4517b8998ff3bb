// showPage (client/src/webview/showPage.ts), the one way a panel's page is set: never over a page
// that has not said it loaded (VS Code's webview host can keep the old page then), bounded, only the
// newest waiting page, nothing after the panel is gone. A stand-in panel records every page set and
// posts the page's messages when the test says, as the page script does (pages/lib/channel.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Linter } from 'eslint';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { receiver } from '../../../client/src/webview/channel';
import { pageShell } from '../../../client/src/webview/html';
import { pageNonce, showPage } from '../../../client/src/webview/showPage';
import { projectRoot } from '../../helpers/projectRoot';
import { cspMeta } from '../../helpers/webviewPage';

type Listener<T> = (e: T) => unknown;

/** A webview panel as showPage sees it: `html` records each page set; `post` is the page posting; `dispose` closes it. */
class StandInPanel {
  readonly sets: string[] = [];
  private readonly onMessage = new Set<Listener<unknown>>();
  private readonly onDispose = new Set<Listener<void>>();
  disposed = false;
  readonly webview = {
    sets: this.sets,
    panel: this as StandInPanel,
    get html(): string {
      return this.sets[this.sets.length - 1] ?? '';
    },
    set html(v: string) {
      // As VS Code does: a disposed webview refuses a page.
      if (this.panel.disposed) throw new Error('Webview is disposed');
      this.sets.push(v);
    },
    onDidReceiveMessage: (l: Listener<unknown>) => this.listen(this.onMessage, l),
  };
  onDidDispose = (l: Listener<void>) => this.listen(this.onDispose, l);

  private listen<T>(set: Set<Listener<T>>, l: Listener<T>) {
    set.add(l);
    return { dispose: () => set.delete(l) };
  }
  /** The page posts a message (what acquireVsCodeApi().postMessage does). */
  post(message: unknown): void {
    for (const l of [...this.onMessage]) l(message);
  }
  /** The page showing says it loaded, as pages/lib/channel.ts does on its window's load event. */
  loaded(): void {
    this.post({ type: 'loaded', page: pageNonce(this.webview.html) });
  }
  dispose(): void {
    this.disposed = true;
    for (const l of [...this.onDispose]) l();
  }
}

let pages = 0;
/** A page on the kit's shell, with a fresh nonce as pageOptions gives each render. */
function page(text: string): string {
  const nonce = `n${++pages}+/=`;
  return pageShell(
    { nonce, cspMeta: cspMeta(`default-src 'none'; script-src 'nonce-${nonce}'`), styleUri: 's.css', scriptUri: 'p.js' },
    { title: text, body: `<p>${text}</p>` },
  );
}

const logOf = () => {
  const lines: string[] = [];
  return { lines, warn: (l: string) => void lines.push(l) };
};
const texts = (p: StandInPanel) => p.sets.map((h) => /<p>(.*)<\/p>/.exec(h)![1]);

test("showPage: a panel's first page is set at once", () => {
  const panel = new StandInPanel();
  const log = logOf();
  void showPage(panel, page('first'), log, 'test');
  assert.deepEqual(texts(panel), ['first']);
  assert.deepEqual(log.lines, []);
});

test('showPage: a later page waits until the page showing said it loaded; then it is set at once, and the next one waits for it in turn', async () => {
  const panel = new StandInPanel();
  const log = logOf();
  void showPage(panel, page('running…'), log, 'test');
  const results = showPage(panel, page('results'), log, 'test', 5_000);
  await sleep(20);
  assert.deepEqual(texts(panel), ['running…'], 'the page still loading is not replaced');
  panel.loaded();
  await results;
  assert.deepEqual(texts(panel), ['running…', 'results']);
  void showPage(panel, page('again'), log, 'test', 5_000);
  assert.deepEqual(texts(panel), ['running…', 'results'], "'results' has not said it loaded yet");
  panel.loaded();
  assert.deepEqual(texts(panel), ['running…', 'results', 'again']);
  panel.loaded();
  void showPage(panel, page('at once'), log, 'test', 5_000);
  assert.deepEqual(texts(panel), ['running…', 'results', 'again', 'at once'], 'a page set after the one showing loaded goes at once');
  assert.deepEqual(log.lines, []);
});

test("showPage: only the page showing's own `loaded` counts (an earlier page's, another kind of message, or a malformed one do not)", () => {
  const panel = new StandInPanel();
  const log = logOf();
  void showPage(panel, page('a'), log, 'test');
  const aNonce = pageNonce(panel.webview.html);
  panel.loaded();
  void showPage(panel, page('b'), log, 'test', 5_000);
  void showPage(panel, page('c'), log, 'test', 5_000);
  for (const m of [{ type: 'loaded', page: aNonce }, { type: 'loaded' }, { type: 'ready' }, 'loaded', null, { type: 'loaded', page: '' }]) panel.post(m);
  assert.deepEqual(texts(panel), ['a', 'b'], 'c waits for b');
  panel.loaded();
  assert.deepEqual(texts(panel), ['a', 'b', 'c']);
});

test('showPage: of several pages waiting, only the newest is set; every waiting call resolves', async () => {
  const panel = new StandInPanel();
  const log = logOf();
  void showPage(panel, page('reading'), log, 'test');
  const waiting = ['one', 'two', 'three'].map((t) => showPage(panel, page(t), log, 'test', 5_000));
  panel.loaded();
  await Promise.all(waiting);
  assert.deepEqual(texts(panel), ['reading', 'three']);
});

test('showPage: a page that never says it loaded holds the next one at most the bound, then it is set with one line in the log', async () => {
  const panel = new StandInPanel();
  const log = logOf();
  void showPage(panel, page('silent'), log, 'device results');
  const started = Date.now();
  await showPage(panel, page('results'), log, 'device results', 80);
  const waited = Date.now() - started;
  assert.deepEqual(texts(panel), ['silent', 'results']);
  assert.ok(waited >= 70 && waited < 2_000, `waited ${waited} ms`);
  assert.equal(log.lines.length, 1);
  assert.match(log.lines[0], /^device results: the page set \d+ ms ago has not said it loaded .*setting the next page anyway$/);
});

test('showPage: the bound counts from when the page showing was set (a page silent for longer does not hold the next at all)', async () => {
  const panel = new StandInPanel();
  const log = logOf();
  void showPage(panel, page('hidden'), log, 'har');
  await sleep(1000);
  const started = Date.now();
  // Its bound (500 ms) passed while the page was silent: set at once — a bound counted from this call would wait it
  // all (the margin is for a loaded machine's slow turns).
  await showPage(panel, page('refreshed'), log, 'har', 500);
  assert.ok(Date.now() - started < 400, `set on the next turn, not after the bound (${Date.now() - started} ms)`);
  assert.deepEqual(texts(panel), ['hidden', 'refreshed']);
  assert.equal(log.lines.length, 1);
});

test('showPage: nothing is set once the panel is disposed; a waiting call resolves', async () => {
  const panel = new StandInPanel();
  const log = logOf();
  void showPage(panel, page('running…'), log, 'test');
  const waiting = showPage(panel, page('results'), log, 'test', 50);
  panel.dispose();
  await waiting;
  await sleep(80);
  await showPage(panel, page('late'), log, 'test');
  assert.deepEqual(texts(panel), ['running…']);
  assert.deepEqual(log.lines, []);
});

test("showPage: a panel's typed channel leaves the kit's `loaded` to showPage, silently", () => {
  const lines: string[] = [];
  const handled: unknown[] = [];
  const receive = receiver('test', { copyJson: {} }, { warn: (l) => lines.push(l), error: (l) => lines.push(l) }, (m) => handled.push(m));
  receive({ type: 'loaded', page: 'n1' });
  receive({ type: 'loaded' });
  assert.deepEqual(handled, []);
  assert.equal(lines.length, 1, 'a `loaded` without its page is malformed: logged like any unknown message');
});

test("the page side: connecting posts `loaded`, named by the script's nonce, on the window's load event — once per page", () => {
  const posted: unknown[] = [];
  const listeners: Record<string, (() => void)[]> = {};
  let acquired = 0;
  const g = globalThis as Record<string, unknown>;
  // What a page script sees in the webview while it first runs (the document still loading).
  g.document = { currentScript: { nonce: 'n0nce+/=' }, readyState: 'loading' };
  g.window = { addEventListener: (type: string, l: () => void) => (listeners[type] ??= []).push(l) };
  g.acquireVsCodeApi = () => {
    acquired++;
    return { postMessage: (m: unknown) => posted.push(m), getState: () => undefined, setState: () => undefined };
  };
  try {
    // Loaded here, after the globals (the module reads document.currentScript when it first runs), by
    // require: page code is DOM-typed and type-checked by pages/tsconfig.json, not the root project.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { connectHost } = require('../../../client/src/webview/pages/lib/channel') as { connectHost: () => unknown };
    connectHost();
    assert.deepEqual(posted, [], 'not before the load event');
    for (const l of listeners.load ?? []) l();
    assert.deepEqual(posted, [{ type: 'loaded', page: 'n0nce+/=' }]);
    connectHost();
    assert.equal(acquired, 1, 'VS Code hands the API out once per page');
    assert.equal(listeners.load.length, 1, 'announced once');
  } finally {
    delete g.document;
    delete g.window;
    delete g.acquireVsCodeApi;
  }
});

test('showPage: a page without the one strict CSP is refused (thrown, as pageShell does), and nothing is set', () => {
  const panel = new StandInPanel();
  const log = logOf();
  const weak = [
    '<html><body><script>go()</script></body></html>',
    page('ok').replace("script-src 'nonce-", "script-src 'unsafe-inline' 'nonce-"),
    page('ok').replace("default-src 'none'; ", ''),
  ];
  for (const html of weak) assert.throws(() => showPage(panel, html, log, 'test'), /weak Content-Security-Policy/);
  assert.deepEqual(panel.sets, []);
});

test('eslint: every client/src file but showPage.ts is linted with the rule against setting a page, and the rule catches one', async () => {
  const { ESLint, Linter: EsLinter } = await import('eslint');
  const tseslint = (await import('typescript-eslint')).default;
  const eslint = new ESLint({ cwd: projectRoot });
  const files = readdirSync(join(projectRoot, 'client', 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join('client', 'src', f).split('\\').join('/'));
  assert.ok(files.length > 50, `${files.length} client files`);
  const planted = ["panel.webview.html = '<p>x</p>';", "this.panel.webview['html'] = page;", 'const w = panel.webview; w.html = renderPage();'];
  for (const file of files) {
    const config = (await eslint.calculateConfigForFile(file)) as { rules?: Record<string, unknown> };
    const rule = config.rules?.['no-restricted-syntax'];
    const linter = new EsLinter({ configType: 'flat' });
    const found = planted.map(
      (code) =>
        linter
          .verify(
            code,
            [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, rules: rule ? { 'no-restricted-syntax': rule as Linter.RuleEntry } : {} }],
            'x.ts',
          )
          .filter((m) => /showPage/.test(m.message)).length,
    );
    if (file === 'client/src/webview/showPage.ts') assert.deepEqual(found, [0, 0, 0], 'showPage.ts itself sets the page');
    else assert.deepEqual(found, [1, 1, 1], `${file}: a planted page assignment is an error`);
  }
});
