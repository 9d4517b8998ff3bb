// `hailo-tools transcribe [--language L] [--task transcribe|translate] [--segments] [--json] HEF AUDIO`:
// one recording through a speech-to-text HEF (Whisper) on the device, with HailoRT's Speech2Text,
// through the same worker as `run` and `chat` (DeviceClient). The recording is a WAV file in any
// encoding and rate; the worker decodes and resamples it to what Speech2Text takes. Ctrl-C stops the
// worker (the transcription is one blocking HailoRT call). Exit: 0 transcribed, 1 stopped (Ctrl-C),
// 2 could not run (one sentence says why).
import { resolve } from 'node:path';
import type { DeviceError } from '../core/device/protocol';
import { segmentLines, transcribeSummary } from '../core/genai';
import { client, COMMON_OPTIONS, commonOf, errorOf, fail } from './device';
import { helpTable } from './help';
import { optionRows, parseCommand, usageError } from './args';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';

const TRANSCRIBE_OPTIONS = {
  language: { type: 'string', arg: 'L', help: 'the spoken language, an ISO-639-1 code (en, fr, …); default: the model detects it' },
  task: { type: 'string', default: 'transcribe', arg: 'T', help: 'transcribe (default) or translate (into English)' },
  segments: { type: 'boolean', help: 'one line per segment with its start and end time' },
  ...COMMON_OPTIONS,
} as const;

const TRANSCRIBE_USAGE = `usage: hailo-tools transcribe [--language L] [--task transcribe|translate] [--segments]
                             [--json] HEF AUDIO

Transcribes a recording with a speech-to-text HEF (Hailo's Whisper) on the attached Hailo-10H
(HailoRT 5.1+ Speech2Text). AUDIO is a WAV file (PCM, float, A-law, mu-law or IMA ADPCM; any rate
and channel count: it is mixed to mono and resampled to 16 kHz). The text goes to stdout; the
timings to stderr.
${helpTable(optionRows(TRANSCRIBE_OPTIONS))}
Exit: 0 transcribed, 1 stopped (Ctrl-C), 2 could not run (one sentence says why).
`;

export async function runTranscribe(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('transcribe', TRANSCRIBE_USAGE, TRANSCRIBE_OPTIONS, args, io);
  if (typeof parsed === 'number') return parsed;
  const { language, task, segments } = parsed.values;
  const c = commonOf('transcribe', parsed.values, io);
  if (!c) return EXIT_USAGE;
  if (task !== 'transcribe' && task !== 'translate') {
    io.err(`hailo-tools transcribe: --task is transcribe or translate, not '${task}'\n`);
    return EXIT_USAGE;
  }
  const positional = parsed.positionals;
  if (positional.length !== 2)
    return usageError(
      io,
      'transcribe',
      TRANSCRIBE_USAGE,
      `expected a HEF and a recording, got ${positional.length} argument${positional.length === 1 ? '' : 's'}`,
    );
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
