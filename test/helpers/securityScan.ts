// Static checks behind SECURITY.md, written as small pure functions over source text so the tests
// can prove each one fires on a bad sample (a rule that cannot fail protects nothing).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FS_ALLOWED, UNCONFINED_FILE_ACCESS } from '../../scripts/fs-allowlist.mjs';

export interface SourceFile {
  /** Path relative to the repository root, with forward slashes. */
  path: string;
  text: string;
}

const SKIP_DIRS = new Set(['node_modules', 'out', 'dist', 'fixtures', '.git']);

/** Every .ts/.js/.mjs/.cjs file under the given top-level folders (and loose files) of `root`. */
export function sourceFiles(root: string, entries: string[]): SourceFile[] {
  const out: SourceFile[] = [];
  const visit = (p: string) => {
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) {
        if (SKIP_DIRS.has(name) || name.startsWith('.')) continue;
        visit(join(p, name));
      }
    } else if (/\.(ts|mts|cts|js|mjs|cjs|py)$/.test(p) && !p.endsWith('.d.ts')) {
      out.push({ path: relative(root, p).split('\\').join('/'), text: readFileSync(p, 'utf8') });
    }
  };
  for (const e of entries) visit(join(root, e));
  return out;
}

/** Blanks out // and /* *\/ comments (keeping line numbers) so prose about a rule does not trip it. */
export function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1');
}

export interface Finding {
  path: string;
  line: number;
  rule: string;
  text: string;
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

const CHILD_PROCESS = /(?:from\s*|require\s*\(\s*)['"](?:node:)?child_process['"]/;

/**
 * Shell strings: child_process.exec/execSync (a command line through /bin/sh), `shell: true`,
 * and `spawn('sh', ['-c', ...])`-style wrappers. Processes must get an argument array.
 */
export function findShellStrings(file: SourceFile): Finding[] {
  if (file.path.endsWith('.py')) return findPythonShellStrings(file);
  const code = stripComments(file.text);
  const findings: Finding[] = [];
  const add = (index: number, rule: string) =>
    findings.push({ path: file.path, line: lineOf(code, index), rule, text: code.slice(index, code.indexOf('\n', index)).trim() });
  for (const m of code.matchAll(/\bshell\s*:\s*(?!false\b)[^,}\s]+/g)) add(m.index!, 'shell option other than false');
  for (const m of code.matchAll(/['"`](?:\/bin\/|\/usr\/bin\/)?(?:ba|z|da)?sh['"`]\s*,\s*\[\s*['"`]-c['"`]/g)) add(m.index!, 'sh -c wrapper');
  if (CHILD_PROCESS.test(code)) {
    // Named imports/destructuring of exec or execSync from child_process.
    for (const m of code.matchAll(
      /(?:import\s*\{([^}]*)\}\s*from\s*['"](?:node:)?child_process['"])|(?:\{([^}]*)\}\s*=\s*require\s*\(\s*['"](?:node:)?child_process['"]\s*\))/g,
    )) {
      const names = (m[1] ?? m[2] ?? '').split(',').map((n) => n.trim().split(/\s+as\s+|\s*:\s*/)[0]);
      if (names.some((n) => n === 'exec' || n === 'execSync')) add(m.index!, 'exec/execSync imported from child_process');
    }
    // Namespace use: cp.exec(...), child_process.execSync(...).
    const ns = [
      ...code.matchAll(
        /(?:import\s+\*\s+as\s+(\w+)\s+from|import\s+(\w+)\s+from|(?:const|let|var)\s+(\w+)\s*=\s*require\s*\()\s*['"](?:node:)?child_process['"]/g,
      ),
    ].map((m) => m[1] ?? m[2] ?? m[3]);
    for (const name of ns) {
      for (const m of code.matchAll(new RegExp(`\\b${name}\\s*\\.\\s*(exec|execSync)\\s*\\(`, 'g'))) add(m.index!, `${name}.${m[1]}()`);
    }
  }
  return findings;
}

/**
 * In extension and server code, only the trust-gated runner may start processes or load native
 * code: child_process only in client/src/security/runTool.ts, the terminal CLI (which has no
 * workspace to trust) and server/src/processes/ modules that take a TrustToken; koffi only in a module
 * that takes a TrustToken.
 */
export function findUngatedExecution(file: SourceFile): Finding[] {
  const code = stripComments(file.text);
  const findings: Finding[] = [];
  const inProduct = file.path.startsWith('client/src/') || file.path.startsWith('server/src/');
  if (!inProduct) return findings;
  const cp = CHILD_PROCESS.exec(code);
  // The device client and the native build (server/src/processes/device/) start the worker and the compiler:
  // allowed only in a module that demands a TrustToken.
  // So does the float reference's onnxruntime worker (server/src/processes/accuracy/ortProcess.ts).
  // And the compile runner's launcher (server/src/processes/compile/launcher.ts), which spawns docker.
  const deviceGated = file.path.startsWith('server/src/processes/') && /\bTrustToken\b/.test(code);
  const allowedCp = file.path === 'client/src/security/runTool.ts' || file.path.startsWith('server/src/cli/') || deviceGated;
  if (cp && !allowedCp) findings.push({ path: file.path, line: lineOf(code, cp.index), rule: 'child_process outside security/runTool.ts', text: cp[0] });
  const koffi = /(?:from\s*|require\s*\(\s*)['"]koffi(?:\/[^'"]*)?['"]/.exec(code);
  if (koffi && !/\bTrustToken\b/.test(code) && !file.path.startsWith('server/src/cli/')) {
    findings.push({ path: file.path, line: lineOf(code, koffi.index), rule: 'koffi loaded without a TrustToken', text: koffi[0] });
  }
  return findings;
}

const FS_MODULE = String.raw`['"](?:node:)?fs(?:/promises)?['"]`;

/**
 * The confined file layer (issue 29): in client/src and server/src, node:fs (imported, required or
 * dynamically imported) only in the modules of scripts/fs-allowlist.mjs — a type-only import opens
 * nothing — and the layer's root-less path functions only inside the layer.
 */
export function findDirectFileAccess(file: SourceFile): Finding[] {
  const inProduct = file.path.startsWith('client/src/') || file.path.startsWith('server/src/');
  if (!inProduct || FS_ALLOWED.some((a) => a.path === file.path)) return [];
  const code = stripComments(file.text);
  const findings: Finding[] = [];
  const add = (index: number, rule: string) =>
    findings.push({ path: file.path, line: lineOf(code, index), rule, text: code.slice(index, code.indexOf('\n', index)).trim() });
  for (const m of code.matchAll(new RegExp(String.raw`import\s+(type\s+)?[^;]*?from\s*${FS_MODULE}`, 'g'))) {
    if (!m[1]) add(m.index, 'node:fs outside the confined file layer');
  }
  for (const m of code.matchAll(new RegExp(String.raw`(?:require|import)\s*\(\s*${FS_MODULE}\s*\)`, 'g')))
    add(m.index, 'node:fs outside the confined file layer');
  for (const m of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"]([^'"]*fileAccess|@hailo\/api)['"]/g)) {
    const names = m[1].split(',').map((n) =>
      n
        .trim()
        .split(/\s+as\s+/)[0]
        .replace(/^type\s+/, ''),
    );
    const bad = names.filter((n) => UNCONFINED_FILE_ACCESS.includes(n));
    if (bad.length) add(m.index, `a root-less path function of the layer (${bad.join(', ')}): use FileRoots`);
  }
  return findings;
}

/**
 * Webviews: a module that sets webview HTML must carry a CSP with default-src 'none' and
 * nonce-only scripts; a module that enables scripts must restrict localResourceRoots.
 */
export function findWebviewProblems(file: SourceFile): Finding[] {
  const code = stripComments(file.text);
  const findings: Finding[] = [];
  const setsHtml = /\.html\s*=(?!=)/.exec(code);
  const isWebviewHtml = setsHtml && /webview/i.test(code);
  // A page built on client/src/webview/csp.ts (strictCsp, or assets.ts pageOptions built on it)
  // carries the shared policy, checked below; so does a readonly editor's page from
  // client/src/customEditor.ts (preparePanel's page() is pageOptions'), which security.test.ts holds;
  // and client/src/webview/showPage.ts, which sets a page only after html.ts's checkedCsp accepted it.
  const sharedCsp = /\b(strictCsp|pageOptions|preparePanel|checkedCsp)\(/.test(code);
  if (isWebviewHtml && !sharedCsp) {
    const line = lineOf(code, setsHtml.index);
    if (!/Content-Security-Policy/.test(code))
      findings.push({ path: file.path, line, rule: 'webview HTML without a Content-Security-Policy', text: setsHtml[0] });
    if (!/default-src 'none'/.test(code)) findings.push({ path: file.path, line, rule: "CSP without default-src 'none'", text: setsHtml[0] });
    if (/<script/i.test(code) && !/nonce-/.test(code)) findings.push({ path: file.path, line, rule: 'scripts without a nonce', text: setsHtml[0] });
    if (/script-src[^;"]*'unsafe-(inline|eval)'/.test(code))
      findings.push({ path: file.path, line, rule: "script-src allows 'unsafe-inline'/'unsafe-eval'", text: setsHtml[0] });
  }
  const scripts = /enableScripts\s*:\s*true/.exec(code);
  if (scripts && !/localResourceRoots/.test(code)) {
    findings.push({ path: file.path, line: lineOf(code, scripts.index), rule: 'enableScripts without localResourceRoots', text: scripts[0] });
  }
  return findings;
}

export function describeFindings(findings: Finding[]): string {
  return findings.map((f) => `${f.path}:${f.line}: ${f.rule}: ${f.text}`).join('\n');
}

/** The same rule for the Python generator scripts: no shell=True, os.system, os.popen, getoutput. */
export function findPythonShellStrings(file: SourceFile): Finding[] {
  const code = file.text.replace(/#[^\n]*/g, '');
  const findings: Finding[] = [];
  for (const m of code.matchAll(/\bshell\s*=\s*True\b|\bos\.(?:system|popen)\s*\(|\bsubprocess\.(?:getoutput|getstatusoutput)\s*\(/g)) {
    findings.push({ path: file.path, line: lineOf(code, m.index!), rule: 'shell command line in Python', text: m[0] });
  }
  return findings;
}
