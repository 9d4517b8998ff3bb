// The charts of a results page (device results, accuracy), bundled with uPlot into the page's
// script. The page arrives rendered and escaped; this only draws each chart from the numbers in its
// `data-chart` attribute (../../protocols/charts.ts ChartSpec). uPlot writes labels with
// textContent and styles through the CSSOM, so the nonce CSP needs no 'unsafe-inline'.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartSpec } from '../../protocols/charts';

const charts: { el: HTMLElement; plot: uPlot }[] = [];

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

function widthOf(el: HTMLElement): number {
  return Math.max(260, Math.min(el.parentElement?.clientWidth ?? 480, 640));
}

function draw(el: HTMLElement): void {
  const spec = JSON.parse(el.dataset.chart ?? 'null') as ChartSpec | null;
  if (!spec || !Array.isArray(spec.x)) return;
  const fg = cssVar('--vscode-foreground', '#cccccc');
  const grid = cssVar('--vscode-editorWidget-border', 'rgba(128,128,128,0.3)');
  const colour = cssVar('--vscode-charts-blue', '#3794ff');
  const bars = spec.kind === 'bars';
  const axis = (label: string): uPlot.Axis => ({ label, stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } });
  const opts: uPlot.Options = {
    width: widthOf(el),
    height: 220,
    scales: { x: spec.xLog2 ? { time: false, distr: 3, log: 2 } : { time: false } },
    axes: [axis(spec.xLabel), axis(spec.yLabel)],
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
    series: [
      { label: spec.xLabel },
      ...spec.series.map((s): uPlot.Series => ({
        label: s.label,
        stroke: colour,
        width: bars ? 0 : 2,
        fill: bars ? colour : undefined,
        paths: bars ? uPlot.paths.bars!({ size: [0.9, Infinity] }) : undefined,
        points: { show: !bars },
      })),
    ],
  };
  const plot = new uPlot(opts, [spec.x, ...spec.series.map((s) => s.values)] as uPlot.AlignedData, el);
  charts.push({ el, plot });
  el.dataset.drawn = 'true';
}

/** Draws every chart on the page and redraws them at the window's width. */
export function drawCharts(): void {
  document.querySelectorAll<HTMLElement>('.chart[data-chart]').forEach((el) => {
    try {
      draw(el);
    } catch (err) {
      // A chart that cannot be drawn leaves its data table; say why on the page.
      el.textContent = `This chart could not be drawn: ${err instanceof Error ? err.message : String(err)}`;
      el.dataset.drawn = 'false';
    }
  });
  let resizeTimer: number | undefined;
  window.addEventListener('resize', () => {
    window.clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(() => charts.forEach(({ el, plot }) => plot.setSize({ width: widthOf(el), height: 220 })), 100);
  });
}
