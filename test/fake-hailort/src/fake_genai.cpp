// Fake libhailort, GenAI part: hailort::genai's LLM and VLM (names and signatures as HailoRT 5.2.0,
// ../include/hailo/genai) over a simulated model, so every chat path runs without a device.
// Behaviour mirrored from HailoRT's sources (../shared/docs/hailort5-api.md §2, read in
// libhailort/src/genai/{llm,vlm}.cpp and hailort_server/genai/):
//
//  * LLM::create: an empty HEF path or BUILTIN without a LoRA → 6; the HEF is hashed (13 for a
//    missing file); one LLM/VLM per device: a second one → 6 "KV-Cache is already in use by another
//    model!" (llm_server.cpp:1171); the prefill network group is "prefill" with ≤ 2 groups, else
//    "<lora or base_model>__prefill" (llm_server.cpp:46-56) → 61 when the HEF lacks it;
//    hailo-config.json must be embedded (61) and hold eos_token_id (2); its
//    default_generation_params and pre_process_params.kv_cache_size (default 2048) are read.
//  * VLM::create: a group ending in "encoder" (8 otherwise, utils.hpp) whose first input is the
//    frame (shape, format type and order → input_frame_*), and image_pad in the config (2).
//  * generator parameters are validated where HailoRT does (llm.cpp:553-565): temperature > 0,
//    top_p in [0, 1], top_k ≥ 1, frequency_penalty ≠ 0, else 2.
//  * generate: messages are JSON (2 otherwise); one generation at a time (6); a VLM frame of the
//    wrong size → 6 from generate; a frame count that differs from the image entries → generate
//    succeeds and the first read() answers 6 (the server fails the prefill, vlm_server.cpp:472).
//  * read(timeout): 4 when no token came in time, 6 after the generation ended; abort() stops the
//    generation, blocks until it has, and the last token carries ABORTED.
//  * context: usage grows by the prompt's and the answer's tokens, capacity is kv_cache_size,
//    clear_context empties it, save_context/load_context round-trip it (a blob of another model → 2).
//
// The simulated model answers deterministically from the prompt: "You said: <last user text>"
// (HTML included — the chat must show it as text), for a VLM a description of each frame as the
// device received it (per-channel means read in the reported order), then filler words from a
// PRNG seeded by the prompt (and the seed when do_sample). Environment:
//   FAKE_HAILORT_TOKENS_PER_S  tokens per second after the first (default 50)
//   FAKE_HAILORT_PREFILL_MS    time to the first token (default 40)
//   FAKE_HAILORT_FAULT=kv-cache-busy   another process's model holds the KV cache
//   FAKE_HAILORT_TPS_DECAY_MILLI  the rate falls by this many thousandths as the context fills (default 0)
#include "fake_internal.hpp"
#include "fake_json.hpp"

// 4.x has no GenAI API of this shape (its hailo/genai headers are an older, different one): the fake
// provides none, and the bridge answers every GenAI call with HAILO_NOT_IMPLEMENTED there.
#if FAKE_HAILORT_VERSION_AT_LEAST(5, 0, 0)

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

namespace hailort {
namespace genai {

using namespace hailort::fake;
using Status = LLMGeneratorCompletion::Status;

namespace {

// ------------------------------------------------------------------ tokens
// A token is a word with its leading spaces, or one punctuation character (BPE-like enough).
std::vector<std::string> pieces_of(const std::string &text) {
    std::vector<std::string> out;
    std::string cur;
    auto flush = [&]() { if (!cur.empty()) { out.push_back(cur); cur.clear(); } };
    for (size_t i = 0; i < text.size(); i++) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (std::isspace(c)) {
            if (!cur.empty() && !std::isspace(static_cast<unsigned char>(cur.back()))) flush();
            cur += static_cast<char>(c);
        } else if (c < 0x80 && !std::isalnum(c)) {
            if (!cur.empty() && !std::isspace(static_cast<unsigned char>(cur.back()))) flush();
            cur += static_cast<char>(c);
            flush();
        } else {
            cur += static_cast<char>(c);
        }
    }
    flush();
    return out;
}

int token_id(const std::string &piece) {
    return static_cast<int>(fnv1a64(reinterpret_cast<const uint8_t *>(piece.data()), piece.size()) % 151643);
}

const char *const FILLER[] = {
    "the", "device", "answers", "from", "its", "simulated", "weights", "and", "every", "token", "is", "derived",
    "deterministically", "prompt", "so", "tests", "can", "check", "what", "streams", "through", "worker", "webview",
    "Hailo-10H", "context", "cache", "grows", "with", "each", "turn", "until", "it", "fills",
};

// ------------------------------------------------------------------ the KV cache: one model per device
std::mutex g_kv_mutex;
bool g_kv_in_use = false;

hailo_status mark_kv_cache_in_use() {
    std::lock_guard<std::mutex> lock(g_kv_mutex);
    if (g_kv_in_use || fault("kv-cache-busy")) {
        log_line("error", "Failed to mark KV-Cache in use. KV-Cache is already in use by another model!");
        return HAILO_INVALID_OPERATION;
    }
    g_kv_in_use = true;
    return HAILO_SUCCESS;
}

void unmark_kv_cache_in_use() {
    std::lock_guard<std::mutex> lock(g_kv_mutex);
    g_kv_in_use = false;
}

bool has_suffix(const std::string &s, const std::string &suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// HailoRT server defaults (llm_server.hpp:47-52), overwritten by hailo-config.json.
constexpr float32_t DEFAULT_TEMPERATURE = 0.7f;
constexpr float32_t DEFAULT_TOP_P = 0.8f;
constexpr uint32_t DEFAULT_TOP_K = 20;
constexpr float32_t DEFAULT_FREQ_PENALTY = 1.1f;
constexpr bool DEFAULT_DO_SAMPLE = true;
constexpr uint32_t DEFAULT_MAX_GENERATED_TOKENS = 1024;
constexpr uint32_t DEFAULT_KV_CACHE_SIZE = 2048;
constexpr uint32_t TOKENS_PER_FRAME = 16;
const char CONTEXT_MAGIC[8] = {'F', 'A', 'K', 'E', 'C', 'T', 'X', '1'};

}  // namespace

// ------------------------------------------------------------------ the simulated model
struct Core;

/** One generation: a thread plays the device, producing tokens into a queue at the model's rate. */
class Generation {
public:
    Generation(std::shared_ptr<Core> core, std::vector<std::string> tokens, Status last, size_t prompt_tokens, std::string failure)
        : m_core(std::move(core)), m_tokens(std::move(tokens)), m_last(last), m_prompt_tokens(prompt_tokens), m_failure(std::move(failure)) {}
    ~Generation() { join(); }

    void start();
    void request_abort() {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_abort = true;
        m_cv.notify_all();
    }
    void join() {
        if (m_thread.joinable()) m_thread.join();
    }
    bool finished() {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_finished;
    }
    /** The next token, waiting up to `timeout`: 4 when none came, 6 when the generation failed. */
    Expected<std::pair<std::string, Status>> next(std::chrono::milliseconds timeout) {
        std::unique_lock<std::mutex> lock(m_mutex);
        const bool ready = m_cv.wait_for(lock, timeout, [&] { return !m_queue.empty() || (m_finished && m_queue.empty()); });
        if (!ready) return make_unexpected(HAILO_TIMEOUT);
        if (m_queue.empty()) return make_unexpected(HAILO_INVALID_OPERATION);  // the reader shut down (a failed prefill)
        auto t = m_queue.front();
        m_queue.pop_front();
        return Expected<std::pair<std::string, Status>>(std::move(t));
    }
    void wait_finished() {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_cv.wait(lock, [&] { return m_finished; });
    }

private:
    void run();

    std::shared_ptr<Core> m_core;
    std::vector<std::string> m_tokens;
    Status m_last;
    size_t m_prompt_tokens;
    std::string m_failure;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::pair<std::string, Status>> m_queue;
    bool m_abort = false;
    bool m_finished = false;
    std::thread m_thread;
};

/** What an LLM or VLM holds: the model's facts and the conversation context on the "device". */
struct Core : std::enable_shared_from_this<Core> {
    bool vlm = false;
    std::shared_ptr<VDevice> vdevice;
    std::string hef_hash;
    std::string chat_template;
    int eos = 0;
    uint32_t capacity = DEFAULT_KV_CACHE_SIZE;
    LLMGeneratorParams defaults{DEFAULT_TEMPERATURE, DEFAULT_TOP_P, DEFAULT_TOP_K, DEFAULT_FREQ_PENALTY, DEFAULT_MAX_GENERATED_TOKENS, DEFAULT_DO_SAMPLE, HAILO_RANDOM_SEED};
    hailo_3d_image_shape_t frame_shape{};
    hailo_format_type_t frame_type = HAILO_FORMAT_TYPE_UINT8;
    hailo_format_order_t frame_order = HAILO_FORMAT_ORDER_NHWC;
    uint32_t frame_size = 0;
    std::string recovery;
    std::vector<std::string> stop_tokens;

    std::mutex mutex;
    std::condition_variable idle;
    size_t usage = 0;
    std::vector<int> history;
    std::weak_ptr<Generation> active;  // weak: a generation keeps its model alive, not the reverse
    bool warned_full = false;

    /** Device memory this model's HEF takes in the simulated load. */
    long long model_kib = 0;

    ~Core() {
        simulated_load().model_kib -= model_kib;
        simulated_load().context_tokens -= static_cast<long long>(usage);
        unmark_kv_cache_in_use();
    }

    std::shared_ptr<Generation> running() {
        std::lock_guard<std::mutex> lock(mutex);
        auto g = active.lock();
        return g && !g->finished() ? g : nullptr;
    }
    void add_tokens(const std::vector<int> &ids) {
        std::lock_guard<std::mutex> lock(mutex);
        usage += ids.size();
        simulated_load().context_tokens += static_cast<long long>(ids.size());
        history.insert(history.end(), ids.begin(), ids.end());
        if (usage >= capacity && !warned_full) {
            warned_full = true;
            log_line("warning", "Conversation context is full (" + std::to_string(usage) + " of " + std::to_string(capacity) + " tokens); clear the context");
        }
    }
};

void Generation::start() {
    m_thread = std::thread([this] { run(); });
}

void Generation::run() {
    // FAKE_HAILORT_TPS_DECAY_MILLI: the rate falls by that fraction (in thousandths) as the context
    // fills, as users report tokens/s decaying over a session (hailo-users-2026.md §1).
    size_t usage_now;
    {
        std::lock_guard<std::mutex> core_lock(m_core->mutex);
        usage_now = m_core->usage;
    }
    const double fill = m_core->capacity ? std::min(1.0, static_cast<double>(usage_now) / m_core->capacity) : 0.0;
    const double decay = std::min(0.95, static_cast<double>(std::max(0L, env_long("FAKE_HAILORT_TPS_DECAY_MILLI", 0))) / 1000.0);
    const double rate = std::max(1.0, static_cast<double>(std::max(1L, env_long("FAKE_HAILORT_TOKENS_PER_S", 50))) * (1.0 - decay * fill));
    const auto period = std::chrono::nanoseconds(static_cast<long long>(1e9 / rate));
    simulated_load().generating++;
    struct Idle {
        ~Idle() { simulated_load().generating--; }
    } idle_at_end;
    auto due = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max(0L, env_long("FAKE_HAILORT_PREFILL_MS", 40)));
    std::unique_lock<std::mutex> lock(m_mutex);
    // Prefill: the prompt enters the context (or the server refuses it).
    m_cv.wait_until(lock, due, [&] { return m_abort; });
    if (!m_failure.empty()) {
        log_line("error", m_failure);
        m_finished = true;
        m_cv.notify_all();
        return;
    }
    std::vector<int> prompt(m_prompt_tokens, 0);
    lock.unlock();
    m_core->add_tokens(prompt);
    lock.lock();
    for (size_t i = 0; i < m_tokens.size(); i++) {
        if (m_abort) break;
        const bool last = i + 1 == m_tokens.size();
        m_queue.emplace_back(m_tokens[i], last ? m_last : Status::GENERATING);
        lock.unlock();
        m_core->add_tokens({token_id(m_tokens[i])});
        simulated_load().tokens++;
        lock.lock();
        m_cv.notify_all();
        if (last) break;
        due += period;
        m_cv.wait_until(lock, due, [&] { return m_abort; });
    }
    if (m_abort) {
        // The server injects the recovery sequence; the last token the client sees is ABORTED.
        m_queue.emplace_back("", Status::ABORTED);
    }
    m_finished = true;
    m_cv.notify_all();
}

namespace {

struct Message {
    std::string role;
    std::string text;
    uint32_t images = 0;
};

/** Parses the messages the way the prompt template needs them (2 on anything that is not JSON). */
hailo_status parse_messages(const std::vector<std::string> &jsons, std::vector<Message> &out) {
    if (jsons.empty()) {
        log_line("error", "Prompt cannot be empty");
        return HAILO_INVALID_ARGUMENT;
    }
    for (const auto &j : jsons) {
        Json v;
        if (!parse_json(j, v) || v.type != Json::Object) {
            log_line("error", "Failed to parse the prompt JSON: " + j.substr(0, 80));
            return HAILO_INVALID_ARGUMENT;
        }
        Message m;
        if (const Json *role = v.get("role")) m.role = role->type == Json::String ? role->text : "None";
        else m.role = "None";
        const Json *content = v.get("content");
        if (content && content->type == Json::String) m.text = content->text;
        else if (content && content->type == Json::Array) {
            for (const auto &part : content->items) {
                const Json *type = part.get("type");
                if (!type || type->type != Json::String) continue;
                if (type->text == "image") m.images++;
                else if (type->text == "text") {
                    const Json *t = part.get("text");
                    if (t && t->type == Json::String) m.text += t->text;
                }
            }
        }
        out.push_back(std::move(m));
    }
    return HAILO_SUCCESS;
}

std::string rendered(const std::vector<Message> &messages) {
    std::string s;
    for (const auto &m : messages) s += "<|" + m.role + "|>" + m.text + (m.images ? " <image>" : "") + "\n";
    return s + "<|assistant|>";
}

/** Per-channel means of one frame, read in the order and type the model reported. */
std::string describe_frame(const Core &core, const MemoryView &frame, size_t index) {
    const uint32_t h = core.frame_shape.height, w = core.frame_shape.width, f = core.frame_shape.features;
    const size_t bytes = type_bytes(core.frame_type);
    std::vector<double> sums(f, 0.0);
    const uint8_t *p = frame.data();
    auto value = [&](size_t element) -> double {
        const uint8_t *q = p + element * bytes;
        if (core.frame_type == HAILO_FORMAT_TYPE_FLOAT32) { float v; std::memcpy(&v, q, 4); return v; }
        if (core.frame_type == HAILO_FORMAT_TYPE_UINT16) { uint16_t v; std::memcpy(&v, q, 2); return v; }
        return *q;
    };
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            for (uint32_t c = 0; c < f; c++) {
                size_t element;
                if (core.frame_order == HAILO_FORMAT_ORDER_NCHW) element = (static_cast<size_t>(c) * h + y) * w + x;
                else if (core.frame_order == HAILO_FORMAT_ORDER_NHCW) element = (static_cast<size_t>(y) * f + c) * w + x;
                else element = (static_cast<size_t>(y) * w + x) * f + c;  // NHWC and the rest
                sums[c] += value(element);
            }
        }
    }
    std::ostringstream o;
    o << " Image " << (index + 1) << " means";
    for (uint32_t c = 0; c < f; c++) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%s%.1f", c ? "/" : " ", sums[c] / (static_cast<double>(h) * w));
        o << buf;
    }
    char hash[32];
    std::snprintf(hash, sizeof hash, " (fnv %016llx).", static_cast<unsigned long long>(fnv1a64(frame.data(), frame.size())));
    o << hash;
    return o.str();
}

hailo_status validate_generator_params(const LLMGeneratorParams &params) {
    // As llm.cpp:553-565, comparisons and all (a NaN frequency_penalty passes: NaN != 0).
    if (!(0 < params.temperature())) {
        log_line("error", "Temperature should be higher than '0'. received: '" + std::to_string(params.temperature()) + "'");
        return HAILO_INVALID_ARGUMENT;
    }
    if (!((0 <= params.top_p()) && (params.top_p() <= 1))) {
        log_line("error", "top_p should be in range [0, 1]. received: '" + std::to_string(params.top_p()) + "'");
        return HAILO_INVALID_ARGUMENT;
    }
    if (!(1 <= params.top_k())) {
        log_line("error", "top_k should be greater than or equal to '1'. received: '" + std::to_string(params.top_k()) + "'");
        return HAILO_INVALID_ARGUMENT;
    }
    if (!(0 != params.frequency_penalty())) {
        log_line("error", "frequency_penalty must be a nonzero value. received: '" + std::to_string(params.frequency_penalty()) + "'");
        return HAILO_INVALID_ARGUMENT;
    }
    return HAILO_SUCCESS;
}

/** Starts a generation: the answer is fixed now, the thread plays it out. */
Expected<std::shared_ptr<Generation>> start_generation(const std::shared_ptr<Core> &core, const LLMGeneratorParams &params,
    const std::vector<Message> &messages, const std::string &raw_prompt, const std::vector<MemoryView> &frames) {
    if (core->running()) {
        log_line("error", "Failed to generate. Make sure there is no other generation in progress");
        return make_unexpected(HAILO_INVALID_OPERATION);
    }
    const std::string prompt = messages.empty() ? raw_prompt : rendered(messages);
    if (prompt.empty()) {
        log_line("error", "Prompt cannot be empty! Make sure 'write()' was called");
        return make_unexpected(HAILO_INVALID_OPERATION);
    }
    uint32_t image_entries = 0;
    for (const auto &m : messages) image_entries += m.images;
    if (core->vlm) {
        for (const auto &f : frames) {
            if (f.size() != core->frame_size) {
                log_line("error", "Failed to generate. Make sure the number of passed frames ('" + std::to_string(frames.size()) +
                    "') matches the number of frames in the prompt, each passed frame size matches the expected input frame size (see 'VLM::input_frame_size'), and there is no other generation in progress");
                return make_unexpected(HAILO_INVALID_OPERATION);
            }
        }
    }
    std::string failure;
    if (core->vlm && image_entries != frames.size()) {
        failure = "Number of image-pad embeddings from prompt (" + std::to_string(image_entries) +
            ") does not match the number of frames embeddings generated by the encoder (" + std::to_string(frames.size()) + ")";
    }

    std::string last_user;
    for (const auto &m : messages) if (m.role == "user") last_user = m.text;
    if (messages.empty()) last_user = raw_prompt;
    std::string answer = "You said: " + last_user + ".";
    for (size_t i = 0; i < frames.size(); i++) answer += describe_frame(*core, frames[i], i);
    uint64_t h = fnv1a64(reinterpret_cast<const uint8_t *>(prompt.data()), prompt.size());
    if (params.do_sample()) {
        const uint64_t seed = params.seed() == HAILO_RANDOM_SEED ? std::random_device{}() : params.seed();
        h ^= (seed + 1) * 0x9E3779B97F4A7C15ULL;
    }
    std::mt19937_64 rng(h);
    const size_t filler = 8 + (h % 17);
    for (size_t i = 0; i < filler; i++) answer += std::string(" ") + FILLER[rng() % (sizeof FILLER / sizeof FILLER[0])];
    answer += ".";

    std::vector<std::string> tokens = pieces_of(answer);
    tokens.push_back("");  // the end-of-sentence token (not shown)
    Status last = Status::LOGICAL_END_OF_GENERATION;
    const uint32_t max = params.max_generated_tokens();
    if (tokens.size() > max) {
        tokens.resize(max);
        last = Status::MAX_TOKENS_REACHED;
    }
    const size_t prompt_tokens = pieces_of(prompt).size() + image_entries * TOKENS_PER_FRAME;
    auto generation = std::make_shared<Generation>(core, std::move(tokens), last, prompt_tokens, failure);
    {
        std::lock_guard<std::mutex> lock(core->mutex);
        core->active = generation;
    }
    generation->start();
    return Expected<std::shared_ptr<Generation>>(generation);
}

}  // namespace

// ------------------------------------------------------------------ LLMParams, VLMParams
#if FAKE_HAILORT_AT_LEAST(1, 0)
LLMParams::LLMParams(const std::string &hef_path, const std::string &lora_name, bool optimize_memory_on_device)
    : m_hef_path(hef_path), m_lora(lora_name), m_optimize_memory_on_device(optimize_memory_on_device) {}
bool LLMParams::optimize_memory_on_device() const { return m_optimize_memory_on_device; }
void LLMParams::set_optimize_memory_on_device(bool v) { m_optimize_memory_on_device = v; }
bool VLMParams::optimize_memory_on_device() const { return m_optimize_memory_on_device; }
void VLMParams::set_optimize_memory_on_device(bool v) { m_optimize_memory_on_device = v; }
#else
LLMParams::LLMParams(const std::string &hef_path, const std::string &lora_name) : m_hef_path(hef_path), m_lora(lora_name) {}
#endif

hailo_status LLMParams::set_model(const std::string &hef_path, const std::string &lora_name) {
    m_hef_path = hef_path;
    m_lora = lora_name;
    if (BUILTIN != hef_path) {
        if (!read_file(hef_path)) return HAILO_OPEN_FILE_FAILURE;
    } else if (lora_name.empty()) {
        log_line("error", "When using '" + BUILTIN + "' model, LoRA name must be set.");
        return HAILO_INVALID_OPERATION;
    }
    return HAILO_SUCCESS;
}
const std::string &LLMParams::hef() const { return m_hef_path; }
const std::string &LLMParams::lora() const { return m_lora; }

hailo_status VLMParams::set_model(const std::string &hef_path) {
    m_hef_path = hef_path;
    return read_file(hef_path) ? HAILO_SUCCESS : HAILO_OPEN_FILE_FAILURE;
}
const std::string &VLMParams::hef() const { return m_hef_path; }

// ------------------------------------------------------------------ LLMGeneratorParams
hailo_status LLMGeneratorParams::set_temperature(float32_t v) { m_temperature = v; return HAILO_SUCCESS; }
float32_t LLMGeneratorParams::temperature() const { return m_temperature; }
hailo_status LLMGeneratorParams::set_top_p(float32_t v) { m_top_p = v; return HAILO_SUCCESS; }
float32_t LLMGeneratorParams::top_p() const { return m_top_p; }
hailo_status LLMGeneratorParams::set_top_k(uint32_t v) { m_top_k = v; return HAILO_SUCCESS; }
uint32_t LLMGeneratorParams::top_k() const { return m_top_k; }
hailo_status LLMGeneratorParams::set_frequency_penalty(float32_t v) { m_frequency_penalty = v; return HAILO_SUCCESS; }
float32_t LLMGeneratorParams::frequency_penalty() const { return m_frequency_penalty; }
hailo_status LLMGeneratorParams::set_max_generated_tokens(uint32_t v) { m_max_generated_tokens = v; return HAILO_SUCCESS; }
uint32_t LLMGeneratorParams::max_generated_tokens() const { return m_max_generated_tokens; }
hailo_status LLMGeneratorParams::set_do_sample(bool v) { m_do_sample = v; return HAILO_SUCCESS; }
bool LLMGeneratorParams::do_sample() const { return m_do_sample; }
hailo_status LLMGeneratorParams::set_seed(uint32_t v) { m_seed = v; return HAILO_SUCCESS; }
uint32_t LLMGeneratorParams::seed() const { return m_seed; }

// ------------------------------------------------------------------ LLMGeneratorCompletion
class LLMGeneratorCompletion::Impl {
public:
    explicit Impl(std::shared_ptr<Generation> g) : m_generation(std::move(g)) {}
    ~Impl() {
        if (generation_status() == Status::GENERATING) abort();
        m_generation->join();
    }
    Expected<std::string> read(std::chrono::milliseconds timeout) {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (m_status != Status::GENERATING) {
                log_line("error", "read() cannot be called after generation completed!");
                return make_unexpected(HAILO_INVALID_OPERATION);
            }
        }
        auto token = m_generation->next(timeout);
        if (!token) return make_unexpected(token.status());
        std::lock_guard<std::mutex> lock(m_mutex);
        m_status = token->second;
        return Expected<std::string>(std::string(token->first));
    }
    Status generation_status() const {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_status;
    }
    hailo_status abort() {
        m_generation->request_abort();
        m_generation->join();  // "blocks until the generation is fully aborted"
        return HAILO_SUCCESS;
    }

private:
    std::shared_ptr<Generation> m_generation;
    mutable std::mutex m_mutex;
    Status m_status = Status::GENERATING;
};

constexpr std::chrono::milliseconds LLMGeneratorCompletion::DEFAULT_READ_TIMEOUT;
LLMGeneratorCompletion::LLMGeneratorCompletion(std::unique_ptr<Impl> pimpl) : m_pimpl(std::move(pimpl)) {}
LLMGeneratorCompletion::LLMGeneratorCompletion(LLMGeneratorCompletion &&) = default;
LLMGeneratorCompletion::~LLMGeneratorCompletion() = default;

Expected<size_t> LLMGeneratorCompletion::read(char *output, size_t output_size, std::chrono::milliseconds timeout) {
    auto s = m_pimpl->read(timeout);
    if (!s) return make_unexpected(s.status());
    if (output_size <= s->size()) {
        log_line("error", "Output buffer is too small. received token: '" + s.value() + "' is too large.");
        return make_unexpected(HAILO_INSUFFICIENT_BUFFER);
    }
    std::memcpy(output, s->data(), s->size());
    return Expected<size_t>(s->size());
}
Expected<std::string> LLMGeneratorCompletion::read(std::chrono::milliseconds timeout) { return m_pimpl->read(timeout); }
Expected<std::string> LLMGeneratorCompletion::read_all(std::chrono::milliseconds timeout) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    std::string all;
    while (generation_status() == Status::GENERATING) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
        auto t = read(std::max(left, std::chrono::milliseconds(0)));
        if (!t) return make_unexpected(t.status());
        all += t.value();
    }
    return Expected<std::string>(std::move(all));
}
LLMGeneratorCompletion::Status LLMGeneratorCompletion::generation_status() const { return m_pimpl->generation_status(); }
hailo_status LLMGeneratorCompletion::abort() { return m_pimpl->abort(); }

namespace {
Expected<LLMGeneratorCompletion> completion_of(Expected<std::shared_ptr<Generation>> g) {
    if (!g) return make_unexpected(g.status());
    return Expected<LLMGeneratorCompletion>(LLMGeneratorCompletion(std::unique_ptr<LLMGeneratorCompletion::Impl>(new LLMGeneratorCompletion::Impl(g.release()))));
}
}  // namespace

// ------------------------------------------------------------------ LLMGenerator, VLMGenerator
class LLMGenerator::Impl {
public:
    Impl(std::shared_ptr<Core> core, LLMGeneratorParams params) : core(std::move(core)), params(params) {}
    std::shared_ptr<Core> core;
    LLMGeneratorParams params;
    std::vector<Message> messages;
    std::string raw;
};

LLMGenerator::LLMGenerator(std::shared_ptr<Impl> pimpl) : m_pimpl(std::move(pimpl)) {}
LLMGenerator::LLMGenerator(LLMGenerator &&) = default;
LLMGenerator::~LLMGenerator() = default;
hailo_status LLMGenerator::write(const std::string &prompt) {
    if (prompt.empty()) {
        log_line("error", "Prompt cannot be empty");
        return HAILO_INVALID_ARGUMENT;
    }
    m_pimpl->raw += prompt;
    return HAILO_SUCCESS;
}
#if FAKE_HAILORT_AT_LEAST(2, 0)
hailo_status LLMGenerator::write(const std::vector<std::string> &prompt_json_strings, const std::vector<std::string> &) {
#else
hailo_status LLMGenerator::write(const std::vector<std::string> &prompt_json_strings) {
#endif
    std::vector<Message> parsed;
    const auto status = parse_messages(prompt_json_strings, parsed);
    if (status != HAILO_SUCCESS) return status;
    m_pimpl->raw += rendered(parsed);
    m_pimpl->messages.insert(m_pimpl->messages.end(), parsed.begin(), parsed.end());
    return HAILO_SUCCESS;
}
Expected<LLMGeneratorCompletion> LLMGenerator::generate() {
    auto g = start_generation(m_pimpl->core, m_pimpl->params, m_pimpl->messages, m_pimpl->raw, {});
    m_pimpl->messages.clear();
    m_pimpl->raw.clear();
    return completion_of(std::move(g));
}

class VLMGenerator::Impl {
public:
    Impl(std::shared_ptr<Core> core, LLMGeneratorParams params) : core(std::move(core)), params(params) {}
    std::shared_ptr<Core> core;
    LLMGeneratorParams params;
};

VLMGenerator::VLMGenerator(std::shared_ptr<Impl> pimpl) : m_pimpl(std::move(pimpl)) {}
VLMGenerator::VLMGenerator(VLMGenerator &&) = default;
VLMGenerator::~VLMGenerator() = default;
#if FAKE_HAILORT_AT_LEAST(2, 0)
Expected<LLMGeneratorCompletion> VLMGenerator::generate(const std::string &prompt, const std::vector<MemoryView> &input_frames, const std::vector<std::vector<MemoryView>> &) {
#else
Expected<LLMGeneratorCompletion> VLMGenerator::generate(const std::string &prompt, const std::vector<MemoryView> &input_frames) {
#endif
    if (prompt.empty()) {
        log_line("error", "Prompt cannot be empty");
        return make_unexpected(HAILO_INVALID_ARGUMENT);
    }
    return completion_of(start_generation(m_pimpl->core, m_pimpl->params, {}, prompt, input_frames));
}
#if FAKE_HAILORT_AT_LEAST(2, 0)
Expected<LLMGeneratorCompletion> VLMGenerator::generate(const std::vector<std::string> &messages_json_strings, const std::vector<MemoryView> &input_frames,
    const std::vector<std::vector<MemoryView>> &) {
#else
Expected<LLMGeneratorCompletion> VLMGenerator::generate(const std::vector<std::string> &messages_json_strings, const std::vector<MemoryView> &input_frames) {
#endif
    std::vector<Message> parsed;
    const auto status = parse_messages(messages_json_strings, parsed);
    if (status != HAILO_SUCCESS) return make_unexpected(status);
    return completion_of(start_generation(m_pimpl->core, m_pimpl->params, parsed, "", input_frames));
}

// ------------------------------------------------------------------ creating a model
namespace {

Expected<std::shared_ptr<Core>> create_core(std::shared_ptr<VDevice> vdevice, const std::string &hef_path, const std::string &lora, bool vlm, bool optimize_memory) {
    if (hef_path.empty()) {
        log_line("error", std::string("Failed to create ") + (vlm ? "VLM" : "LLM") + ". HEF was not set.");
        return make_unexpected(HAILO_INVALID_OPERATION);
    }
    const bool builtin = BUILTIN == hef_path;
    if (builtin && lora.empty()) {
        log_line("error", "Failed to create LLM. When using '" + BUILTIN + "' model, LoRA name must be set.");
        return make_unexpected(HAILO_INVALID_OPERATION);
    }
    if (builtin) {
        log_line("error", "fake libhailort: no model is built into the simulated device");
        return make_unexpected(HAILO_NOT_FOUND);
    }
    if (!vdevice) return make_unexpected(HAILO_INVALID_ARGUMENT);
    auto hash = Hef::hash(hef_path);
    if (!hash) return make_unexpected(hash.status());
    if (optimize_memory) {
        log_line("error", "Host-tokenization is not enabled in lib compilation");
        return make_unexpected(HAILO_NOT_IMPLEMENTED);
    }
    const auto kv = mark_kv_cache_in_use();
    if (kv != HAILO_SUCCESS) return make_unexpected(kv);
    auto core = std::make_shared<Core>();  // from here on, its destructor releases the KV cache
    core->vlm = vlm;
    core->vdevice = vdevice;
    core->hef_hash = hash.value();

    auto bytes = read_file(hef_path);
    if (!bytes) return make_unexpected(bytes.status());
    core->model_kib = static_cast<long long>(bytes->size() / 1024) + 1;
    simulated_load().model_kib += core->model_kib;
    auto hef = load_hef(bytes->data(), bytes->size(), true);
    if (!hef) return make_unexpected(hef.status());
    const HefFacts &facts = facts_of(hef.value());
    if (std::find(facts.archs.begin(), facts.archs.end(), static_cast<int>(device_arch())) == facts.archs.end()) {
        log_line("error", "HEF file is not compatible with device.");
        return make_unexpected(HAILO_HEF_NOT_COMPATIBLE_WITH_DEVICE);
    }
    const auto &groups = facts.groups;
    if (vlm) {
        bool encoder = false;
        for (const auto &g : groups) encoder = encoder || has_suffix(g, "encoder");
        if (!encoder || !facts.has_frame) {
            log_line("error", "Model doesnt have NG with name-suffix 'encoder'");
            return make_unexpected(HAILO_INTERNAL_FAILURE);
        }
        core->frame_shape = facts.frame.shape;
        core->frame_type = facts.frame.type;
        core->frame_order = facts.frame.order;
        core->frame_size = static_cast<uint32_t>(static_cast<size_t>(facts.frame.shape.height) * facts.frame.shape.width * facts.frame.shape.features * type_bytes(facts.frame.type));
    }
    // The prefill group HailoRT looks for (llm_server.cpp:46-56: a hack on the group count).
    const std::string prefill = groups.size() <= 2 ? "prefill" : (lora.empty() ? "base_model" : lora) + "__prefill";
    bool found = false;
    for (const auto &g : groups) found = found || (vlm ? has_suffix(g, "prefill") : g == prefill);
    if (!found) {
        log_line("error", "HEF does not contain network_group with name " + prefill);
        return make_unexpected(HAILO_NOT_FOUND);
    }
    auto config_bytes = resource_of(hef.value(), "hailo-config.json");
    if (!config_bytes) return make_unexpected(config_bytes.status());
    Json config;
    if (!parse_json(std::string(reinterpret_cast<const char *>(config_bytes->data()), config_bytes->size()), config) || config.type != Json::Object) {
        log_line("error", "hailo-config.json is not valid JSON");
        return make_unexpected(HAILO_INVALID_ARGUMENT);
    }
    const Json *eos = config.get("eos_token_id");
    if (!eos || eos->type != Json::Number) {
        log_line("error", "hailo-config.json has no eos_token_id");
        return make_unexpected(HAILO_INVALID_ARGUMENT);
    }
    core->eos = static_cast<int>(eos->number);
    if (vlm) {
        const Json *pad = config.get("image_pad");
        if (!pad || pad->type != Json::Number) {
            log_line("error", "hailo-config.json has no image_pad");
            return make_unexpected(HAILO_INVALID_ARGUMENT);
        }
    }
    if (const Json *t = config.get("chat_template")) if (t->type == Json::String) core->chat_template = t->text;
    if (const Json *d = config.get("default_generation_params")) {
        auto num = [&](const char *k, double fallback) { const Json *v = d->get(k); return v && v->type == Json::Number ? v->number : fallback; };
        core->defaults.set_max_generated_tokens(static_cast<uint32_t>(num("max_new_tokens", DEFAULT_MAX_GENERATED_TOKENS)));
        core->defaults.set_temperature(static_cast<float32_t>(num("temperature", DEFAULT_TEMPERATURE)));
        core->defaults.set_top_p(static_cast<float32_t>(num("top_p", DEFAULT_TOP_P)));
        core->defaults.set_top_k(static_cast<uint32_t>(num("top_k", DEFAULT_TOP_K)));
        core->defaults.set_frequency_penalty(static_cast<float32_t>(num("repetition_penalty", DEFAULT_FREQ_PENALTY)));
        if (const Json *s = d->get("do_sample")) if (s->type == Json::Bool) core->defaults.set_do_sample(s->boolean);
    }
    if (const Json *p = config.get("pre_process_params")) {
        if (const Json *k = p->get("kv_cache_size")) if (k->type == Json::Number) core->capacity = static_cast<uint32_t>(k->number);
    }
    return Expected<std::shared_ptr<Core>>(std::move(core));
}

hailo_status clear(Core &core) {
    // The server waits on its generation lock: a clear during a generation waits for its end.
    if (auto active = core.running()) active->wait_finished();
    std::lock_guard<std::mutex> lock(core.mutex);
    simulated_load().context_tokens -= static_cast<long long>(core.usage);
    core.usage = 0;
    core.history.clear();
    core.warned_full = false;
    return HAILO_SUCCESS;
}

Expected<BufferPtr> save(Core &core) {
    std::lock_guard<std::mutex> lock(core.mutex);
    const uint32_t version = 1;
    const uint64_t usage = core.usage;
    const uint64_t count = core.history.size();
    const size_t size = sizeof CONTEXT_MAGIC + 4 + 16 + 8 + 8 + count * 4;
    auto buffer = Buffer::create_shared(size);
    if (!buffer) return make_unexpected(buffer.status());
    uint8_t *p = buffer.value()->data();
    std::memcpy(p, CONTEXT_MAGIC, 8);
    std::memcpy(p + 8, &version, 4);
    std::string hash = core.hef_hash;
    hash.resize(16, '0');
    std::memcpy(p + 12, hash.data(), 16);
    std::memcpy(p + 28, &usage, 8);
    std::memcpy(p + 36, &count, 8);
    if (count) std::memcpy(p + 44, core.history.data(), count * 4);
    return buffer;
}

hailo_status load(Core &core, const MemoryView &context) {
    if (auto active = core.running()) active->wait_finished();
    if (context.size() < 44) return HAILO_INVALID_ARGUMENT;
    const uint8_t *p = context.data();
    uint32_t version = 0;
    std::memcpy(&version, p + 8, 4);
    std::string hash = core.hef_hash;
    hash.resize(16, '0');
    if (std::memcmp(p, CONTEXT_MAGIC, 8) != 0) { log_line("error", "Invalid header magic"); return HAILO_INVALID_ARGUMENT; }
    if (version != 1) { log_line("error", "Invalid protocol version"); return HAILO_INVALID_ARGUMENT; }
    if (std::memcmp(p + 12, hash.data(), 16) != 0) { log_line("error", "Invalid model hash"); return HAILO_INVALID_ARGUMENT; }
    uint64_t usage = 0, count = 0;
    std::memcpy(&usage, p + 28, 8);
    std::memcpy(&count, p + 36, 8);
    if (context.size() < 44 + count * 4) return HAILO_INVALID_ARGUMENT;
    std::lock_guard<std::mutex> lock(core.mutex);
    core.usage = usage;
    core.history.assign(reinterpret_cast<const int *>(p + 44), reinterpret_cast<const int *>(p + 44) + count);
    core.warned_full = core.usage >= core.capacity;
    return HAILO_SUCCESS;
}

std::vector<int> tokenize(const std::string &prompt) {
    std::vector<int> ids;
    for (const auto &p : pieces_of(prompt)) ids.push_back(token_id(p));
    return ids;
}

}  // namespace

// ------------------------------------------------------------------ LLM
class LLM::Impl {
public:
    std::shared_ptr<Core> core;
};

LLM::LLM(std::unique_ptr<Impl> pimpl) : m_pimpl(std::move(pimpl)) {}
LLM::LLM(LLM &&) = default;
LLM::~LLM() = default;

Expected<LLM> LLM::create(std::shared_ptr<VDevice> vdevice, const LLMParams &llm_params) {
#if FAKE_HAILORT_AT_LEAST(1, 0)
    const bool optimize = llm_params.optimize_memory_on_device();
#else
    const bool optimize = false;
#endif
    auto core = create_core(vdevice, llm_params.hef(), llm_params.lora(), false, optimize);
    if (!core) {
        log_line("error", "Failed to create LLM with status " + std::to_string(core.status()) + ". Check device logs for more details.");
        return make_unexpected(core.status());
    }
    auto impl = std::unique_ptr<Impl>(new Impl());
    impl->core = core.release();
    return Expected<LLM>(LLM(std::move(impl)));
}

Expected<LLMGeneratorParams> LLM::create_generator_params() { return Expected<LLMGeneratorParams>(LLMGeneratorParams(m_pimpl->core->defaults)); }
Expected<LLMGenerator> LLM::create_generator(const LLMGeneratorParams &params) {
    const auto status = validate_generator_params(params);
    if (status != HAILO_SUCCESS) return make_unexpected(status);
    return Expected<LLMGenerator>(LLMGenerator(std::make_shared<LLMGenerator::Impl>(m_pimpl->core, params)));
}
Expected<LLMGenerator> LLM::create_generator() { return create_generator(m_pimpl->core->defaults); }
#if FAKE_HAILORT_AT_LEAST(2, 0)
Expected<LLMGeneratorCompletion> LLM::generate(const std::vector<std::string> &prompt_json_strings, const std::vector<std::string> &tools) {
    return generate(m_pimpl->core->defaults, prompt_json_strings, tools);
}
Expected<LLMGeneratorCompletion> LLM::generate(const LLMGeneratorParams &params, const std::vector<std::string> &prompt_json_strings, const std::vector<std::string> &tools) {
    auto generator = create_generator(params);
    if (!generator) return make_unexpected(generator.status());
    const auto status = generator->write(prompt_json_strings, tools);
    if (status != HAILO_SUCCESS) return make_unexpected(status);
    return generator->generate();
}
#else
Expected<LLMGeneratorCompletion> LLM::generate(const std::vector<std::string> &prompt_json_strings) {
    return generate(m_pimpl->core->defaults, prompt_json_strings);
}
Expected<LLMGeneratorCompletion> LLM::generate(const LLMGeneratorParams &params, const std::vector<std::string> &prompt_json_strings) {
    auto generator = create_generator(params);
    if (!generator) return make_unexpected(generator.status());
    const auto status = generator->write(prompt_json_strings);
    if (status != HAILO_SUCCESS) return make_unexpected(status);
    return generator->generate();
}
#endif
Expected<std::vector<int>> LLM::tokenize(const std::string &prompt) { return Expected<std::vector<int>>(genai::tokenize(prompt)); }
#if FAKE_HAILORT_AT_LEAST(1, 1)
Expected<size_t> LLM::get_context_usage_size() {
    std::lock_guard<std::mutex> lock(m_pimpl->core->mutex);
    return Expected<size_t>(m_pimpl->core->usage);
}
Expected<size_t> LLM::max_context_capacity() { return Expected<size_t>(m_pimpl->core->capacity); }
Expected<BufferPtr> LLM::save_context() { return save(*m_pimpl->core); }
hailo_status LLM::load_context(const MemoryView &context) { return load(*m_pimpl->core, context); }
#endif
hailo_status LLM::clear_context() { return clear(*m_pimpl->core); }
hailo_status LLM::set_generation_recovery_sequence(const std::string &sequence) { m_pimpl->core->recovery = sequence; return HAILO_SUCCESS; }
Expected<std::string> LLM::get_generation_recovery_sequence() { return Expected<std::string>(std::string(m_pimpl->core->recovery)); }
Expected<std::string> LLM::prompt_template() {
    if (m_pimpl->core->chat_template.empty()) {
        log_line("error", "Prompt template is not set for this LLM");
        return make_unexpected(HAILO_NOT_AVAILABLE);
    }
    return Expected<std::string>(std::string(m_pimpl->core->chat_template));
}
hailo_status LLM::set_stop_tokens(const std::vector<std::string> &stop_tokens) { m_pimpl->core->stop_tokens = stop_tokens; return HAILO_SUCCESS; }
Expected<std::vector<std::string>> LLM::get_stop_tokens() { return Expected<std::vector<std::string>>(std::vector<std::string>(m_pimpl->core->stop_tokens)); }

// ------------------------------------------------------------------ VLM
class VLM::Impl {
public:
    std::shared_ptr<Core> core;
};

VLM::VLM(std::unique_ptr<Impl> pimpl) : m_pimpl(std::move(pimpl)) {}
VLM::VLM(VLM &&) = default;
VLM::~VLM() = default;

Expected<VLM> VLM::create(std::shared_ptr<VDevice> vdevice, const VLMParams &vlm_params) {
#if FAKE_HAILORT_AT_LEAST(1, 0)
    const bool optimize = vlm_params.optimize_memory_on_device();
#else
    const bool optimize = false;
#endif
    auto core = create_core(vdevice, vlm_params.hef(), "", true, optimize);
    if (!core) {
        log_line("error", "Failed to create VLM with status " + std::to_string(core.status()) + ".");
        return make_unexpected(core.status());
    }
    auto impl = std::unique_ptr<Impl>(new Impl());
    impl->core = core.release();
    return Expected<VLM>(VLM(std::move(impl)));
}

Expected<LLMGeneratorParams> VLM::create_generator_params() { return Expected<LLMGeneratorParams>(LLMGeneratorParams(m_pimpl->core->defaults)); }
Expected<VLMGenerator> VLM::create_generator(const LLMGeneratorParams &params) {
    const auto status = validate_generator_params(params);
    if (status != HAILO_SUCCESS) return make_unexpected(status);
    return Expected<VLMGenerator>(VLMGenerator(std::make_shared<VLMGenerator::Impl>(m_pimpl->core, params)));
}
Expected<VLMGenerator> VLM::create_generator() { return create_generator(m_pimpl->core->defaults); }
#if FAKE_HAILORT_AT_LEAST(2, 0)
Expected<LLMGeneratorCompletion> VLM::generate(const std::vector<std::string> &messages, const std::vector<MemoryView> &frames, const std::vector<std::vector<MemoryView>> &videos) {
    return generate(m_pimpl->core->defaults, messages, frames, videos);
}
Expected<LLMGeneratorCompletion> VLM::generate(const LLMGeneratorParams &params, const std::vector<std::string> &messages, const std::vector<MemoryView> &frames,
    const std::vector<std::vector<MemoryView>> &videos) {
    auto generator = create_generator(params);
    if (!generator) return make_unexpected(generator.status());
    return generator->generate(messages, frames, videos);
}
#else
Expected<LLMGeneratorCompletion> VLM::generate(const std::vector<std::string> &messages, const std::vector<MemoryView> &frames) {
    return generate(m_pimpl->core->defaults, messages, frames);
}
Expected<LLMGeneratorCompletion> VLM::generate(const LLMGeneratorParams &params, const std::vector<std::string> &messages, const std::vector<MemoryView> &frames) {
    auto generator = create_generator(params);
    if (!generator) return make_unexpected(generator.status());
    return generator->generate(messages, frames);
}
#endif
Expected<std::vector<int>> VLM::tokenize(const std::string &prompt) { return Expected<std::vector<int>>(genai::tokenize(prompt)); }
#if FAKE_HAILORT_AT_LEAST(1, 1)
Expected<size_t> VLM::get_context_usage_size() {
    std::lock_guard<std::mutex> lock(m_pimpl->core->mutex);
    return Expected<size_t>(m_pimpl->core->usage);
}
Expected<size_t> VLM::max_context_capacity() { return Expected<size_t>(m_pimpl->core->capacity); }
Expected<BufferPtr> VLM::save_context() { return save(*m_pimpl->core); }
hailo_status VLM::load_context(const MemoryView &context) { return load(*m_pimpl->core, context); }
#endif
hailo_status VLM::clear_context() { return clear(*m_pimpl->core); }
hailo_status VLM::set_generation_recovery_sequence(const std::string &sequence) { m_pimpl->core->recovery = sequence; return HAILO_SUCCESS; }
Expected<std::string> VLM::get_generation_recovery_sequence() { return Expected<std::string>(std::string(m_pimpl->core->recovery)); }
Expected<std::string> VLM::prompt_template() {
    if (m_pimpl->core->chat_template.empty()) return make_unexpected(HAILO_NOT_AVAILABLE);
    return Expected<std::string>(std::string(m_pimpl->core->chat_template));
}
hailo_status VLM::set_stop_tokens(const std::vector<std::string> &stop_tokens) { m_pimpl->core->stop_tokens = stop_tokens; return HAILO_SUCCESS; }
Expected<std::vector<std::string>> VLM::get_stop_tokens() { return Expected<std::vector<std::string>>(std::vector<std::string>(m_pimpl->core->stop_tokens)); }
uint32_t VLM::input_frame_size() const { return m_pimpl->core->frame_size; }
const hailo_3d_image_shape_t &VLM::input_frame_shape() const { return m_pimpl->core->frame_shape; }
const hailo_format_type_t &VLM::input_frame_format_type() const { return m_pimpl->core->frame_type; }
const hailo_format_order_t &VLM::input_frame_format_order() const { return m_pimpl->core->frame_order; }

}  // namespace genai
}  // namespace hailort

#endif  // FAKE_HAILORT_VERSION_AT_LEAST(5, 0, 0)
