// The shell of the sweep results page (Hailo: Run Sweep / Open Sweep Results). Pure, escaped, on
// the one nonce CSP (checked again here). The table, the contexts and the chart are built by the
// page's own script (client/src/webview/pages/sweep.ts) from the SweepDocument the host posts, with
// textContent only — every name from a plan, a log or a file reaches the page as text, never markup.
import { esc, pageShell, type ChartPageOptions } from '../webview/html';

/** The sweep page's options: its own stylesheet and uPlot's. */
export type SweepPage = ChartPageOptions;

export function renderSweepShell(title: string, planPath: string, page: SweepPage): string {
  return pageShell(page, {
    title,
    styles: [page.styleUri, page.chartStyleUri],
    body: `<header class="sweep-head">
  <h1 data-testid="sweep-title">${esc(title)}</h1>
  <p class="muted" data-testid="sweep-plan">${esc(planPath)}</p>
  <p data-testid="sweep-summary" aria-live="polite">Loading…</p>
  <div class="buttons">
    <button id="cancel" data-testid="sweep-cancel" hidden>Cancel Sweep</button>
    <button id="run-again" data-testid="sweep-run-again" hidden>Run Again</button>
    <button id="export-csv" data-testid="sweep-export-csv">Export CSV…</button>
    <button id="export-json" data-testid="sweep-export-json">Export JSON…</button>
  </div>
  <p id="status" data-testid="sweep-status" class="muted" aria-live="polite"></p>
</header>
<section>
  <h2>Variants</h2>
  <p class="muted">Click a column heading to sort; click a cell to open the variant's log (its HEF in the HEF column).</p>
  <div class="table-wrap"><table data-testid="sweep-table"><thead></thead><tbody></tbody></table></div>
</section>
<section>
  <h2>Accuracy against <select id="chart-x" data-testid="sweep-chart-x" aria-label="x axis"><option value="time">compile time</option><option value="fps">FPS</option></select></h2>
  <figure class="chart-box">
    <div class="chart" id="sweep-chart" data-testid="sweep-chart" role="img" aria-label="relative error against float, per variant"></div>
    <figcaption class="muted" id="chart-note" data-testid="sweep-chart-note"></figcaption>
  </figure>
</section>
<section>
  <h2>Docker contexts</h2>
  <table data-testid="sweep-contexts"><thead><tr><th scope="col">context</th><th scope="col">width</th><th scope="col">state</th><th scope="col">ran</th><th scope="col">why</th></tr></thead><tbody></tbody></table>
</section>`,
  });
}
