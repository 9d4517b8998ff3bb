// A device worker stand-in speaking the worker protocol (WorkerProgress / WorkerResponse over node's
// IPC, server/src/core/device/protocol.ts): DeviceClient's timers tested without HailoRT.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A worker that reports progress every `everyMs` for `forMs`, then answers (or never does). */
export function progressWorker(dir: string, name: string, { everyMs, forMs, answers }: { everyMs: number; forMs: number; answers: boolean }): string {
  const file = join(dir, `${name}.js`);
  writeFileSync(
    file,
    `process.on('message', (req) => {
  const start = Date.now();
  const tick = setInterval(() => {
    if (Date.now() - start >= ${forMs}) {
      clearInterval(tick);
      if (${answers}) process.send({ id: req.id, ok: true, result: { progress: 'done' } });
      return;
    }
    if (${everyMs} > 0) process.send({ progress: { id: req.id, phase: 'latency' } });
  }, ${Math.max(10, everyMs)});
});
`,
  );
  return file;
}
