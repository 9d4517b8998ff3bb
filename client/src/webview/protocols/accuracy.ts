// The accuracy table's messages (host: client/src/accuracy/compareCommand.ts; page: pages/accuracy.ts).
import type { Schema, StatusMessage } from '../protocol';

export type AccuracyToPage = StatusMessage;

export type AccuracyFromPage = { type: 'exportJson' } | { type: 'runAgain' };

export const ACCURACY_FROM_PAGE: Schema<AccuracyFromPage> = { exportJson: {}, runAgain: {} };
