// Shared between the fake libhailort's translation units (fake_hailort.cpp: device, HEF,
// InferModel; fake_genai.cpp: the GenAI classes). Test-only; not a HailoRT header.
#ifndef FAKE_HAILORT_INTERNAL_HPP
#define FAKE_HAILORT_INTERNAL_HPP

#include <hailo/hailort.hpp>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace hailort {
namespace fake {

std::string env(const char *name, const std::string &fallback = "");
long env_long(const char *name, long fallback);
bool fault(const char *which);
/** "[HailoRT] [level] msg" on stderr and into hailort.log, as HailoRT's logger. */
void log_line(const char *level, const std::string &message);
uint64_t fnv1a64(const uint8_t *p, size_t n, uint64_t h = 14695981039346656037ULL);
/** XXH3-64, seed 0, default secret (fake_xxh3.cpp: our own code, as HailoRT hashes V2/V3 HEFs). */
uint64_t xxh3_64(const uint8_t *data, size_t size);

struct StreamFacts {
    std::string name;
    hailo_3d_image_shape_t shape{};
    hailo_format_order_t order = HAILO_FORMAT_ORDER_NHWC;
    hailo_format_type_t type = HAILO_FORMAT_TYPE_UINT8;
    hailo_format_flags_t flags = HAILO_FORMAT_FLAGS_NONE;
    hailo_quant_info_t quant{};
    size_t nms_frame_size = 0;  // set for NMS orders (their size is not h*w*f)
    bool nms = false;
};

struct ResourceFacts {
    std::string name;
    uint64_t offset = 0;
    uint64_t size = 0;
    bool checksum_ok = true;
};

struct HefFacts {
    uint64_t size = 0;
    uint64_t hash = 0;
    bool intact = true;
    bool supported = true;
    std::vector<int> archs;
    /** The header's hw_arch value ("harch" line; -1 unknown): what 4.x's is_hef_compatible compares. */
    int hef_arch = -1;
    std::string network_group;
    std::vector<StreamFacts> inputs, outputs;
    std::vector<ResourceFacts> resources;
    /** Every network group's name, in HEF order ("group" lines; else the first group alone). */
    std::vector<std::string> groups;
    /** The first input of the group whose name ends in "encoder" ("frame" line): a VLM's frame. */
    bool has_frame = false;
    StreamFacts frame;
};

size_t type_bytes(hailo_format_type_t t);
/** 91/92/93 since 4.21, 26 before (one status for every refused HEF). */
hailo_status hef_status(int since_4_21);
hailo_device_architecture_t device_arch();
Expected<std::vector<uint8_t>> read_file(const std::string &path);
/** What Hef::create answers for these bytes (fake_hef_checks.cpp): HailoRT's checks, by version. */
struct HefCheck {
    hailo_status status = HAILO_UNINITIALIZED;
    /** libhailort would crash here (a missing element read unchecked); the fake does too. */
    bool crash = false;
    std::string message;
    std::vector<std::string> groups;
    /** hailo_device_architecture_t values the header's hw_arch runs on (DeviceBase::hef_arch_to_device_compatible_archs). */
    std::vector<int> archs;
};
HefCheck check_hef(const uint8_t *data, size_t size, bool from_file);
/** The checks HailoRT makes when it opens HEF bytes (file or buffer mode), then the facts of a known HEF. */
Expected<Hef> load_hef(const uint8_t *data, size_t size, bool from_file = false);
const HefFacts &facts_of(const Hef &hef);
/** One embedded resource by name (61 when absent, 91 on a checksum mismatch), in any 5.x. */
Expected<MemoryView> resource_of(const Hef &hef, const std::string &name);

/** What the simulated device is doing, for its temperature and memory figures (fake_hailort.cpp). */
struct SimulatedLoad {
    /** Tokens generated since the library was loaded (the chip warms with work). */
    std::atomic<long long> tokens{0};
    /** Kibibytes of device memory the open models take (their HEFs). */
    std::atomic<long long> model_kib{0};
    /** Tokens in every open model's context (the KV cache's share of memory). */
    std::atomic<long long> context_tokens{0};
    std::atomic<int> generating{0};
};
SimulatedLoad &simulated_load();

}  // namespace fake
}  // namespace hailort

#endif
