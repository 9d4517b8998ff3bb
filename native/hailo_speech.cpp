// hailo-tools native bridge, speech part: extern "C" exports over HailoRT 5.x's
// hailort::genai::Speech2Text (hailo/genai/speech2text/speech2text.hpp, 5.1.0+). Loaded with koffi in
// the device worker process and built into the same library as hailo_shim.cpp and hailo_genai.cpp.
//
// Rules this file keeps:
//  * every export catches (`guarded`) and answers a status or -1 with the last error set;
//  * the audio arrives as HailoRT takes it (float32 mono at 16 kHz, decoded and resampled on the
//    host, server/src/core/genai/audio.ts); the call blocks the worker thread for the whole
//    transcription, as generate_all_segments does;
//  * the segments are kept in the session until the next generate, so a caller whose buffer was too
//    small asks again without transcribing twice;
//  * only what the installed HailoRT has is compiled: Speech2Text since 5.1.0, the repetition
//    penalty since 5.2.0; older → HAILO_NOT_IMPLEMENTED with the version the call needs.
#include "shim_common.hpp"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#define HTS_SPEECH HTS_AT_LEAST(1, 0)
#define HTS_SPEECH_PENALTY HTS_AT_LEAST(2, 0)

#if HTS_SPEECH
#include <hailo/genai/speech2text/speech2text.hpp>
#endif

using namespace hailort;
using namespace hts;

namespace {

std::string speech_needs(const char *version) {
    std::ostringstream o;
    o << "speech-to-text (Speech2Text) needs HailoRT " << version << " or newer; this bridge was built against " << HAILORT_MAJOR_VERSION << "."
      << HAILORT_MINOR_VERSION << "." << HAILORT_REVISION_VERSION;
    return o.str();
}

#if HTS_SPEECH
struct SpeechSession {
    std::shared_ptr<VDevice> vdevice;
    std::unique_ptr<genai::Speech2Text> model;
    std::string result;
};

std::mutex g_speech_mutex;
std::map<int32_t, std::shared_ptr<SpeechSession>> g_speech;
int32_t g_next_speech = 1;

std::shared_ptr<SpeechSession> find_speech(int32_t handle) {
    std::lock_guard<std::mutex> lock(g_speech_mutex);
    auto it = g_speech.find(handle);
    if (it == g_speech.end()) {
        set_error(HAILO_INVALID_ARGUMENT, "no open speech model with handle " + std::to_string(handle));
        return nullptr;
    }
    return it->second;
}
#endif

}  // namespace

/**
 * Opens a speech-to-text model on a VDevice of `group_id` ("UNIQUE" or a shared id):
 * Speech2Text::create(vdevice, Speech2TextParams(hef)). Answers a handle > 0, or -1 (last error).
 */
HTS_EXPORT int32_t hts_speech_open(const char *hef, const char *group_id) {
    return guarded("speech_open", [&]() -> int32_t {
#if !HTS_SPEECH
        (void)hef; (void)group_id;
        set_error(HAILO_NOT_IMPLEMENTED, speech_needs("5.1.0"));
        return -1;
#else
        if (!hef || !*hef) { set_error(HAILO_INVALID_ARGUMENT, "speech_open: no HEF path"); return -1; }
        genai::Speech2TextParams params;
        auto set = params.set_model(hef);
        if (set != HAILO_SUCCESS) { set_error(set, "Speech2TextParams::set_model"); return -1; }
        hailo_vdevice_params_t vparams{};
        auto status = hailo_init_vdevice_params(&vparams);
        if (status != HAILO_SUCCESS) { set_error(status, "hailo_init_vdevice_params"); return -1; }
        const std::string group = (group_id && *group_id) ? group_id : HAILO_UNIQUE_VDEVICE_GROUP_ID;
        vparams.group_id = group.c_str();
        auto vdevice = VDevice::create_shared(vparams);
        if (!vdevice) { set_error(vdevice.status(), "VDevice::create (group " + group + ")"); return -1; }
        auto s = std::make_shared<SpeechSession>();
        s->vdevice = vdevice.release();
        auto model = genai::Speech2Text::create(s->vdevice, params);
        if (!model) { set_error(model.status(), "Speech2Text::create"); return -1; }
        s->model.reset(new genai::Speech2Text(model.release()));
        std::lock_guard<std::mutex> lock(g_speech_mutex);
        const int32_t handle = g_next_speech++;
        g_speech[handle] = s;
        clear_error();
        return handle;
#endif
    }, static_cast<int32_t>(-1));
}

/**
 * Transcribes `count` float32 samples (mono, 16 kHz, in [-1, 1)) with generate_all_segments:
 * task 0 transcribe, 1 translate; `language` an ISO-639-1 code or empty (the model detects it);
 * `repetition_penalty` ≤ 0 keeps the model's default (5.2.0+; ignored before). The segments are
 * kept for hts_speech_result_json. Answers a status.
 */
HTS_EXPORT int hts_speech_generate(int32_t handle, const float *audio, size_t count, int task, const char *language, float repetition_penalty,
    uint32_t timeout_ms) {
    return guarded("speech_generate", [&]() -> int {
#if !HTS_SPEECH
        (void)handle; (void)audio; (void)count; (void)task; (void)language; (void)repetition_penalty; (void)timeout_ms;
        set_error(HAILO_NOT_IMPLEMENTED, speech_needs("5.1.0"));
        return HAILO_NOT_IMPLEMENTED;
#else
        auto s = find_speech(handle);
        if (!s) return HAILO_INVALID_ARGUMENT;
        if (task != 0 && task != 1) { set_error(HAILO_INVALID_ARGUMENT, "speech_generate: task must be 0 (transcribe) or 1 (translate)"); return HAILO_INVALID_ARGUMENT; }
        auto params = s->model->create_generator_params();
        if (!params) { set_error(params.status(), "Speech2Text::create_generator_params"); return params.status(); }
        auto p = params.release();
        p.set_task(task == 1 ? genai::Speech2TextTask::TRANSLATE : genai::Speech2TextTask::TRANSCRIBE);
        if (language && *language) p.set_language(language);
#if HTS_SPEECH_PENALTY
        if (repetition_penalty > 0) p.set_repetition_penalty(repetition_penalty);
#else
        (void)repetition_penalty;
#endif
        MemoryView view(const_cast<float *>(audio), count * sizeof(float));
        auto segments = s->model->generate_all_segments(view, p, std::chrono::milliseconds(timeout_ms));
        s->result.clear();
        if (!segments) { set_error(segments.status(), "Speech2Text::generate_all_segments"); return segments.status(); }
        std::ostringstream o;
        o << "{\"segments\":[";
        bool first = true;
        for (const auto &seg : segments.value()) {
            o << (first ? "" : ",") << "{\"start\":";
            json_number(o, seg.start_sec);
            o << ",\"end\":";
            json_number(o, seg.end_sec);
            o << ",\"text\":";
            json_string(o, seg.text);
            o << "}";
            first = false;
        }
        o << "]}";
        s->result = o.str();
        clear_error();
        return HAILO_SUCCESS;
#endif
    }, static_cast<int>(HAILO_INTERNAL_FAILURE));
}

/** The last generate's segments as JSON ({"segments":[{start,end,text}]}); answers its length, or -1. */
HTS_EXPORT int64_t hts_speech_result_json(int32_t handle, char *buf, size_t cap) {
    return guarded("speech_result", [&]() -> int64_t {
#if !HTS_SPEECH
        (void)handle; (void)buf; (void)cap;
        set_error(HAILO_NOT_IMPLEMENTED, speech_needs("5.1.0"));
        return -1;
#else
        auto s = find_speech(handle);
        if (!s) return -1;
        return answer_text(s->result, buf, cap);
#endif
    }, static_cast<int64_t>(-1));
}

HTS_EXPORT int hts_speech_close(int32_t handle) {
    return guarded("speech_close", [&]() -> int {
#if !HTS_SPEECH
        (void)handle;
        set_error(HAILO_NOT_IMPLEMENTED, speech_needs("5.1.0"));
        return HAILO_NOT_IMPLEMENTED;
#else
        std::shared_ptr<SpeechSession> s;
        {
            std::lock_guard<std::mutex> lock(g_speech_mutex);
            auto it = g_speech.find(handle);
            if (it == g_speech.end()) { set_error(HAILO_INVALID_ARGUMENT, "speech_close: no open speech model with handle " + std::to_string(handle)); return HAILO_INVALID_ARGUMENT; }
            s = it->second;
            g_speech.erase(it);
        }
        s->model.reset();
        s->vdevice.reset();
        clear_error();
        return HAILO_SUCCESS;
#endif
    }, static_cast<int>(HAILO_INTERNAL_FAILURE));
}
