// `hailo-tools transcribe [--language L] [--task transcribe|translate] [--segments] [--json] HEF AUDIO`:
// one recording through a speech-to-text HEF (Whisper) on the device, with HailoRT's Speech2Text,
// through the same worker as `run` and `chat` (DeviceClient). The recording is a WAV file in any
// encoding and rate; the worker decodes and resamples it to what Speech2Text takes. Ctrl-C stops the
// worker (the transcription is one blocking HailoRT call). Exit: 0 transcribed, 1 stopped (Ctrl-C),
// 2 could not run (one sentence says why).
import { resolve } from 'node:path';
import { DEFAULT_OPEN_OPTIONS, type DeviceError, type SpeechTask } from '../core/device/protocol';
import { segmentLines, transcribeSummary } from '../core/genai';
import { client, COMMON, errorOf, fail, parseCommon, type Common } from './device';
import { helpTable } from './help';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';

const TRANSCRIBE_USAGE = `usage: hailo-tools transcribe [--language L] [--task transcribe|translate] [--segments]
                             [--json] HEF AUDIO

Transcribes a recording with a speech-to-text HEF (Hailo's Whisper) on the attached Hailo-10H
(HailoRT 5.1+ Speech2Text). AUDIO is a WAV file (PCM, float, A-law, mu-law or IMA ADPCM; any rate
and channel count: it is mixed to mono and resampled to 16 kHz). The text goes to stdout; the
timings to stderr.
${helpTable([
  ['--language L', 'the spoken language, an ISO-639-1 code (en, fr, …); default: the model detects it'],
  ['--task T', 'transcribe (default) or translate (into English)'],
  ['--segments', 'one line per segment with its start and end time'],
  ...COMMON,
])}
Exit: 0 transcribed, 1 stopped (Ctrl-C), 2 could not run (one sentence says why).
`;

export async function runTranscribe(args: string[], io: CliIO): Promise<number> {
  const c: Common = { json: false, groupId: DEFAULT_OPEN_OPTIONS.groupId, timeoutMs: DEFAULT_OPEN_OPTIONS.timeoutMs };
  let language: string | undefined;
  let task: SpeechTask = 'transcribe';
  let segments = false;
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--help' || a === '-h') {
      io.out(TRANSCRIBE_USAGE);
      return EXIT_OK;
    }
    const r = parseCommon(args, i, c, io);
    if (r === 'error') return EXIT_USAGE;
    if (r !== 'unknown') {
      i = r;
      continue;
    }
    if (a === '--segments') segments = true;
    else if (a === '--language' || a === '--task') {
      const v = args[i + 1];
      if (v === undefined) {
        io.err(`hailo-tools transcribe: ${a} needs a value\n`);
        return EXIT_USAGE;
      }
      i++;
      if (a === '--language') language = v;
      else if (v === 'transcribe' || v === 'translate') task = v;
      else {
        io.err(`hailo-tools transcribe: --task is transcribe or translate, not '${v}'\n`);
        return EXIT_USAGE;
      }
    } else if (a.startsWith('-') && a !== '-') {
      io.err(`hailo-tools transcribe: unknown option '${a}'\n\n${TRANSCRIBE_USAGE}`);
      return EXIT_USAGE;
    } else positional.push(a);
  }
  if (positional.length !== 2) {
    io.err(
      `hailo-tools transcribe: expected a HEF and a recording, got ${positional.length} argument${positional.length === 1 ? '' : 's'}\n\n${TRANSCRIBE_USAGE}`,
    );
    return EXIT_USAGE;
  }
  const [hef, audio] = positional.map((p) => resolve(p));
  const dc = client(c, io, 'transcribe');
  let stopped = false;
  const onSigint = () => {
    stopped = true;
    dc.dispose();
  };
  process.on('SIGINT', onSigint);
  try {
    const result = await dc.transcribe({ hef, audio, task, language, groupId: c.groupId });
    if (c.json) io.out(JSON.stringify(result, null, 2) + '\n');
    else {
      io.out(segments ? segmentLines(result) : `${result.text.trim()}\n`);
      io.err(`hailo-tools: ${transcribeSummary(result)}\n`);
    }
    return EXIT_OK;
  } catch (err) {
    if (stopped) {
      io.err('hailo-tools transcribe: stopped (Ctrl-C)\n');
      return EXIT_FINDINGS;
    }
    return fail(io, c.json, errorOf(err) as DeviceError);
  } finally {
    process.off('SIGINT', onSigint);
    dc.dispose();
  }
}
