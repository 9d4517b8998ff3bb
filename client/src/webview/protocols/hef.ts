// The HEF inspector's messages (host: client/src/hef/hefEditor.ts; page: pages/hef.ts).
import type { Schema, StatusMessage } from '../protocol';

export type HefToPage = StatusMessage;

export type HefFromPage = { type: 'copyJson' } | { type: 'reload' } | { type: 'runOnDevice' };

export const HEF_FROM_PAGE: Schema<HefFromPage> = { copyJson: {}, reload: {}, runOnDevice: {} };
