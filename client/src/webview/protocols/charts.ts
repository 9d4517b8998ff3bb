// The chart a results page draws (device results, accuracy): rendered by the host as escaped JSON
// in a `data-chart` attribute, drawn by pages/lib/charts.ts with uPlot.

/** What the page script draws. Numbers and fixed labels only, never a name from the file. */
export interface ChartSpec {
  kind: 'line' | 'bars';
  title: string;
  xLabel: string;
  yLabel: string;
  /** x values (bar centres for `bars`). */
  x: number[];
  series: { label: string; values: (number | null)[] }[];
  /** Draw x on a log2 axis (queue depths 1, 2, 4, …). */
  xLog2?: boolean;
}
