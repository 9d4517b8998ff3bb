// Shared by the bridge's translation units (hailo_shim.cpp: devices and InferModel;
// hailo_genai.cpp: LLM and VLM; hailo_speech.cpp: Speech2Text; hailo_health.cpp: device state): the per-thread last error, JSON writing, answers into caller
// buffers, and `guarded`, which keeps every C++ exception on this side of the extern "C" boundary.
#ifndef HAILO_TOOLS_SHIM_COMMON_HPP
#define HAILO_TOOLS_SHIM_COMMON_HPP

#include <hailo/hailort.hpp>

#include <cstdint>
#include <exception>
#include <memory>
#include <sstream>
#include <string>

#if !defined(HAILORT_MAJOR_VERSION) || !defined(HAILORT_MINOR_VERSION) || !defined(HAILORT_REVISION_VERSION)
#error "HAILORT_MAJOR_VERSION/MINOR/REVISION are not defined: build with native/build.mjs (it reads the installed HailoRT's version) or link HailoRT::libhailort with CMake"
#endif

#define HTS_EXPORT extern "C" __attribute__((visibility("default")))
/** True when the HailoRT being compiled against is at least <major>.<minor>.<revision>. */
#define HTS_VERSION_AT_LEAST(major, minor, revision) \
    (HAILORT_MAJOR_VERSION > (major) || (HAILORT_MAJOR_VERSION == (major) && (HAILORT_MINOR_VERSION > (minor) || \
        (HAILORT_MINOR_VERSION == (minor) && HAILORT_REVISION_VERSION >= (revision)))))
/** True when the HailoRT being compiled against is at least 5.<minor>.<revision> (GenAI's versions). */
#define HTS_AT_LEAST(minor, revision) HTS_VERSION_AT_LEAST(5, minor, revision)

namespace hts {

/** Records the calling thread's last failure (status number, its HailoRT name, what failed). */
void set_error(int status, const std::string &message);
void clear_error();
int last_status();

void json_string(std::ostringstream &o, const std::string &s);
void json_number(std::ostringstream &o, double v);
/** Copies text into a caller buffer; answers the full length (call again with more room if larger). */
int64_t answer_text(const std::string &text, char *buf, size_t cap);

/** The VDevice of an open LLM/VLM session (hailo_genai.cpp), or null with the last error set. */
std::shared_ptr<hailort::VDevice> genai_vdevice(int32_t handle);

template <typename F>
auto guarded(const char *what, F &&body, decltype(body()) failure) -> decltype(body()) {
    try {
        return body();
    } catch (const std::exception &e) {
        set_error(HAILO_INTERNAL_FAILURE, std::string(what) + ": C++ exception: " + e.what());
    } catch (...) {
        set_error(HAILO_INTERNAL_FAILURE, std::string(what) + ": unknown C++ exception");
    }
    return failure;
}

}  // namespace hts

#endif
