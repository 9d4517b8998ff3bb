// hailo-tools native bridge, GenAI part: extern "C" exports over HailoRT 5.x's hailort::genai LLM and
// VLM (facts: docs/research/hailort5-api.md#genai). Loaded with koffi in the device worker process,
// like hailo_shim.cpp, and built into the same library.
//
// Rules this file keeps:
//  * every export catches (`guarded`); no callback exists: the worker thread calls
//    hts_genai_read with a timeout, and between reads it is free for the next request (Stop);
//  * one generation at a time per model, and the previous completion is destroyed before the next
//    one is created (llm.hpp: "A subsequent LLMGeneratorCompletion must only be created once the
//    previous one has been fully destructed");
//  * a VLM's frames are checked before HailoRT sees them: each exactly input_frame_size() bytes and
//    as many as the messages' image entries (HailoRT would fail the generate with 6, or accept it
//    and fail the first read — vlm.cpp:590-594, vlm_server.cpp:472);
//  * only what the installed HailoRT has is compiled: the JSON chat API and abort() since 5.0.1,
//    the context calls (usage, capacity, save, load) since 5.1.1; older → HAILO_NOT_IMPLEMENTED
//    with the version the call needs.
#include "shim_common.hpp"

#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

// The GenAI API the bridge speaks (JSON messages, abort) appeared in 5.0.1; 5.0.0 had neither.
#define HTS_GENAI HTS_AT_LEAST(0, 1)
// LLM/VLM::get_context_usage_size, max_context_capacity, save_context, load_context: 5.1.1.
#define HTS_GENAI_CONTEXT HTS_AT_LEAST(1, 1)

using namespace hailort;
using namespace hts;
using std::chrono::milliseconds;

namespace {

std::string version_needed(const char *what, const char *version) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s needs HailoRT %s or newer; this bridge was built against %d.%d.%d", what, version,
        HAILORT_MAJOR_VERSION, HAILORT_MINOR_VERSION, HAILORT_REVISION_VERSION);
    return buf;
}

/**
 * How many image entries the messages hold: objects with "type": "image" (what the VLM's
 * template replaces with vision tokens, one per frame). A small scanner that skips string
 * contents correctly, so a user's text that quotes `"type":"image"` does not count.
 */
uint32_t count_image_entries(const std::string &json) {
    uint32_t count = 0;
    std::string last_key;
    bool expect_value_of_type = false;
    size_t i = 0;
    while (i < json.size()) {
        const char c = json[i];
        if (c == '"') {
            std::string str;
            i++;
            while (i < json.size() && json[i] != '"') {
                if (json[i] == '\\' && i + 1 < json.size()) { str += json[i + 1]; i += 2; continue; }
                str += json[i++];
            }
            i++;
            size_t j = i;
            while (j < json.size() && (json[j] == ' ' || json[j] == '\t' || json[j] == '\n' || json[j] == '\r')) j++;
            if (j < json.size() && json[j] == ':') {
                expect_value_of_type = str == "type";
            } else {
                if (expect_value_of_type && str == "image") count++;
                expect_value_of_type = false;
            }
            continue;
        }
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ':') expect_value_of_type = false;
        i++;
    }
    return count;
}

#if HTS_GENAI
using genai::LLM;
using genai::LLMGeneratorCompletion;
using genai::LLMGeneratorParams;
using genai::VLM;

struct Session {
    int kind = 1;  // 1 LLM, 2 VLM
    std::shared_ptr<VDevice> vdevice;
    std::unique_ptr<LLM> llm;
    std::unique_ptr<VLM> vlm;
    std::unique_ptr<LLMGeneratorCompletion> completion;
    bool has_pending = false;
    std::string pending;
    int pending_status = 0;
    BufferPtr saved;
};

std::mutex g_sessions_mutex;
std::map<int32_t, std::shared_ptr<Session>> g_sessions;
int32_t g_next_session = 1;

std::shared_ptr<Session> find_session(int32_t handle) {
    std::lock_guard<std::mutex> lock(g_sessions_mutex);
    auto it = g_sessions.find(handle);
    if (it == g_sessions.end()) {
        set_error(HAILO_INVALID_ARGUMENT, "no open LLM/VLM with handle " + std::to_string(handle));
        return nullptr;
    }
    return it->second;
}

/**
 * Calls `call` on the session's model, LLM or VLM: HailoRT's two classes have these calls with the
 * same names and types, so each export is written once for both.
 */
template <typename Call>
auto on_model(Session &s, Call &&call) -> decltype(call(*s.llm)) {
    return s.kind == 2 ? call(*s.vlm) : call(*s.llm);
}

Expected<LLMGeneratorParams> default_params(Session &s) {
    return on_model(s, [](auto &m) { return m.create_generator_params(); });
}

bool generating(const Session &s) {
    return s.completion && s.completion->generation_status() == LLMGeneratorCompletion::Status::GENERATING;
}

enum ParamBits : uint32_t { P_TEMPERATURE = 1, P_TOP_P = 2, P_TOP_K = 4, P_FREQ = 8, P_MAX = 16, P_SAMPLE = 32, P_SEED = 64 };

/** Starts a generation (the shared body of hts_genai_generate and the timed loop). Answers a status. */
int start_generation(Session &s, uint32_t mask, float temperature, float top_p, uint32_t top_k, float frequency_penalty, uint32_t max_tokens,
    int do_sample, uint32_t seed, const char *messages, size_t messages_size, uint32_t message_count, const uint8_t *frames, size_t frames_size,
    uint32_t frame_count) {
    if (generating(s)) {
        set_error(HAILO_INVALID_OPERATION, "generate: a generation is in progress (read it to the end or abort it first)");
        return HAILO_INVALID_OPERATION;
    }
    s.completion.reset();  // the previous completion is destroyed before the next exists
    s.has_pending = false;
    if (!messages || messages_size == 0 || message_count == 0) {
        set_error(HAILO_INVALID_ARGUMENT, "generate: no messages");
        return HAILO_INVALID_ARGUMENT;
    }
    // The messages arrive as one block of NUL-terminated JSON strings.
    std::vector<std::string> list;
    size_t start = 0;
    for (size_t i = 0; i < messages_size; i++) {
        if (messages[i] == '\0') { list.emplace_back(messages + start, i - start); start = i + 1; }
    }
    if (start != messages_size || list.size() != message_count) {
        set_error(HAILO_INVALID_ARGUMENT, "generate: the message block does not hold " + std::to_string(message_count) + " NUL-terminated messages");
        return HAILO_INVALID_ARGUMENT;
    }
    auto params = default_params(s);
    if (!params) { set_error(params.status(), "create_generator_params"); return params.status(); }
    LLMGeneratorParams p = params.release();
    if (mask & P_TEMPERATURE) p.set_temperature(temperature);
    if (mask & P_TOP_P) p.set_top_p(top_p);
    if (mask & P_TOP_K) p.set_top_k(top_k);
    if (mask & P_FREQ) p.set_frequency_penalty(frequency_penalty);
    if (mask & P_MAX) p.set_max_generated_tokens(max_tokens);
    if (mask & P_SAMPLE) p.set_do_sample(do_sample != 0);
    if (mask & P_SEED) p.set_seed(seed);

    std::vector<MemoryView> views;
    if (s.kind == 2) {
        const uint32_t frame_size = s.vlm->input_frame_size();
        uint32_t images = 0;
        for (const auto &m : list) images += count_image_entries(m);
        if (frame_count != images) {
            set_error(HAILO_INVALID_ARGUMENT, "refused before HailoRT: " + std::to_string(frame_count) + " frame(s) for " + std::to_string(images) +
                " image entr" + (images == 1 ? "y" : "ies") + " in the messages (one frame per image entry)");
            return HAILO_INVALID_ARGUMENT;
        }
        if (frames_size != static_cast<size_t>(frame_count) * frame_size || (frame_count > 0 && !frames)) {
            set_error(HAILO_INVALID_ARGUMENT, "refused before HailoRT: " + std::to_string(frames_size) + " bytes of frames, but " + std::to_string(frame_count) +
                " frame(s) of VLM::input_frame_size() = " + std::to_string(frame_size) + " bytes are " + std::to_string(static_cast<size_t>(frame_count) * frame_size));
            return HAILO_INVALID_ARGUMENT;
        }
        for (uint32_t i = 0; i < frame_count; i++) views.push_back(MemoryView(const_cast<uint8_t *>(frames) + static_cast<size_t>(i) * frame_size, frame_size));
    } else if (frame_count > 0 || frames_size > 0) {
        set_error(HAILO_INVALID_ARGUMENT, "refused before HailoRT: an LLM takes no image frames");
        return HAILO_INVALID_ARGUMENT;
    }
    auto c = s.kind == 2 ? s.vlm->generate(p, list, views) : s.llm->generate(p, list);
    if (!c) { set_error(c.status(), s.kind == 2 ? "VLM::generate" : "LLM::generate"); return c.status(); }
    s.completion.reset(new LLMGeneratorCompletion(c.release()));
    clear_error();
    return HAILO_SUCCESS;
}

/** The next chunk into `pending` (unless one is waiting). Answers a status. */
int read_pending(Session &s, uint32_t timeout_ms) {
    if (s.has_pending) return HAILO_SUCCESS;
    if (!s.completion) {
        set_error(HAILO_INVALID_OPERATION, "read: no generation (call generate first)");
        return HAILO_INVALID_OPERATION;
    }
    auto r = s.completion->read(milliseconds(timeout_ms));
    if (!r) {
        set_error(r.status(), r.status() == HAILO_TIMEOUT ? "LLMGeneratorCompletion::read: no token within " + std::to_string(timeout_ms) + " ms"
                                                          : "LLMGeneratorCompletion::read");
        return r.status();
    }
    s.pending = r.release();
    s.pending_status = static_cast<int>(s.completion->generation_status());
    s.has_pending = true;
    return HAILO_SUCCESS;
}
#endif

}  // namespace

/**
 * Opens an LLM (kind 1) or a VLM (kind 2) on a VDevice of `group_id` ("UNIQUE" or a shared id):
 * LLM::create(vdevice, LLMParams(hef, lora)) / VLM::create(vdevice, VLMParams(hef)). `lora` may
 * be empty or NULL (VLMs take none). Answers a handle > 0, or -1 (last error).
 */
HTS_EXPORT int32_t hts_genai_open(const char *hef, const char *lora, int kind, const char *group_id) {
    return guarded("genai_open", [&]() -> int32_t {
#if !HTS_GENAI
        (void)hef; (void)lora; (void)kind; (void)group_id;
        set_error(HAILO_NOT_IMPLEMENTED, version_needed("chatting with an LLM or VLM (JSON messages, abort)", "5.0.1"));
        return -1;
#else
        if (!hef || !*hef) { set_error(HAILO_INVALID_ARGUMENT, "genai_open: no HEF path"); return -1; }
        if (kind != 1 && kind != 2) { set_error(HAILO_INVALID_ARGUMENT, "genai_open: kind must be 1 (LLM) or 2 (VLM)"); return -1; }
        const std::string lora_name = lora ? lora : "";
        if (kind == 2 && !lora_name.empty()) { set_error(HAILO_INVALID_ARGUMENT, "genai_open: a VLM takes no LoRA"); return -1; }
        auto s = std::make_shared<Session>();
        s->kind = kind;
        hailo_vdevice_params_t params{};
        auto status = hailo_init_vdevice_params(&params);
        if (status != HAILO_SUCCESS) { set_error(status, "hailo_init_vdevice_params"); return -1; }
        const std::string group = (group_id && *group_id) ? group_id : HAILO_UNIQUE_VDEVICE_GROUP_ID;
        params.group_id = group.c_str();
        auto vdevice = VDevice::create_shared(params);
        if (!vdevice) { set_error(vdevice.status(), "VDevice::create (group " + group + ")"); return -1; }
        s->vdevice = vdevice.release();
        if (kind == 1) {
            auto llm = LLM::create(s->vdevice, genai::LLMParams(hef, lora_name));
            if (!llm) { set_error(llm.status(), "LLM::create"); return -1; }
            s->llm.reset(new LLM(llm.release()));
        } else {
            auto vlm = VLM::create(s->vdevice, genai::VLMParams(hef));
            if (!vlm) { set_error(vlm.status(), "VLM::create"); return -1; }
            s->vlm.reset(new VLM(vlm.release()));
        }
        std::lock_guard<std::mutex> lock(g_sessions_mutex);
        const int32_t handle = g_next_session++;
        g_sessions[handle] = s;
        clear_error();
        return handle;
#endif
    }, static_cast<int32_t>(-1));
}

/**
 * What the model says about itself, as JSON: kind, the generator defaults, the prompt template,
 * the context usage and capacity (null before 5.1.1), and a VLM's frame (size, shape, format type
 * and order as hailo_format_*_t values). Answers the JSON length, or -1 (last error).
 */
HTS_EXPORT int64_t hts_genai_info_json(int32_t handle, char *buf, size_t cap) {
    return guarded("genai_info", [&]() -> int64_t {
#if !HTS_GENAI
        (void)handle; (void)buf; (void)cap;
        set_error(HAILO_NOT_IMPLEMENTED, version_needed("GenAI", "5.0.1"));
        return -1;
#else
        auto s = find_session(handle);
        if (!s) return -1;
        auto params = default_params(*s);
        if (!params) { set_error(params.status(), "create_generator_params"); return -1; }
        std::ostringstream o;
        o << "{\"kind\":\"" << (s->kind == 2 ? "vlm" : "llm") << "\",\"defaults\":{\"temperature\":";
        json_number(o, params->temperature());
        o << ",\"topP\":";
        json_number(o, params->top_p());
        o << ",\"topK\":" << params->top_k() << ",\"frequencyPenalty\":";
        json_number(o, params->frequency_penalty());
        o << ",\"maxTokens\":" << params->max_generated_tokens() << ",\"doSample\":" << (params->do_sample() ? "true" : "false")
          << ",\"seed\":" << params->seed() << "},\"template\":";
        auto tmpl = on_model(*s, [](auto &m) { return m.prompt_template(); });
        if (tmpl) json_string(o, tmpl.value()); else o << "null";
        o << ",\"contextUsage\":";
#if HTS_GENAI_CONTEXT
        auto usage = on_model(*s, [](auto &m) { return m.get_context_usage_size(); });
        auto capacity = on_model(*s, [](auto &m) { return m.max_context_capacity(); });
        if (usage) o << usage.value(); else o << "null";
        o << ",\"contextCapacity\":";
        if (capacity) o << capacity.value(); else o << "null";
        o << ",\"contextCalls\":true";
#else
        o << "null,\"contextCapacity\":null,\"contextCalls\":false";
#endif
        o << ",\"frame\":";
        if (s->kind == 2) {
            const auto &shape = s->vlm->input_frame_shape();
            o << "{\"size\":" << s->vlm->input_frame_size() << ",\"shape\":[" << shape.height << ',' << shape.width << ',' << shape.features
              << "],\"type\":" << static_cast<int>(s->vlm->input_frame_format_type()) << ",\"order\":" << static_cast<int>(s->vlm->input_frame_format_order()) << '}';
        } else {
            o << "null";
        }
        o << '}';
        clear_error();
        return answer_text(o.str(), buf, cap);
#endif
    }, static_cast<int64_t>(-1));
}

/**
 * Starts a generation with the model's default generator parameters, overridden where `mask` says
 * (1 temperature, 2 top_p, 4 top_k, 8 frequency_penalty, 16 max tokens, 32 do_sample, 64 seed;
 * HailoRT validates them: 2 when out of range). `messages`: `message_count` NUL-terminated JSON
 * messages; for a VLM, `frame_count` frames of input_frame_size() bytes back to back. Answers a
 * status; then hts_genai_read streams the answer.
 */
HTS_EXPORT int hts_genai_generate(int32_t handle, uint32_t mask, float temperature, float top_p, uint32_t top_k, float frequency_penalty,
    uint32_t max_tokens, int do_sample, uint32_t seed, const char *messages, size_t messages_size, uint32_t message_count, const uint8_t *frames,
    size_t frames_size, uint32_t frame_count) {
    return guarded("genai_generate", [&]() -> int {
#if !HTS_GENAI
        (void)handle; (void)mask; (void)temperature; (void)top_p; (void)top_k; (void)frequency_penalty; (void)max_tokens; (void)do_sample; (void)seed;
        (void)messages; (void)messages_size; (void)message_count; (void)frames; (void)frames_size; (void)frame_count;
        set_error(HAILO_NOT_IMPLEMENTED, version_needed("GenAI", "5.0.1"));
        return HAILO_NOT_IMPLEMENTED;
#else
        auto s = find_session(handle);
        if (!s) return HAILO_INVALID_ARGUMENT;
        return start_generation(*s, mask, temperature, top_p, top_k, frequency_penalty, max_tokens, do_sample, seed, messages, messages_size,
            message_count, frames, frames_size, frame_count);
#endif
    }, static_cast<int>(HAILO_INTERNAL_FAILURE));
}

/**
 * The next chunk of the answer: waits up to timeout_ms (HailoRT's read: 4 when nothing came, 6
 * after the generation ended). Copies it NUL-terminated into `buf` when it fits and answers its
 * length; when it does not fit, keeps it and answers its length (call again with a larger buffer).
 * *generation_status: 0 generating, 1 max tokens reached, 2 logical end, 3 aborted. -1 = error.
 */
HTS_EXPORT int64_t hts_genai_read(int32_t handle, char *buf, size_t cap, uint32_t timeout_ms, int32_t *generation_status) {
    return guarded("genai_read", [&]() -> int64_t {
#if !HTS_GENAI
        (void)handle; (void)buf; (void)cap; (void)timeout_ms; (void)generation_status;
        set_error(HAILO_NOT_IMPLEMENTED, version_needed("GenAI", "5.0.1"));
        return -1;
#else
        auto s = find_session(handle);
        if (!s) return -1;
        const int st = read_pending(*s, timeout_ms);
        if (st != HAILO_SUCCESS) return -1;
        if (generation_status) *generation_status = s->pending_status;
        const size_t n = s->pending.size();
        if (buf && cap > n) {
            std::memcpy(buf, s->pending.data(), n);
            buf[n] = '\0';
            s->has_pending = false;
        }
        clear_error();
        return static_cast<int64_t>(n);
#endif
    }, static_cast<int64_t>(-1));
}

/** Stops the generation (LLMGeneratorCompletion::abort blocks until it has) and drops what was not read. */
HTS_EXPORT int hts_genai_abort(int32_t handle) {
    return guarded("genai_abort", [&]() -> int {
#if !HTS_GENAI
        (void)handle;
        set_error(HAILO_NOT_IMPLEMENTED, version_needed("GenAI", "5.0.1"));
        return HAILO_NOT_IMPLEMENTED;
#else
        auto s = find_session(handle);
        if (!s) return HAILO_INVALID_ARGUMENT;
        s->has_pending = false;
        if (!s->completion) { clear_error(); return HAILO_SUCCESS; }
        if (generating(*s)) {
            const auto st = s->completion->abort();
            if (st != HAILO_SUCCESS) { set_error(st, "LLMGeneratorCompletion::abort"); return st; }
            // The tokens that were generated but not read, then the ABORTED one: drop them.
            for (int i = 0; i < 100000 && generating(*s); i++) {
                auto r = s->completion->read(milliseconds(1000));
                if (!r) break;
            }
        }
        s->completion.reset();
        clear_error();
        return HAILO_SUCCESS;
#endif
    }, static_cast<int>(HAILO_INTERNAL_FAILURE));
}

/** Context usage and capacity in tokens (5.1.1+; HAILO_NOT_IMPLEMENTED before). Answers a status. */
HTS_EXPORT int hts_genai_context(int32_t handle, int64_t *usage, int64_t *capacity) {
    return guarded("genai_context", [&]() -> int {
#if !HTS_GENAI_CONTEXT
        (void)handle; (void)usage; (void)capacity;
        set_error(HAILO_NOT_IMPLEMENTED, version_needed("the context usage (get_context_usage_size, max_context_capacity)", "5.1.1"));
        return HAILO_NOT_IMPLEMENTED;
#else
        auto s = find_session(handle);
        if (!s) return HAILO_INVALID_ARGUMENT;
        auto u = on_model(*s, [](auto &m) { return m.get_context_usage_size(); });
        if (!u) { set_error(u.status(), "get_context_usage_size"); return u.status(); }
        auto c = on_model(*s, [](auto &m) { return m.max_context_capacity(); });
        if (!c) { set_error(c.status(), "max_context_capacity"); return c.status(); }
        if (usage) *usage = static_cast<int64_t>(u.value());
        if (capacity) *capacity = static_cast<int64_t>(c.value());
        clear_error();
        return HAILO_SUCCESS;
#endif
    }, static_cast<int>(HAILO_INTERNAL_FAILURE));
}

/** clear_context (refused while a generation runs: HailoRT would wait for it). Answers a status. */
HTS_EXPORT int hts_genai_clear_context(int32_t handle) {
    return guarded("genai_clear_context", [&]() -> int {
#if !HTS_GENAI
        (void)handle;
        set_error(HAILO_NOT_IMPLEMENTED, version_needed("GenAI", "5.0.1"));
        return HAILO_NOT_IMPLEMENTED;
#else
        auto s = find_session(handle);
        if (!s) return HAILO_INVALID_ARGUMENT;
        if (generating(*s)) { set_error(HAILO_INVALID_OPERATION, "clear_context: a generation is in progress"); return HAILO_INVALID_OPERATION; }
        const auto st = on_model(*s, [](auto &m) { return m.clear_context(); });
        if (st != HAILO_SUCCESS) { set_error(st, "clear_context"); return st; }
        clear_error();
        return HAILO_SUCCESS;
#endif
    }, static_cast<int>(HAILO_INTERNAL_FAILURE));
}

/**
 * save_context (5.1.1+): a call without room (buf NULL or cap too small) saves the context and
 * answers its size; the next call with room copies that blob. -1 = error.
 */
HTS_EXPORT int64_t hts_genai_save_context(int32_t handle, uint8_t *buf, size_t cap) {
    return guarded("genai_save_context", [&]() -> int64_t {
#if !HTS_GENAI_CONTEXT
        (void)handle; (void)buf; (void)cap;
        set_error(HAILO_NOT_IMPLEMENTED, version_needed("saving the context (save_context)", "5.1.1"));
        return -1;
#else
        auto s = find_session(handle);
        if (!s) return -1;
        if (generating(*s)) { set_error(HAILO_INVALID_OPERATION, "save_context: a generation is in progress"); return -1; }
        if (s->saved && buf && cap >= s->saved->size()) {
            const size_t n = s->saved->size();
            std::memcpy(buf, s->saved->data(), n);
            s->saved.reset();
            clear_error();
            return static_cast<int64_t>(n);
        }
        auto blob = on_model(*s, [](auto &m) { return m.save_context(); });
        if (!blob) { set_error(blob.status(), "save_context"); return -1; }
        s->saved = blob.release();
        clear_error();
        return static_cast<int64_t>(s->saved->size());
#endif
    }, static_cast<int64_t>(-1));
}

/** load_context (5.1.1+): a blob from save_context of the same model. Answers a status. */
HTS_EXPORT int hts_genai_load_context(int32_t handle, const uint8_t *blob, size_t size) {
    return guarded("genai_load_context", [&]() -> int {
#if !HTS_GENAI_CONTEXT
        (void)handle; (void)blob; (void)size;
        set_error(HAILO_NOT_IMPLEMENTED, version_needed("loading a context (load_context)", "5.1.1"));
        return HAILO_NOT_IMPLEMENTED;
#else
        auto s = find_session(handle);
        if (!s) return HAILO_INVALID_ARGUMENT;
        if (!blob || size == 0) { set_error(HAILO_INVALID_ARGUMENT, "load_context: empty context"); return HAILO_INVALID_ARGUMENT; }
        if (generating(*s)) { set_error(HAILO_INVALID_OPERATION, "load_context: a generation is in progress"); return HAILO_INVALID_OPERATION; }
        const MemoryView view(const_cast<uint8_t *>(blob), size);
        const auto st = on_model(*s, [&](auto &m) { return m.load_context(view); });
        if (st != HAILO_SUCCESS) { set_error(st, "load_context"); return st; }
        clear_error();
        return HAILO_SUCCESS;
#endif
    }, static_cast<int>(HAILO_INTERNAL_FAILURE));
}

/** tokenize: writes up to `cap` token ids and answers how many there are, or -1. */
HTS_EXPORT int64_t hts_genai_tokenize(int32_t handle, const char *text, int32_t *ids, size_t cap) {
    return guarded("genai_tokenize", [&]() -> int64_t {
#if !HTS_GENAI
        (void)handle; (void)text; (void)ids; (void)cap;
        set_error(HAILO_NOT_IMPLEMENTED, version_needed("GenAI", "5.0.1"));
        return -1;
#else
        auto s = find_session(handle);
        if (!s) return -1;
        auto tokens = on_model(*s, [&](auto &m) { return m.tokenize(text ? text : ""); });
        if (!tokens) { set_error(tokens.status(), "tokenize"); return -1; }
        for (size_t i = 0; ids && i < tokens->size() && i < cap; i++) ids[i] = tokens.value()[i];
        clear_error();
        return static_cast<int64_t>(tokens->size());
#endif
    }, static_cast<int64_t>(-1));
}

/**
 * The bridge's own read loop (the bench's baseline): generate as hts_genai_generate, then read to
 * the end in C++. *first_ms: generate → first non-empty chunk; *total_ms: generate → end;
 * *chunks: non-empty chunks read. Answers a status.
 */
HTS_EXPORT int hts_genai_generate_timed(int32_t handle, uint32_t mask, float temperature, float top_p, uint32_t top_k, float frequency_penalty,
    uint32_t max_tokens, int do_sample, uint32_t seed, const char *messages, size_t messages_size, uint32_t message_count, uint32_t timeout_ms,
    double *first_ms, double *total_ms, uint32_t *chunks) {
    return guarded("genai_generate_timed", [&]() -> int {
#if !HTS_GENAI
        (void)handle; (void)mask; (void)temperature; (void)top_p; (void)top_k; (void)frequency_penalty; (void)max_tokens; (void)do_sample; (void)seed;
        (void)messages; (void)messages_size; (void)message_count; (void)timeout_ms; (void)first_ms; (void)total_ms; (void)chunks;
        set_error(HAILO_NOT_IMPLEMENTED, version_needed("GenAI", "5.0.1"));
        return HAILO_NOT_IMPLEMENTED;
#else
        auto s = find_session(handle);
        if (!s) return HAILO_INVALID_ARGUMENT;
        const auto t0 = std::chrono::steady_clock::now();
        const int st = start_generation(*s, mask, temperature, top_p, top_k, frequency_penalty, max_tokens, do_sample, seed, messages, messages_size,
            message_count, nullptr, 0, 0);
        if (st != HAILO_SUCCESS) return st;
        uint32_t n = 0;
        double first = -1;
        while (generating(*s)) {
            const int r = read_pending(*s, timeout_ms);
            if (r != HAILO_SUCCESS) return r;
            if (!s->pending.empty()) {
                if (first < 0) first = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
                n++;
            }
            s->has_pending = false;
        }
        if (first_ms) *first_ms = first;
        if (total_ms) *total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (chunks) *chunks = n;
        clear_error();
        return HAILO_SUCCESS;
#endif
    }, static_cast<int>(HAILO_INTERNAL_FAILURE));
}

/** Aborts a running generation, releases the model (and with it the device's KV cache) and the VDevice. */
HTS_EXPORT int hts_genai_close(int32_t handle) {
    return guarded("genai_close", [&]() -> int {
#if !HTS_GENAI
        (void)handle;
        set_error(HAILO_NOT_IMPLEMENTED, version_needed("GenAI", "5.0.1"));
        return HAILO_NOT_IMPLEMENTED;
#else
        std::shared_ptr<Session> s;
        {
            std::lock_guard<std::mutex> lock(g_sessions_mutex);
            auto it = g_sessions.find(handle);
            if (it == g_sessions.end()) { set_error(HAILO_INVALID_ARGUMENT, "genai_close: no open LLM/VLM with handle " + std::to_string(handle)); return HAILO_INVALID_ARGUMENT; }
            s = it->second;
            g_sessions.erase(it);
        }
        if (generating(*s)) s->completion->abort();
        s->completion.reset();
        s->llm.reset();
        s->vlm.reset();
        s->vdevice.reset();
        clear_error();
        return HAILO_SUCCESS;
#endif
    }, static_cast<int>(HAILO_INTERNAL_FAILURE));
}

/** Test hook (not HailoRT): the image-entry count the frame check uses for one message. */
HTS_EXPORT uint32_t hts_genai_count_images(const char *json) {
    return guarded("genai_count_images", [&]() -> uint32_t { return json ? count_image_entries(json) : 0; }, static_cast<uint32_t>(0));
}

/** The VDevice an open LLM/VLM runs on (for hailo_health.cpp), or null with the last error set. */
std::shared_ptr<VDevice> hts::genai_vdevice(int32_t handle) {
#if !HTS_GENAI
    (void)handle;
    set_error(HAILO_NOT_IMPLEMENTED, version_needed("GenAI", "5.0.1"));
    return nullptr;
#else
    auto s = find_session(handle);
    return s ? s->vdevice : nullptr;
#endif
}
