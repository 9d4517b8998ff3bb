// The sweep page's messages (host: client/src/sweep/command.ts; page: pages/sweep.ts) and the view
// the host computes for the page (client/src/sweep/view.ts): the page never gets a path — a click
// names a row id and which of its files, and the host resolves it against its own document.
import type { Schema, StatusMessage } from '../protocol';

export interface ViewCell {
  /** Sort value: numbers sort as numbers; null sorts last. */
  v: number | string | null;
  text: string;
}

export interface ViewRow {
  id: string;
  /** 1-based, as the chart's points are numbered. */
  n: number;
  /** The variant's state (SweepRow['state']: queued, running, ok, failed, …). */
  state: string;
  cells: ViewCell[];
  /** Which files a click can open (the host resolves them from its own document). */
  has: { log: boolean; hef: boolean; alls: boolean };
}

export interface ChartPoint {
  n: number;
  seconds: number | null;
  fps: number | null;
  /** Relative error against float, percent. */
  relErrorPct: number;
}

export interface SweepView {
  title: string;
  summary: string;
  running: boolean;
  columns: { id: string; title: string; link: 'log' | 'hef' | null }[];
  rows: ViewRow[];
  contexts: { name: string; width: number; state: string; ran: number; message: string }[];
  chart: ChartPoint[];
  /** Which accuracy oracle the chart shows, in words. */
  chartNote: string;
}

export type SweepToPage = { type: 'view'; view: SweepView } | StatusMessage;

export type SweepFile = 'log' | 'hef' | 'alls';

export type SweepFromPage =
  /** The page listens: the host posts the current view. */
  | { type: 'ready' }
  | { type: 'cancel' }
  | { type: 'runAgain' }
  | { type: 'exportCsv' }
  | { type: 'exportJson' }
  | { type: 'open'; id: string; what: SweepFile };

export const SWEEP_FROM_PAGE: Schema<SweepFromPage> = {
  ready: {},
  cancel: {},
  runAgain: {},
  exportCsv: {},
  exportJson: {},
  open: { id: 'string', what: ['log', 'hef', 'alls'] },
};
