// The Calibration Set Inspector's messages (host: client/src/calib/calibEditor.ts; page: pages/calib.ts).
import type { Schema, StatusMessage } from '../protocol';

export type CalibToPage = StatusMessage;

export type CalibFromPage = { type: 'copyJson' } | { type: 'reload' };

export const CALIB_FROM_PAGE: Schema<CalibFromPage> = { copyJson: {}, reload: {} };
