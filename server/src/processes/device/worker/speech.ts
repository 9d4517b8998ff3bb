// What the device worker does to transcribe a recording: our HEF reader says first whether the HEF
// is a speech model HailoRT's Speech2Text can open (core/genai/speech.ts) and whether it runs on the
// device, the recording is decoded to 16 kHz mono float32 (core/genai/audio.ts), then the bridge
// opens the model, runs generate_all_segments and closes it. The call blocks the worker for the
// whole transcription, as HailoRT's does; the client's request deadline bounds it.
import { basename } from 'node:path';
import { FileRoots } from '../../../core/common/confined';
import { FileAccessError } from '../../../core/common/fileAccess';
import { limit } from '../../../core/common/limits';
import { errorFromKind, errorFromStatus, HailoStatus } from '../../../core/device/errors';
import type { RuntimeInfo, TranscribeRequest, TranscribeResult } from '../../../core/device/protocol';
import { AudioError, classifySpeechFile, decodeSpeechAudio, type SpeechAudio } from '../../../core/genai';
import { ShimError, type Bridge } from './bridge';
import { failure, refuseFileOrHailort4, tooOld, withSentence } from './chat';
import { DeviceFailure, type HailortSession } from './hailortSession';

/** HailoRT 5.3 raised Speech2Text's default timeout from 10 s to 10 min (docs/research/hailo-users.md#releases). */
export const DEFAULT_TRANSCRIBE_TIMEOUT_MS = 10 * 60_000;

export class SpeechService {
  constructor(
    private readonly bridge: Bridge,
    private readonly runtime: RuntimeInfo,
    private readonly devices: HailortSession,
  ) {}

  async transcribe(r: TranscribeRequest): Promise<TranscribeResult> {
    const { report, speech } = await classifySpeechFile(r.hef);
    refuseFileOrHailort4(
      report,
      r.hef,
      this.runtime,
      `Speech-to-text needs a Hailo-10H with HailoRT 5.1 or newer; HailoRT ${this.runtime.hailortVersion} runs the Hailo-8 family, which has no Speech2Text.`,
    );
    if (!speech.speech) throw new DeviceFailure(withSentence(errorFromKind('not-speech', speech.evidence.join('; ')), speech.summary));
    const task = r.task ?? 'transcribe';
    if (task !== 'transcribe' && task !== 'translate') {
      throw new DeviceFailure(
        withSentence(errorFromKind('bad-params', `task ${String(task)}`), `The task must be transcribe or translate, not '${String(task)}'.`),
      );
    }
    const language = r.language?.trim() ?? '';
    if (language && !/^[a-z]{2,3}$/.test(language)) {
      throw new DeviceFailure(
        withSentence(
          errorFromKind('bad-params', `language ${language}`),
          `The language must be an ISO-639-1 code such as en or fr (Whisper's language tokens), not '${language}'; leave it out to let the model detect it.`,
        ),
      );
    }
    const audio = this.readAudio(r.audio);
    // The pre-run gate (core/device/runGate.ts): the file under this HailoRT, the device, the pair.
    await this.devices.gate(r.hef, report);

    const t0 = performance.now();
    let handle: number;
    try {
      handle = this.bridge.speechOpen(r.hef, r.groupId);
    } catch (err) {
      throw this.openFailure(err, r.groupId);
    }
    const openMs = performance.now() - t0;
    try {
      const t1 = performance.now();
      let segments;
      try {
        segments = this.bridge.speechGenerate(handle, audio.samples, task, language, 0, r.timeoutMs ?? DEFAULT_TRANSCRIBE_TIMEOUT_MS);
      } catch (err) {
        throw generateFailure(err, language);
      }
      const ms = performance.now() - t1;
      return {
        hef: r.hef,
        audio: r.audio,
        runtime: this.runtime,
        task,
        language: language || null,
        source: audio.source,
        segments,
        text: segments.map((s) => s.text).join(''),
        ms,
        openMs,
      };
    } finally {
      this.bridge.speechClose(handle);
    }
  }

  private readAudio(path: string): SpeechAudio {
    let bytes: Buffer;
    try {
      // A recording the user named: its own folder is its root.
      bytes = FileRoots.named(path).readSync(path, limit('audioFileBytes'));
    } catch (err) {
      const why = err instanceof FileAccessError ? err.message : String(err);
      throw new DeviceFailure(
        withSentence(errorFromKind('bad-audio', why), `The recording ${why.replace(/;? not read$/, '')}: nothing was sent to the device.`),
      );
    }
    try {
      return decodeSpeechAudio(bytes, basename(path));
    } catch (err) {
      if (err instanceof AudioError) throw new DeviceFailure(withSentence(errorFromKind('bad-audio', err.message), err.message));
      throw err;
    }
  }

  private openFailure(err: unknown, groupId: string): DeviceFailure {
    if (!(err instanceof ShimError)) return failure(err, 'open');
    switch (err.status) {
      case HailoStatus.NOT_IMPLEMENTED:
        return new DeviceFailure(tooOld(err));
      case HailoStatus.NOT_FOUND:
        return new DeviceFailure(
          withSentence(
            errorFromKind('not-speech', err.detail, err.status, err.statusName),
            `HailoRT did not find the encoder or decoder network group, or the hailo-config.json, it runs this speech model with (status 61).`,
          ),
        );
      case HailoStatus.INVALID_ARGUMENT:
        return new DeviceFailure(
          withSentence(
            errorFromKind('not-speech', err.detail, err.status, err.statusName),
            `HailoRT refused the speech model's hailo-config.json (status 2): it lacks a field HailoRT's Speech2Text server needs.`,
          ),
        );
      case HailoStatus.OUT_OF_PHYSICAL_DEVICES: {
        const count = this.devices.scan().devices.length;
        return new DeviceFailure(
          this.devices.explainBusy(
            errorFromStatus(err.status, err.detail, { scanCount: count, during: 'open', system: this.devices.system() }, err.statusName),
            groupId,
          ),
        );
      }
      default:
        return new DeviceFailure(errorFromStatus(err.status, err.detail, { during: 'open', system: this.devices.system() }, err.statusName));
    }
  }
}

function generateFailure(err: unknown, language: string): DeviceFailure {
  if (err instanceof ShimError && err.status === HailoStatus.INVALID_ARGUMENT) {
    // HailoRT's server answers 2 for an empty recording (ruled out before) and for a language that is
    // not one of the model's language tokens (speech2text_server.cpp language_to_token_id).
    const sentence = language
      ? `HailoRT refused the language '${language}' (status 2): use an ISO-639-1 code the model has a token for, or leave the language out to let it detect one.`
      : 'HailoRT refused the recording (status 2); its log says why.';
    return new DeviceFailure(withSentence(errorFromKind('bad-params', err.detail, err.status, err.statusName), sentence));
  }
  if (err instanceof ShimError && err.status === HailoStatus.NOT_IMPLEMENTED) return new DeviceFailure(tooOld(err));
  return failure(err, 'transcribe');
}
