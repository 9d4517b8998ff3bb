// hailo-ollama beside the folder: which GenAI models the installed hailo-ollama can pull
// (GET /hailo/v1/list) and which it has (GET /api/tags), asked on loopback only — hailo-ollama
// listens on localhost:8000 by default (hailo_model_zoo_genai's README; users' guides check it with
// `curl http://localhost:8000/hailo/v1/list`). The list is served by the installed package, so it is
// the answer to "which models can I pull on my version?" (docs/research/hailo-users.md#genai-catalogue).
// /hailo/v1/list answers `{"models": [...]}` of names or of objects with a `name` (both seen).

export const DEFAULT_OLLAMA_URL = 'http://127.0.0.1:8000';
const TIMEOUT_MS = 3000;
/** A model list longer than this is cut (hailo-ollama's catalogue has a few dozen). */
const MAX_MODELS = 1000;
const MAX_BODY_BYTES = 4 << 20;

export interface OllamaModels {
  url: string;
  /** hailo-ollama answered. */
  reachable: boolean;
  /** GET /hailo/v1/list: what the installed release can pull. */
  pullable: string[];
  /** GET /api/tags: what is already pulled. */
  installed: string[];
  /** Why it could not be asked (not running, not loopback, an answer that is not its list). */
  problem?: string;
}

/** Only loopback: the product never sends a request off the machine. */
export function loopbackUrl(url: string): URL | string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `'${url}' is not a URL`;
  }
  if (u.protocol !== 'http:') return `${url}: only http:// on this machine is asked`;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!(host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)))
    return `${url} is not on this machine (loopback only: 127.0.0.1, ::1, localhost)`;
  return u;
}

function names(body: unknown): string[] | undefined {
  const list = body && typeof body === 'object' && !Array.isArray(body) ? (body as { models?: unknown }).models : body;
  if (!Array.isArray(list)) return undefined;
  const out: string[] = [];
  for (const item of list.slice(0, MAX_MODELS)) {
    const name =
      typeof item === 'string'
        ? item
        : item && typeof item === 'object'
          ? ((item as { name?: unknown; model?: unknown }).name ?? (item as { model?: unknown }).model)
          : undefined;
    if (typeof name === 'string' && name.length > 0 && name.length <= 200) out.push(name);
  }
  return out;
}

async function getJson(url: URL, path: string): Promise<unknown> {
  const res = await fetch(new URL(path, url), { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
  if (!res.ok) throw new Error(`${path} answered HTTP ${res.status}`);
  const text = await res.text();
  if (text.length > MAX_BODY_BYTES) throw new Error(`${path} answered more than ${MAX_BODY_BYTES} bytes`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`${path} did not answer JSON`);
  }
}

export async function hailoOllamaModels(url = DEFAULT_OLLAMA_URL): Promise<OllamaModels> {
  const base = loopbackUrl(url);
  if (typeof base === 'string') return { url, reachable: false, pullable: [], installed: [], problem: base };
  let pullable: string[] | undefined;
  try {
    pullable = names(await getJson(base, '/hailo/v1/list'));
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    const why =
      e.cause?.code === 'ECONNREFUSED'
        ? 'nothing listens there (start it with `hailo-ollama`, or its service)'
        : e.name === 'TimeoutError'
          ? `no answer within ${TIMEOUT_MS / 1000} s`
          : e.message;
    return { url, reachable: false, pullable: [], installed: [], problem: `hailo-ollama did not answer at ${url}: ${why}` };
  }
  if (!pullable) return { url, reachable: true, pullable: [], installed: [], problem: `${url}/hailo/v1/list answered no model list: is it hailo-ollama?` };
  try {
    return { url, reachable: true, pullable, installed: names(await getJson(base, '/api/tags')) ?? [] };
  } catch (err) {
    return { url, reachable: true, pullable, installed: [], problem: `hailo-ollama's /api/tags (the pulled models) failed: ${(err as Error).message}` };
  }
}
