// Fake libhailort, Speech2Text part: hailort::genai::Speech2Text (names and signatures as
// ../include/hailo/genai/speech2text/speech2text.hpp) over a simulated Whisper, so every
// transcription path runs without a device. Behaviour mirrored from HailoRT's sources
// (libhailort/src/genai/speech2text/speech2text.cpp and hailort_server/genai/speech2text/
// speech2text_server.cpp, v5.1.1 and v5.2.0):
//
//  * Speech2TextParams::set_model: a missing file → HAILO_OPEN_FILE_FAILURE (13);
//    Speech2Text::create: an empty HEF path → HAILO_INVALID_OPERATION (6); the HEF's architecture
//    must run on the device (HEF_NOT_COMPATIBLE_WITH_DEVICE);
//  * 5.1.x opens the fixed groups base-whisper-encoder-10s / base-whisper-decoder-10s-out-seq-64
//    (HAILO_NOT_FOUND without them); 5.2 reads hailo-config.json (HAILO_NOT_FOUND when not embedded),
//    takes the fixed groups when the config has the old embeddings_output_layers_names key, else the
//    groups ending in "encoder"/"decoder" (HAILO_INTERNAL_FAILURE without one) and CHECKs every key
//    of parse_config_json (HAILO_INVALID_ARGUMENT when one is missing);
//  * generate: an empty audio buffer → HAILO_INVALID_ARGUMENT; 5.2: repetition_penalty ≤ 0 →
//    HAILO_INVALID_ARGUMENT; a language must be one of Whisper's language tokens ("<|xx|>") →
//    HAILO_INVALID_ARGUMENT otherwise; the timeout is not used (speech2text.cpp: "TODO: HRT-18570");
//  * the audio is float32 at 16 kHz, processed in chunks of chunk_size_seconds (10 s); a segment never
//    crosses a chunk; generate_all_text is the segments' texts joined.
//
// The simulated model "hears" tones: each stretch of sound (20 ms windows above an RMS of 0.01) is
// one segment whose text names its pitch from zero crossings, " tone 440 Hz" (rounded to 10 Hz),
// prefixed by the task and language when set: " [translate fr] tone 440 Hz". A test that writes
// tones at known times and pitches in any WAV format therefore checks decoding, channel mixing,
// resampling and the timestamps end to end. Environment: FAKE_HAILORT_S2T_MS_PER_CHUNK (default 20).
#include "fake_internal.hpp"
#include "fake_json.hpp"

#if FAKE_HAILORT_VERSION_AT_LEAST(5, 1, 0)

#include <hailo/genai/speech2text/speech2text.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <thread>

namespace hailort {
namespace genai {

using namespace hailort::fake;

namespace {

constexpr int SAMPLE_RATE = 16000;
const char *const FIXED_ENCODER = "base-whisper-encoder-10s";
const char *const FIXED_DECODER = "base-whisper-decoder-10s-out-seq-64";
const char *const CONFIG_KEYS[] = {
    "decoder_start_token_id", "task_transcribe_token_id", "task_translate_token_id", "timestamp_begin_token_id",
    "eos_token_id", "first_language_token_id", "last_language_token_id", "chunk_size_seconds", "num_mel_bins",
    "n_audio_ctx", "repetition_penalty_window_size", "repetition_penalty_default_value",
    "special_tokens_ids_to_suppress", "decoder_ordered_outputs_names__embeddings",
};
// Whisper's 99 language tokens, <|en|> (50259) … <|su|> (50357), in token order.
const char *const LANGUAGES[] = {
    "en", "zh", "de", "es", "ru", "ko", "fr", "ja", "pt", "tr", "pl", "ca", "nl", "ar", "sv", "it", "id", "hi", "fi", "vi",
    "he", "uk", "el", "ms", "cs", "ro", "da", "hu", "ta", "no", "th", "ur", "hr", "bg", "lt", "la", "mi", "ml", "cy", "sk",
    "te", "fa", "lv", "bn", "sr", "az", "sl", "kn", "et", "mk", "br", "eu", "is", "hy", "ne", "mn", "bs", "kk", "sq", "sw",
    "gl", "mr", "pa", "si", "km", "sn", "yo", "so", "af", "oc", "ka", "be", "tg", "sd", "gu", "am", "yi", "lo", "uz", "fo",
    "ht", "ps", "tk", "nn", "mt", "sa", "lb", "my", "bo", "tl", "mg", "as", "tt", "haw", "ln", "ha", "ba", "jw", "su",
};

bool ends_with(const std::string &s, const std::string &suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool has_group(const std::vector<std::string> &groups, const std::string &name) {
    for (const auto &g : groups) if (g == name) return true;
    return false;
}

/** The last group ending in `suffix` (get_model_name_from_suffix keeps the last match). */
std::string group_with_suffix(const std::vector<std::string> &groups, const std::string &suffix) {
    std::string found;
    for (const auto &g : groups) if (ends_with(g, suffix)) found = g;
    return found;
}

}  // namespace

// ------------------------------------------------------------------ parameters
Speech2TextParams::Speech2TextParams(std::string_view hef_path) : m_hef_path(hef_path) {}
hailo_status Speech2TextParams::set_model(std::string_view hef_path) {
    std::FILE *f = std::fopen(std::string(hef_path).c_str(), "rb");
    if (!f) {
        log_line("error", "Hef file '" + std::string(hef_path) + "' does not exist");
        return HAILO_OPEN_FILE_FAILURE;
    }
    std::fclose(f);
    m_hef_path = hef_path;
    return HAILO_SUCCESS;
}
std::string_view Speech2TextParams::hef() const { return m_hef_path; }

hailo_status Speech2TextGeneratorParams::set_task(Speech2TextTask task) { m_task = task; return HAILO_SUCCESS; }
hailo_status Speech2TextGeneratorParams::set_language(std::string_view language) { m_language = language; return HAILO_SUCCESS; }
Speech2TextTask Speech2TextGeneratorParams::task() const { return m_task; }
std::string_view Speech2TextGeneratorParams::language() const { return m_language; }
#if FAKE_HAILORT_AT_LEAST(2, 0)
hailo_status Speech2TextGeneratorParams::set_repetition_penalty(float32_t v) { m_repetition_penalty = v; return HAILO_SUCCESS; }
float32_t Speech2TextGeneratorParams::repetition_penalty() const { return m_repetition_penalty; }
Speech2TextGeneratorParams::Speech2TextGeneratorParams(Speech2TextTask task, std::string_view language, float32_t repetition_penalty)
    : m_task(task), m_language(language), m_repetition_penalty(repetition_penalty) {}
#else
Speech2TextGeneratorParams::Speech2TextGeneratorParams(Speech2TextTask task, std::string_view language) : m_task(task), m_language(language) {}
#endif

// ------------------------------------------------------------------ the model
class Speech2Text::Impl {
public:
    std::shared_ptr<VDevice> vdevice;
    int chunk_seconds = 10;
#if FAKE_HAILORT_AT_LEAST(2, 0)
    float32_t default_repetition_penalty = 1.0f;
#endif

    Expected<std::vector<SegmentInfo>> generate(MemoryView audio, const Speech2TextGeneratorParams &params) {
        if (audio.size() == 0) {
            log_line("error", "CHECK failed - audio buffer is empty");
            return make_unexpected(HAILO_INVALID_ARGUMENT);
        }
#if FAKE_HAILORT_AT_LEAST(2, 0)
        if (!(params.repetition_penalty() > 0.0f)) {
            log_line("error", "Repetition penalty must be greater than 0. Got " + std::to_string(params.repetition_penalty()));
            return make_unexpected(HAILO_INVALID_ARGUMENT);
        }
#endif
        const std::string language(params.language());
        if (!language.empty()) {
            bool known = false;
            for (const char *l : LANGUAGES) known = known || language == l;
            if (!known) {
                log_line("error", "Language must be 1 token, got multiple tokens");
                return make_unexpected(HAILO_INVALID_ARGUMENT);
            }
        }
        std::string prefix;
        if (params.task() == Speech2TextTask::TRANSLATE || !language.empty()) {
            prefix = " [";
            prefix += params.task() == Speech2TextTask::TRANSLATE ? "translate" : "transcribe";
            if (!language.empty()) prefix += " " + language;
            prefix += "]";
        }
        const float32_t *samples = reinterpret_cast<const float32_t *>(audio.data());
        const size_t count = audio.size() / sizeof(float32_t);
        const size_t chunk = static_cast<size_t>(chunk_seconds) * SAMPLE_RATE;
        const size_t window = SAMPLE_RATE / 50;  // 20 ms
        const long ms_per_chunk = env_long("FAKE_HAILORT_S2T_MS_PER_CHUNK", 20);
        std::vector<SegmentInfo> segments;
        for (size_t seek = 0; seek < count; seek += chunk) {
            const size_t end = std::min(count, seek + chunk);
            size_t start_of_sound = 0;
            bool in_sound = false;
            size_t crossings = 0;
            auto close_segment = [&](size_t at) {
                const double seconds = static_cast<double>(at - start_of_sound) / SAMPLE_RATE;
                const long hz = seconds > 0 ? std::lround(crossings / (2.0 * seconds) / 10.0) * 10 : 0;
                SegmentInfo s;
                s.start_sec = static_cast<float32_t>(static_cast<double>(start_of_sound) / SAMPLE_RATE);
                s.end_sec = static_cast<float32_t>(static_cast<double>(at) / SAMPLE_RATE);
                s.text = prefix + " tone " + std::to_string(hz) + " Hz";
                segments.push_back(std::move(s));
            };
            for (size_t w = seek; w < end; w += window) {
                const size_t w_end = std::min(end, w + window);
                double sum = 0;
                for (size_t i = w; i < w_end; i++) sum += static_cast<double>(samples[i]) * samples[i];
                const bool loud = std::sqrt(sum / static_cast<double>(w_end - w)) > 0.01;
                if (loud && !in_sound) { in_sound = true; start_of_sound = w; crossings = 0; }
                if (!loud && in_sound) { close_segment(w); in_sound = false; }
                if (in_sound) {
                    for (size_t i = std::max(w, static_cast<size_t>(1)); i < w_end; i++)
                        if ((samples[i - 1] < 0) != (samples[i] < 0)) crossings++;
                }
            }
            if (in_sound) close_segment(end);
            if (ms_per_chunk > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms_per_chunk));
        }
        return segments;
    }
};

Speech2Text::Speech2Text(std::unique_ptr<Impl> pimpl) : m_pimpl(std::move(pimpl)) {}
Speech2Text::Speech2Text(Speech2Text &&) = default;
Speech2Text::~Speech2Text() = default;

Expected<Speech2Text> Speech2Text::create(std::shared_ptr<VDevice> vdevice, const Speech2TextParams &params) {
    const std::string hef_path(params.hef());
    if (hef_path.empty()) {
        log_line("error", "Failed to create Speech2Text. HEF was not set.");
        return make_unexpected(HAILO_INVALID_OPERATION);
    }
    if (!vdevice) return make_unexpected(HAILO_INVALID_ARGUMENT);
    auto bytes = read_file(hef_path);
    if (!bytes) return make_unexpected(bytes.status());
    auto hef = load_hef(bytes->data(), bytes->size(), true);
    if (!hef) return make_unexpected(hef.status());
    const HefFacts &facts = facts_of(hef.value());
    if (std::find(facts.archs.begin(), facts.archs.end(), static_cast<int>(device_arch())) == facts.archs.end()) {
        log_line("error", "HEF file is not compatible with device.");
        return make_unexpected(HAILO_HEF_NOT_COMPATIBLE_WITH_DEVICE);
    }
    auto impl = std::make_unique<Impl>();
    impl->vdevice = vdevice;
    std::string encoder = FIXED_ENCODER, decoder = FIXED_DECODER;
#if FAKE_HAILORT_AT_LEAST(2, 0)
    auto config_bytes = resource_of(hef.value(), "hailo-config.json");
    if (!config_bytes) return make_unexpected(config_bytes.status());
    Json config;
    if (!parse_json(std::string(reinterpret_cast<const char *>(config_bytes->data()), config_bytes->size()), config) || config.type != Json::Object) {
        log_line("error", "hailo-config.json is not valid JSON");
        return make_unexpected(HAILO_INVALID_ARGUMENT);
    }
    if (!config.get("embeddings_output_layers_names")) {
        for (const char *key : CONFIG_KEYS) {
            if (!config.get(key)) {
                log_line("error", std::string("CHECK failed - hailo-config.json has no ") + key);
                return make_unexpected(HAILO_INVALID_ARGUMENT);
            }
        }
        const Json *chunk = config.get("chunk_size_seconds");
        if (chunk->type == Json::Number && chunk->number >= 1) impl->chunk_seconds = static_cast<int>(chunk->number);
        const Json *penalty = config.get("repetition_penalty_default_value");
        if (penalty->type == Json::Number) impl->default_repetition_penalty = static_cast<float32_t>(penalty->number);
        encoder = group_with_suffix(facts.groups, "encoder");
        decoder = group_with_suffix(facts.groups, "decoder");
        for (const auto *pair : {&encoder, &decoder}) {
            if (pair->empty()) {
                log_line("error", std::string("Model doesnt have NG with name-suffix '") + (pair == &encoder ? "encoder" : "decoder") + "'");
                return make_unexpected(HAILO_INTERNAL_FAILURE);
            }
        }
    }
#endif
    for (const auto &group : {encoder, decoder}) {
        if (!has_group(facts.groups, group)) {
            log_line("error", "Failed to find network_group with name '" + group + "'");
            return make_unexpected(HAILO_NOT_FOUND);
        }
    }
    return Speech2Text(std::move(impl));
}

Expected<Speech2TextGeneratorParams> Speech2Text::create_generator_params() {
#if FAKE_HAILORT_AT_LEAST(2, 0)
    return Speech2TextGeneratorParams(Speech2TextTask::TRANSCRIBE, "", m_pimpl->default_repetition_penalty);
#else
    return Speech2TextGeneratorParams(Speech2TextTask::TRANSCRIBE, "");
#endif
}

Expected<std::vector<Speech2Text::SegmentInfo>> Speech2Text::generate_all_segments(MemoryView audio, const Speech2TextGeneratorParams &params, std::chrono::milliseconds) {
    return m_pimpl->generate(audio, params);
}

Expected<std::string> Speech2Text::generate_all_text(MemoryView audio, const Speech2TextGeneratorParams &params, std::chrono::milliseconds timeout) {
    auto segments = generate_all_segments(audio, params, timeout);
    if (!segments) return make_unexpected(segments.status());
    std::string all;
    for (const auto &s : segments.value()) all += s.text;
    return all;
}

#if FAKE_HAILORT_AT_LEAST(1, 1)
Expected<std::vector<Speech2Text::SegmentInfo>> Speech2Text::generate_all_segments(MemoryView audio, std::chrono::milliseconds timeout) {
    auto params = create_generator_params();
    if (!params) return make_unexpected(params.status());
    return generate_all_segments(audio, params.value(), timeout);
}
Expected<std::string> Speech2Text::generate_all_text(MemoryView audio, std::chrono::milliseconds timeout) {
    auto params = create_generator_params();
    if (!params) return make_unexpected(params.status());
    return generate_all_text(audio, params.value(), timeout);
}
Expected<std::vector<int>> Speech2Text::tokenize(const std::string &text) {
    std::vector<int> ids;
    for (unsigned char c : text) ids.push_back(c);
    return ids;
}
#endif

}  // namespace genai
}  // namespace hailort

#endif
