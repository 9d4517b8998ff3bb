// A GenAI session's health while it runs: the device's state as HailoRT reports it (temperature,
// memory, utilisation: Device::get_chip_temperature, query_health_stats, query_performance_stats)
// and the answers' time to first token and tokens per second over the session, with a warning when
// they decay. Users of the Hailo-10H report both: device memory running out over a session and
// tokens/s falling from 125 to 41 (docs/research/hailo-users.md#genai-memory-and-stability) — the warning comes
// before the model fails. Pure: takes the figures, answers one line and the warnings.
import type { ChatContext, DeviceState } from '../device/protocol';
import { maxOf } from '../common/arrays';

/** One answer's figures, as the host measured them (what the user sees). */
export interface AnswerFigures {
  firstTokenMs: number | null;
  tokensPerSecond: number | null;
  tokens: number;
  context: ChatContext | null;
}

/** An answer this short says little about the rate (the first token's latency dominates). */
const MIN_TOKENS = 8;
/** The rate has decayed when the last answer's is below this share of the session's best early one. */
const DECAY_SHARE = 0.7;
/** Memory this full leaves no room for a second model or a longer context. */
const MEMORY_SHARE = 0.9;

const GiB = 1024 * 1024;
const gib = (kib: number) => (kib / GiB).toFixed(1);

export function deviceLine(d: DeviceState): string {
  const parts: string[] = [];
  if (d.temperatureC !== null) parts.push(`${d.temperatureC.toFixed(1)} °C`);
  if (d.ramUsedKib !== null && d.ramTotalKib !== null) parts.push(`memory ${gib(d.ramUsedKib)} of ${gib(d.ramTotalKib)} GiB`);
  if (d.nncUtilization !== null) parts.push(`NNC ${d.nncUtilization.toFixed(0)} %`);
  return parts.join(' · ');
}

/** "41.0 tokens/s (first 125.0) · first token 240 ms" over the answers so far. */
export function rateLine(answers: readonly AnswerFigures[]): string {
  const rated = answers.filter((a) => a.tokensPerSecond !== null && a.tokens >= MIN_TOKENS);
  const last = answers[answers.length - 1];
  const parts: string[] = [];
  if (rated.length) {
    const now = rated[rated.length - 1].tokensPerSecond!;
    parts.push(`${now.toFixed(1)} tokens/s${rated.length > 1 ? ` (first ${rated[0].tokensPerSecond!.toFixed(1)})` : ''}`);
  }
  if (last?.firstTokenMs != null) parts.push(`first token ${last.firstTokenMs.toFixed(0)} ms`);
  return parts.join(' · ');
}

export function healthWarnings(answers: readonly AnswerFigures[], devices: readonly DeviceState[] = []): string[] {
  const out: string[] = [];
  const rated = answers.filter((a) => a.tokensPerSecond !== null && a.tokens >= MIN_TOKENS);
  if (rated.length >= 3) {
    const best = maxOf(rated.slice(0, 3).map((a) => a.tokensPerSecond!));
    const last = rated[rated.length - 1];
    if (last.tokensPerSecond! < DECAY_SHARE * best) {
      const ctx = last.context
        ? ` with ${last.context.usage.toLocaleString('en-US')} of ${last.context.capacity.toLocaleString('en-US')} context tokens in use`
        : '';
      out.push(
        `Generation slowed from ${best.toFixed(1)} to ${last.tokensPerSecond!.toFixed(1)} tokens/s over ${answers.length} answers${ctx}: Clear the context; if it stays slow, close and reopen the model.`,
      );
    }
  }
  for (const d of devices) {
    if (d.ramUsedKib !== null && d.ramTotalKib !== null && d.ramTotalKib > 0 && d.ramUsedKib / d.ramTotalKib >= MEMORY_SHARE) {
      out.push(
        `Device memory is ${((100 * d.ramUsedKib) / d.ramTotalKib).toFixed(0)} % used (${gib(d.ramUsedKib)} of ${gib(d.ramTotalKib)} GiB on ${d.id}): a longer context or another model may fail to load; Clear the context or close other models.`,
      );
    }
  }
  return out;
}
