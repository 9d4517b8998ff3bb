// The client webview kit (client/src/webview/): one page shell on one nonce CSP, and a typed message
// protocol per panel. Here: every panel has its page script, its protocol and its bundle; the host
// boundary accepts exactly the messages each protocol declares and drops anything else with one
// logged line (never a throw); the page scripts type-check against their protocols (each `ToPage`
// switch ends in `unhandled(never)`, so a message a page does not handle is an error here; the
// hosts' switches are checked the same way by `tsc -p .`); the shell refuses a weak CSP and escapes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { receiver } from '../../../client/src/webview/channel';
import { checkedCsp, messagePage, pageShell, PAGE_SCRIPTS, type PageScript } from '../../../client/src/webview/html';
import { parseMessage, type Message, type Schema } from '../../../client/src/webview/protocol';
import { ACCURACY_FROM_PAGE } from '../../../client/src/webview/protocols/accuracy';
import { CALIB_FROM_PAGE } from '../../../client/src/webview/protocols/calib';
import { CHAT_FROM_PAGE } from '../../../client/src/webview/protocols/chat';
import { DEVICE_RESULTS_FROM_PAGE } from '../../../client/src/webview/protocols/deviceResults';
import { HAR_FROM_PAGE } from '../../../client/src/webview/protocols/har';
import { HEF_FROM_PAGE } from '../../../client/src/webview/protocols/hef';
import { SWEEP_FROM_PAGE } from '../../../client/src/webview/protocols/sweep';
import { renderMessage } from '../../../client/src/hef/render';
import { renderCalibMessage } from '../../../client/src/calib/render';
import { renderHarMessage } from '../../../client/src/har/render';
import { renderRunMessage } from '../../../client/src/device/resultsRender';
import { renderAccuracyMessage } from '../../../client/src/accuracy/render';
import { projectRoot } from '../../helpers/projectRoot';
import { cspMeta, EVIL, testPage, WEBVIEW_CSP } from '../../helpers/webviewPage';

type Kind = 'boolean' | 'number' | 'index' | 'indexes' | 'string' | 'unknown' | readonly string[];
type AnySchema = Record<string, Record<string, Kind>>;
const any = <U extends Message>(s: Schema<U>) => s as unknown as AnySchema;

/** Each panel's page → the host's schema of what that page may post. */
const FROM_PAGE: Record<PageScript, AnySchema> = {
  hef: any(HEF_FROM_PAGE),
  calib: any(CALIB_FROM_PAGE),
  har: any(HAR_FROM_PAGE),
  deviceResults: any(DEVICE_RESULTS_FROM_PAGE),
  accuracy: any(ACCURACY_FROM_PAGE),
  sweep: any(SWEEP_FROM_PAGE),
  chat: any(CHAT_FROM_PAGE),
};

const webviewDir = join(projectRoot, 'client', 'src', 'webview');

/** A value of each kind, as a page would post it. */
function sample(kind: Kind): unknown {
  if (Array.isArray(kind)) return kind[kind.length - 1];
  return { boolean: true, number: 2.5, index: 3, indexes: [0, 4], string: 'a "quoted" <name>', unknown: { any: ['thing'] } }[kind as string];
}

/** Values of the wrong shape for each kind (none for `unknown`: the handler checks it). */
function wrong(kind: Kind): unknown[] {
  if (Array.isArray(kind)) return ['not-one-of-them', 1, undefined];
  const table: Record<string, unknown[]> = {
    boolean: ['true', 1, undefined],
    number: ['1', NaN, Infinity, undefined],
    index: [-1, 1.5, NaN, '2', 2 ** 53, undefined, null],
    indexes: ['0', [0, '1'], [-1], [0.5], {}, undefined],
    string: [1, null, {}, ['a'], undefined],
    unknown: [],
  };
  return table[kind as string];
}

const messages = (schema: AnySchema) => Object.entries(schema).map(([type, fields]) => ({ type, fields }));

test('webview kit: every panel has its page script (pages/<name>.ts), its protocol (protocols/<name>.ts) and its bundle; no page script outside pages/', () => {
  const entries = readdirSync(join(webviewDir, 'pages'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
  assert.deepEqual(entries, [...PAGE_SCRIPTS].sort(), 'pages/ holds exactly the PAGE_SCRIPTS entries (lib/ the shared parts)');
  for (const name of PAGE_SCRIPTS) {
    assert.ok(existsSync(join(webviewDir, 'protocols', `${name}.ts`)), `protocols/${name}.ts`);
    assert.ok(existsSync(join(projectRoot, 'dist', 'webview', `${name}.js`)), `esbuild.mjs bundles dist/webview/${name}.js`);
  }
  const mediaScripts = readdirSync(join(projectRoot, 'media')).filter((f) => /\.(js|ts)$/.test(f));
  assert.deepEqual(mediaScripts, [], 'page scripts are TypeScript under client/src/webview/pages/, not media/');
});

/** Every .ts under a folder, as [path from the repository root, text]. */
function sources(dir: string): [string, string][] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => [relative(projectRoot, join(dir, f)).split('\\').join('/'), readFileSync(join(dir, f), 'utf8')]);
}

test("webview kit: hosts and pages talk only through the two channels, and every panel's protocol is connected by its host", () => {
  const client = sources(join(projectRoot, 'client', 'src'));
  const raw = /\.postMessage\(|onDidReceiveMessage\(|acquireVsCodeApi\(|addEventListener\(\s*['"]message['"]/;
  const kit = ['client/src/webview/channel.ts', 'client/src/webview/showPage.ts', 'client/src/webview/pages/lib/channel.ts'];
  const outside = client.filter(([p, text]) => raw.test(text) && !kit.includes(p));
  assert.deepEqual(
    outside.map(([p]) => p),
    [],
    "webview.postMessage/onDidReceiveMessage only in webview/channel.ts (and showPage.ts, for the page's `loaded`); acquireVsCodeApi and message events only in pages/lib/channel.ts",
  );
  for (const name of PAGE_SCRIPTS) {
    const protocol = readFileSync(join(webviewDir, 'protocols', `${name}.ts`), 'utf8');
    const schema = /export const (\w+_FROM_PAGE): Schema</.exec(protocol)?.[1];
    assert.ok(schema, `protocols/${name}.ts exports its FromPage schema`);
    const hosts = client.filter(([p, text]) => !p.startsWith('client/src/webview/') && new RegExp(`connectPage<[^>]*>\\([^;]*\\b${schema}\\b`).test(text));
    assert.equal(hosts.length, 1, `one host connects ${name}'s page with ${schema}`);
    assert.match(hosts[0][1], /default:\s*unhandled\(\w+\);/, `${hosts[0][0]} ends its switch with unhandled()`);
    const page = readFileSync(join(webviewDir, 'pages', `${name}.ts`), 'utf8');
    assert.match(page, new RegExp(`connectHost<\\w+ToPage, \\w+FromPage>\\(\\)`), `pages/${name}.ts connects through the page channel`);
    assert.match(page, /default:\s*unhandled\(/, `pages/${name}.ts ends its switch with unhandled()`);
  }
});

test('webview kit: the host accepts every message each protocol declares, and passes on only the fields it names', () => {
  let n = 0;
  for (const [page, schema] of Object.entries(FROM_PAGE)) {
    for (const { type, fields } of messages(schema)) {
      const valid: Record<string, unknown> = { type };
      for (const [name, kind] of Object.entries(fields)) valid[name] = sample(kind);
      const parsed = parseMessage(schema as Schema<Message>, { ...valid, injected: '<script>', path: '/etc/passwd' });
      assert.ok(parsed.ok, `${page}: ${type} accepted (${parsed.ok ? '' : parsed.why})`);
      assert.deepEqual(parsed.message, valid, `${page}: ${type} carries only its declared fields`);
      n++;
    }
  }
  assert.ok(n >= 40, `every message of every panel (${n})`);
});

test('webview kit: a malformed page message is refused with a reason naming its field', () => {
  for (const [page, schema] of Object.entries(FROM_PAGE)) {
    for (const { type, fields } of messages(schema)) {
      for (const [name, kind] of Object.entries(fields)) {
        for (const bad of wrong(kind)) {
          const m: Record<string, unknown> = { type };
          for (const [f, k] of Object.entries(fields)) m[f] = sample(k);
          if (bad === undefined) delete m[name];
          else m[name] = bad;
          const parsed = parseMessage(schema as Schema<Message>, m);
          assert.ok(!parsed.ok, `${page}: ${type}.${name} = ${JSON.stringify(bad)} refused`);
          assert.match(parsed.why, new RegExp(`^${type}: field ${name} is not `));
        }
      }
    }
  }
});

test('webview kit: what is not a message of the panel is refused — no type, an unknown type, an inherited name, not an object', () => {
  const notMessages: unknown[] = [
    null,
    undefined,
    'copyJson',
    42,
    [],
    ['ready'],
    {},
    { type: 5 },
    { type: 'nope' },
    { type: '__proto__' },
    { type: 'toString' },
    { type: 'constructor' },
    { type: 'hasOwnProperty' },
  ];
  for (const [page, schema] of Object.entries(FROM_PAGE)) {
    for (const raw of notMessages) assert.ok(!parseMessage(schema as Schema<Message>, raw).ok, `${page}: ${JSON.stringify(raw)} refused`);
  }
  const why = parseMessage(HAR_FROM_PAGE, { type: 'x'.repeat(500) });
  assert.ok(!why.ok && why.why.length < 100, 'the note quotes a bounded part of what came');
});

test('webview kit: the host channel drops a bad message with one logged line (never a throw), hands a good one over, logs a failed handler', async () => {
  const lines: string[] = [];
  const log = { warn: (l: string) => lines.push(`warn ${l}`), error: (l: string) => lines.push(`error ${l}`) };
  const got: unknown[] = [];
  const receive = receiver('har', HAR_FROM_PAGE, log, (m) => {
    got.push(m);
    if (m.type === 'reload') throw new Error('the disk went away');
  });
  assert.doesNotThrow(() => receive({ type: 'openScript', script: '../../etc', line: 1 }));
  assert.doesNotThrow(() => receive({ type: 'status', text: 'a host message echoed back' }));
  assert.doesNotThrow(() => receive('ready'));
  receive({ type: 'search', query: 'conv1', extra: 1 });
  receive({ type: 'reload' });
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(got, [{ type: 'search', query: 'conv1' }, { type: 'reload' }]);
  assert.equal(lines.length, 4, lines.join('\n'));
  assert.equal(lines[0], 'warn har: ignored a message from the page: openScript: field script is not an index (an integer ≥ 0)');
  assert.equal(lines[1], 'warn har: ignored a message from the page: unknown message type "status"');
  assert.equal(lines[2], 'warn har: ignored a message from the page: not a message object (string)');
  assert.match(lines[3], /^error har: Error: the disk went away/);
  assert.ok(
    lines.slice(0, 3).every((l) => !l.includes('\n')),
    'one line each',
  );
});

test('webview kit: the page scripts type-check against their protocols (every ToPage handled, only FromPage posted)', () => {
  const configPath = join(webviewDir, 'pages', 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(String(d.messageText)) },
  );
  assert.ok(config, 'pages/tsconfig.json parses');
  for (const name of PAGE_SCRIPTS)
    assert.ok(
      config.fileNames.some((f) => f.endsWith(`/pages/${name}.ts`)),
      `${name}.ts is in the project`,
    );
  const program = ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, noEmit: true } });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const text = ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => projectRoot, getNewLine: () => '\n' });
  assert.equal(diagnostics.length, 0, text);
});

test('webview kit: the one page frame — the checked nonce CSP, escaped title and attributes, exactly one script by nonce (or none)', () => {
  const page = testPage('hef.css', 'hef.js');
  const html = pageShell(page, { title: EVIL, bodyAttrs: { 'data-testid': 'x', 'data-name': `"${EVIL}` }, body: '<p>body</p>' });
  assert.ok(!html.includes(EVIL), 'the raw payload never appears');
  assert.ok(html.includes('<title>&lt;img src=x onerror=alert(1)&gt;</title>'));
  assert.ok(html.includes('data-name="&quot;&lt;img src=x onerror=alert(1)&gt;"'));
  assert.equal(/http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1], WEBVIEW_CSP);
  assert.deepEqual(
    [...html.matchAll(/<script[^>]*>([^<]*)<\/script>/g)].map((m) => [m[0], m[1]]),
    [['<script nonce="n0nce+/=" src="https://webview.test/hef.js"></script>', '']],
  );
  assert.equal(html.match(/<script/g)?.length, 1);
  assert.ok(!pageShell(page, { title: 't', body: '', script: false }).includes('<script'), 'script: false loads none');

  const weak = [
    "default-src 'none'; script-src 'nonce-n0nce+/=' 'unsafe-inline'",
    "default-src 'none'; script-src 'nonce-n0nce+/=' 'unsafe-eval'",
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-n0nce+/='",
    "default-src *; script-src 'nonce-n0nce+/='",
    "default-src 'none'; script-src 'nonce-other'",
    "default-src 'none'",
  ];
  for (const policy of weak) {
    assert.throws(() => pageShell({ ...page, cspMeta: cspMeta(policy) }, { title: 't', body: '' }), /weak Content-Security-Policy/, policy);
  }
  assert.throws(() => checkedCsp({ ...page, cspMeta: `${cspMeta(WEBVIEW_CSP)}<script>alert(1)</script>` }), /weak/);
});

test("webview kit: every panel's one-message page escapes the file's name and the message, on the checked CSP, with only its panel's script by nonce", () => {
  const page = testPage('hef.css', 'x.js');
  type Render = (title: string, message: string, o: typeof page) => string;
  const renderers: [string, Render][] = [
    ['hef-inspector-message', renderMessage],
    ['calib-inspector-message', renderCalibMessage],
    ['har-view-message', renderHarMessage],
    ['device-results-message', renderRunMessage],
    ['accuracy-message', renderAccuracyMessage],
    ['onnx-handoff', (t, m, o) => messagePage(t, m, o, 'onnx-handoff')],
  ];
  for (const [testId, render] of renderers) {
    const html = render(`${EVIL}.bin`, `Cannot read ${EVIL}: "bad" & 'worse'`, page);
    assert.ok(!html.includes(EVIL), `${testId}: the raw payload never appears`);
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;.bin'), `${testId}: the name is shown, escaped`);
    assert.ok(html.includes('&quot;bad&quot; &amp; &#39;worse&#39;'), `${testId}: the message is escaped`);
    assert.ok(html.includes(`data-testid="${testId}"`), testId);
    assert.equal(/http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1], WEBVIEW_CSP, testId);
    // The panel's script only says the page loaded (showPage.ts waits for that before the next page).
    assert.deepEqual(
      html.match(/<script[^>]*>/g),
      ['<script nonce="n0nce+/=" src="https://webview.test/x.js">'],
      `${testId}: only its panel's script, by nonce`,
    );
    assert.ok(!messagePage('t', 'm', { ...page, scriptUri: '' }, testId).includes('<script'), `${testId}: no script without a script to load`);
    assert.throws(() => render('t', 'm', { ...page, cspMeta: cspMeta("default-src 'none'; script-src 'unsafe-inline'") }), /weak/, testId);
  }
});
