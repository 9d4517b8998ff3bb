// "Hailo: Transcribe Audio" as a user meets it, on the fake HailoRT's simulated Whisper (test/e2e/
// fakeDevice.ts writes tones.wav beside the GenAI fixtures: a 44.1 kHz stereo recording with two
// tones the fake "hears" as segments named by their pitch — fake_speech2text.cpp). The command
// answers with the transcription; the transcript opens as Markdown beside the editor. In Restricted
// Mode the command is refused before anything is read.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { e2e } from './context';
import { closeAllEditors, deadlineMs, execute, fileArg, openWorkbench, waitForText } from './workbench';
import { E2E_TONES } from '../speechFixture';

interface Transcribed {
  segments: { start: number; end: number; text: string }[];
  source: { sampleRate: number; channels: number };
  text: string;
}

describe('Transcribe Audio', () => {
  let page: Page;
  before(async () => {
    page = await openWorkbench();
  });
  after(async () => {
    await page?.close();
  });

  it('a WAV from the workspace through the speech HEF: the tones come back as segments, the transcript opens as Markdown', async function () {
    this.timeout(deadlineMs(8));
    await closeAllEditors(page);
    const args = { audio: fileArg('e2e-fixtures/genai/tones.wav'), hef: fileArg('e2e-fixtures/genai/whisper-base.hef') };
    const result = await execute<Transcribed | null | undefined>(page, 'hailo.transcribeAudio', [args], { steps: 6 });
    if (!e2e().trust) {
      // Restricted Mode: refused before the recording or the HEF is read.
      assert.ok(result === null || result === undefined, JSON.stringify(result));
      return;
    }
    assert.ok(result, 'the command answered no transcription');
    assert.deepEqual(result.source, { ...result.source, sampleRate: 44_100, channels: 2 });
    assert.equal(result.segments.length, E2E_TONES.length, JSON.stringify(result.segments));
    result.segments.forEach((s, i) => {
      const t = E2E_TONES[i];
      assert.ok(Math.abs(s.start - t.start) <= 0.03 && Math.abs(s.end - t.end) <= 0.03, `segment ${i}: ${s.start}–${s.end}`);
      assert.equal(s.text, ` tone ${t.hz} Hz`);
    });
    // The transcript document, beside the editor: its heading and the text (escaped Markdown; the
    // editor renders spaces as no-break spaces, hence \s).
    await waitForText(page.locator('.monaco-editor .view-lines').first(), /Transcript\sof\stones\\?\.wav/, 'the transcript heading');
    await waitForText(page.locator('.monaco-editor .view-lines').first(), /tone\s440\sHz\stone\s1000\sHz/, 'the transcript text');
  });
});
