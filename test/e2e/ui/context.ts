// What the driver (test/e2e/run.mjs) hands the browser scenarios, through globalThis.
import type { Browser } from 'playwright-core';

export interface CodeServerHandle {
  url: string;
  remote(path: string): string;
  pageUrl(options?: { folder?: string; payload?: [string, string][] }): string;
  output(): string;
}

export interface E2EContext {
  browser: Browser;
  server: CodeServerHandle;
  /** Absolute path of the temp workspace (a copy of examples/ + e2e-fixtures/). */
  workspace: string;
  /** The installed extension's folder (the unpacked .vsix). */
  extensionFolder: string;
  /** false in the Restricted Mode instance. */
  trust: boolean;
  screenshotsDir: string;
  /** ../shared when present (dev workspace, CI), else undefined. */
  shared?: string;
  /** Where failure screenshots go (inside the run's temp folder). */
  failuresDir: string;
  /** Pages opened by openWorkbench, for failure screenshots. */
  pages: import('playwright-core').Page[];
  /** JSON file: what `hailo-tools check --json broken/` reports (the CLI shares the analysis core). */
  expectedDiagnostics: string;
  /** The fake docker's state folder (test/fakes/docker): config.json, argv.jsonl, containers/. */
  fakeDockerState: string;
  /** The repository (fixtures of the compile scenarios). */
  repo: string;
  /** Where each window's extension host listens for commands (HAILO_TOOLS_E2E_BRIDGE; ui/commands.ts). */
  bridgeDir: string;
}

export function e2e(): E2EContext {
  const ctx = (globalThis as { __hailoE2E?: E2EContext }).__hailoE2E;
  if (!ctx) throw new Error('browser scenarios run only under test/e2e/run.mjs');
  return ctx;
}
