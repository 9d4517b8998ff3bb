// `hailo-tools transcribe` as a user runs it (bin/hailo-tools.js in a child process) on the fake
// libhailort, whose Speech2Text "hears" tones (fake_speech2text.cpp): each tone written into the
// recording comes back as a segment with its pitch and times. Expected values are the tones the test
// wrote and HailoRT's own rules (speech2text_server.cpp, v5.1.1 and v5.2.0): which HEFs each line
// opens, 10-second chunks a segment never crosses, the statuses of what it refuses.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { genaiSetup, type GenAiSetup } from '../helpers/genaiFixtures';
import { repoRoot } from '../helpers/shared';
import { toneSamples, wavBytes, type Tone } from '../helpers/wavWriter';

let setup: GenAiSetup;
let setup51: GenAiSetup;
let stereo: string;
let mp3: string;
const TONES: Tone[] = [
  { start: 0.5, end: 1.5, hz: 440 },
  { start: 2.0, end: 3.0, hz: 1000 },
  // crosses the first 10-second chunk: two segments, split at 10.0 s
  { start: 9.5, end: 10.5, hz: 300 },
];

before(async () => {
  setup = await genaiSetup('speech-cli');
  setup51 = await genaiSetup('speech-cli-51', '5.1.0');
  for (const s of [setup, setup51]) mkdirSync(join(s.dir, 'sysfs', 'sys', 'module', 'hailo1x_pci'), { recursive: true });
  stereo = join(setup.dir, 'tones-44k-stereo.wav');
  writeFileSync(stereo, wavBytes(toneSamples(TONES, 11, 44_100, 2), 44_100, 2, 'pcm16'));
  mp3 = join(setup.dir, 'talk.mp3');
  writeFileSync(mp3, new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]));
});
after(() => {
  setup?.cleanup();
  setup51?.cleanup();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(s: GenAiSetup, args: string[]): Promise<Run> {
  return new Promise((done) => {
    const env = { ...process.env, ...s.env(), HAILO_TOOLS_SYSFS_ROOT: join(s.dir, 'sysfs') };
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'transcribe', ...args], { env, cwd: s.dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const near = (a: number, b: number) => Math.abs(a - b) <= 0.03;

test('transcribe --json: each tone of a 44.1 kHz stereo WAV is a segment at its time and pitch; none crosses a 10 s chunk', async () => {
  const r = await cli(setup, ['--json', setup.hefs.speech.whisper, stereo]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.task, 'transcribe');
  assert.equal(doc.language, null);
  assert.deepEqual(doc.source, { encoding: 'PCM 16-bit', sampleRate: 44_100, channels: 2, seconds: 11 });
  const expected = [
    [0.5, 1.5, 440],
    [2.0, 3.0, 1000],
    [9.5, 10.0, 300],
    [10.0, 10.5, 300],
  ];
  assert.equal(doc.segments.length, expected.length, JSON.stringify(doc.segments));
  doc.segments.forEach((seg: { start: number; end: number; text: string }, i: number) => {
    const [start, end, hz] = expected[i];
    assert.ok(near(seg.start, start) && near(seg.end, end), `segment ${i}: ${seg.start}–${seg.end}, expected ${start}–${end}`);
    assert.equal(seg.text, ` tone ${hz} Hz`);
  });
  assert.equal(doc.text, doc.segments.map((s: { text: string }) => s.text).join(''));
  assert.equal(doc.runtime.fake, true);
});

test('transcribe: the text on stdout, --segments with times, the figures on stderr; --task and --language reach the model', async () => {
  const plain = await cli(setup, [setup.hefs.speech.whisperTiny, stereo]);
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(plain.stdout, 'tone 440 Hz tone 1000 Hz tone 300 Hz tone 300 Hz\n');
  assert.match(
    plain.stderr,
    /hailo-tools: 4 segments from 11\.0 s of PCM 16-bit audio at 44100 Hz, 2 channels, transcribed in \d+\.\d\d s \(\d+\.\d\d× real time\), model opened in/,
  );
  const seg = await cli(setup, ['--segments', '--task', 'translate', '--language', 'fr', setup.hefs.speech.whisper, stereo]);
  assert.equal(seg.code, 0, seg.stderr);
  const lines = seg.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 4);
  assert.match(lines[0], /^\[00:00\.(4[7-9]\d|5[0-2]\d) → 00:01\.(4[7-9]\d|5[0-2]\d)\] {2}\[translate fr\] tone 440 Hz$/);
  assert.match(lines[3], /^\[00:10\.000 → 00:10\.(4[7-9]\d|5[0-2]\d)\] {2}\[translate fr\] tone 300 Hz$/);
});

test('transcribe: what cannot run is one sentence and exit 2, before or after the device is asked', async () => {
  const cases: [GenAiSetup, string[], RegExp][] = [
    [setup, [setup.hefs.llm, stereo], /not a speech-to-text model for HailoRT's Speech2Text: it has a prefill network group/],
    [setup, [setup.hefs.classifier, stereo], /not a speech-to-text model .*its group is efficientnet_lite0/],
    [
      setup,
      [setup.hefs.speech.whisper, mp3],
      /talk\.mp3 is MP3 audio; only WAV files are read here: convert it first, e\.g\. `ffmpeg -i INPUT -ar 16000 -ac 1 OUTPUT\.wav`/,
    ],
    [
      setup,
      [setup.hefs.speech.whisper, join(setup.dir, 'missing.wav')],
      /The recording cannot open '.*missing\.wav': no such file: nothing was sent to the device/,
    ],
    [setup, ['--language', 'xx', setup.hefs.speech.whisper, stereo], /HailoRT refused the language 'xx' \(status 2\)/],
    [setup, ['--language', 'English', setup.hefs.speech.whisper, stereo], /The language must be an ISO-639-1 code such as en or fr/],
    // 5.2 reads hailo-config.json: without it, 61; without a key it CHECKs, 2
    [
      setup,
      [setup.hefs.speech.noConfig, stereo],
      /HailoRT did not find the encoder or decoder network group, or the hailo-config\.json, it runs this speech model with \(status 61\)/,
    ],
    [setup, [setup.hefs.speech.partialConfig, stereo], /HailoRT refused the speech model's hailo-config\.json \(status 2\)/],
    // 5.1 opens only Whisper-Base's fixed groups
    [setup51, [setup51.hefs.speech.whisperTiny, stereo], /status 61/],
  ];
  for (const [s, args, re] of cases) {
    const r = await cli(s, args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, re, args.join(' '));
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
});

test('transcribe on HailoRT 5.1.0: Whisper-Base opens without a config (5.1 reads none), and segments come back', async () => {
  const r = await cli(setup51, ['--json', setup51.hefs.speech.noConfig, stereo]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).segments.length, 4);
});

test('transcribe: usage errors name the option', async () => {
  const r = await cli(setup, ['--task', 'summarise', 'a.hef', 'b.wav']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--task is transcribe or translate, not 'summarise'/);
  const one = await cli(setup, ['a.hef']);
  assert.equal(one.code, 2);
  assert.match(one.stderr, /expected a HEF and a recording, got 1 argument/);
});
