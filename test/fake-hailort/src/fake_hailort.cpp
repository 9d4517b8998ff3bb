// Fake libhailort for the tests: a simulated Hailo device behind HailoRT's C++ API as the version
// it is built as (HAILORT_*_VERSION: 4.18 … 5.2; the headers in ../include/hailo mirror each
// version's names and signatures, 5.2.0 by default). No hardware: outputs are
// derived deterministically from the inputs, shapes come from the HEF's real facts (written by
// test/fakes/fakeHailort.ts with the project's own HEF reader), completions run on the fake
// device's own thread, and faults are injected through the environment:
//
//   FAKE_HAILORT_FACTS        facts file (see test/fakes/fakeHailort.ts) — which HEFs exist and their streams
//   FAKE_HAILORT_DEVICES      number of devices scan() lists (default 1)
//   FAKE_HAILORT_ARCH         device architecture name (default HAILO10H on 5.x, HAILO8 on 4.x)
//   FAKE_HAILORT_FW           firmware version (default: the library's version)
//   FAKE_HAILORT_DRIVER_VERSION the loaded driver's version (default: the library's version)
//   FAKE_HAILORT_SERVICE      4.x hailort.service: stopped (default) | running | running:X.Y.Z (its libhailort)
//   FAKE_HAILORT_FPS          device frame rate (default 1000)
//   FAKE_HAILORT_LATENCY_US   host<->device round trip added to each frame (default 1500)
//   FAKE_HAILORT_QUEUE        async queue size (default 8)
//   FAKE_HAILORT_FAULT        no-device | busy | corrupted | not-compatible | not-supported |
//                             timeout | crash | segv | driver-missing | driver-ioctl |
//                             constant-output | nondeterministic
//   FAKE_HAILORT_FAULT_AFTER  frames before timeout/crash/segv strike (default 0)
//   FAKE_HAILORT_HOLDER_GROUP with busy: the group id of the process holding the device (default UNIQUE)
//   FAKE_HAILORT_BUSY_WAIT_MS with busy: how long VDevice creation waits before 74 (default 5000, as hailort_server)
//   HAILORT_LOGGER_PATH       as HailoRT: folder of hailort.log; unset = the current directory; NONE = no file
//
// Behaviour mirrored from HailoRT 5.2.0 (../shared/docs/hailort5-api.md §1, §4, §5) and, built as
// 4.x, from the v4.18.0 … v4.23.0 sources (cited where each rule is): the driver's version must equal
// the library's (76), an ioctl the driver does not know is 86 (36 before 4.20), no driver is 64 before
// 4.23, Hailo-8 devices are refused by 5.x and Hailo-1X devices by 4.22+ (79), sharing a Hailo-8
// between processes goes through hailort.service (77 when it is not running), the HEF's architecture
// is checked at configure with 4.x's is_hef_compatible (26 before 4.21, then 93). 5.2.0: empty scan +
// 74 without a device; 74 after a wait when busy (73 with explicit device ids); 91/92/93 for
// corrupted / unsupported / incompatible HEFs; 61 for an unknown resource; a wrong-sized buffer
// in run_async answers 6 and shuts the configured model down; wait_for_async_ready answers 4 when
// the queue stays full or frames_count exceeds the queue size; an undetached AsyncInferJob waits
// in its destructor.
#include <hailo/hailort.hpp>

#include "fake_internal.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

namespace hailort {

// ------------------------------------------------------------------ environment + log
namespace fake {

std::string env(const char *name, const std::string &fallback) {
    const char *v = std::getenv(name);
    return (v && *v) ? std::string(v) : fallback;
}

long env_long(const char *name, long fallback) {
    const std::string v = env(name);
    if (v.empty()) return fallback;
    char *end = nullptr;
    const long n = std::strtol(v.c_str(), &end, 10);
    return (end && *end == '\0') ? n : fallback;
}

bool fault(const char *which) { return env("FAKE_HAILORT_FAULT") == which; }

std::mutex g_log_mutex;

// "[HailoRT] [level] msg" on stderr, as HailoRT's release console pattern, and hailort.log where
// HAILORT_LOGGER_PATH says (the current directory when unset, nowhere for NONE).
void log_line(const char *level, const std::string &message) {
    std::lock_guard<std::mutex> lock(g_log_mutex);
    std::fprintf(stderr, "[HailoRT] [%s] %s\n", level, message.c_str());
    std::fflush(stderr);
    const char *path = std::getenv("HAILORT_LOGGER_PATH");
    std::string dir = (path == nullptr || *path == '\0') ? "." : path;
    if (dir == "NONE") return;
    std::ofstream f(dir + "/hailort.log", std::ios::app);
    if (f) f << "[HailoRT] [" << level << "] " << message << "\n";
}

const char *const STATUS_NAMES[] = {
    "HAILO_SUCCESS", "HAILO_UNINITIALIZED", "HAILO_INVALID_ARGUMENT", "HAILO_OUT_OF_HOST_MEMORY",
    "HAILO_TIMEOUT", "HAILO_INSUFFICIENT_BUFFER", "HAILO_INVALID_OPERATION", "HAILO_NOT_IMPLEMENTED",
    "HAILO_INTERNAL_FAILURE", "HAILO_DATA_ALIGNMENT_FAILURE", "HAILO_CHUNK_TOO_LARGE",
    "HAILO_INVALID_LOGGER_LEVEL", "HAILO_CLOSE_FAILURE", "HAILO_OPEN_FILE_FAILURE",
    "HAILO_FILE_OPERATION_FAILURE", "HAILO_UNSUPPORTED_CONTROL_PROTOCOL_VERSION",
    "HAILO_UNSUPPORTED_FW_VERSION", "HAILO_INVALID_CONTROL_RESPONSE", "HAILO_FW_CONTROL_FAILURE",
    "HAILO_ETH_FAILURE", "HAILO_ETH_INTERFACE_NOT_FOUND", "HAILO_ETH_RECV_FAILURE", "HAILO_ETH_SEND_FAILURE",
    "HAILO_INVALID_FIRMWARE", "HAILO_INVALID_CONTEXT_COUNT", "HAILO_INVALID_FRAME", "HAILO_INVALID_HEF",
    "HAILO_PCIE_NOT_SUPPORTED_ON_PLATFORM", "HAILO_INTERRUPTED_BY_SIGNAL", "HAILO_START_VDMA_CHANNEL_FAIL",
    "HAILO_SYNC_VDMA_BUFFER_FAIL", "HAILO_STOP_VDMA_CHANNEL_FAIL", "HAILO_CLOSE_VDMA_CHANNEL_FAIL",
    "HAILO_ATR_TABLES_CONF_VALIDATION_FAIL", "HAILO_EVENT_CREATE_FAIL", "HAILO_READ_EVENT_FAIL",
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 20, 0)
    "HAILO_DRIVER_OPERATION_FAILED",
#else
    "HAILO_DRIVER_FAIL",
#endif
    "HAILO_INVALID_FIRMWARE_MAGIC", "HAILO_INVALID_FIRMWARE_CODE_SIZE",
    "HAILO_INVALID_KEY_CERTIFICATE_SIZE", "HAILO_INVALID_CONTENT_CERTIFICATE_SIZE",
    "HAILO_MISMATCHING_FIRMWARE_BUFFER_SIZES", "HAILO_INVALID_FIRMWARE_CPU_ID",
    "HAILO_CONTROL_RESPONSE_MD5_MISMATCH", "HAILO_GET_CONTROL_RESPONSE_FAIL",
    "HAILO_GET_D2H_EVENT_MESSAGE_FAIL", "HAILO_MUTEX_INIT_FAIL", "HAILO_OUT_OF_DESCRIPTORS",
    "HAILO_UNSUPPORTED_OPCODE", "HAILO_USER_MODE_RATE_LIMITER_NOT_SUPPORTED",
    "HAILO_RATE_LIMIT_MAXIMUM_BANDWIDTH_EXCEEDED", "HAILO_ANSI_TO_UTF16_CONVERSION_FAILED",
    "HAILO_UTF16_TO_ANSI_CONVERSION_FAILED", "HAILO_UNEXPECTED_INTERFACE_INFO_FAILURE",
    "HAILO_UNEXPECTED_ARP_TABLE_FAILURE", "HAILO_MAC_ADDRESS_NOT_FOUND", "HAILO_NO_IPV4_INTERFACES_FOUND",
    "HAILO_SHUTDOWN_EVENT_SIGNALED", "HAILO_THREAD_ALREADY_ACTIVATED", "HAILO_THREAD_NOT_ACTIVATED",
    "HAILO_THREAD_NOT_JOINABLE", "HAILO_NOT_FOUND", "HAILO_COMMUNICATION_CLOSED", "HAILO_STREAM_ABORT",
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 20, 0)
    "HAILO_DRIVER_NOT_INSTALLED",
#else
    "HAILO_PCIE_DRIVER_NOT_INSTALLED",
#endif
    "HAILO_NOT_AVAILABLE", "HAILO_TRAFFIC_CONTROL_FAILURE",
    "HAILO_INVALID_SECOND_STAGE", "HAILO_INVALID_PIPELINE", "HAILO_NETWORK_GROUP_NOT_ACTIVATED",
    "HAILO_VSTREAM_PIPELINE_NOT_ACTIVATED", "HAILO_OUT_OF_FW_MEMORY", "HAILO_STREAM_NOT_ACTIVATED",
    "HAILO_DEVICE_IN_USE", "HAILO_OUT_OF_PHYSICAL_DEVICES", "HAILO_INVALID_DEVICE_ARCHITECTURE",
    "HAILO_INVALID_DRIVER_VERSION", "HAILO_RPC_FAILED", "HAILO_INVALID_SERVICE_VERSION",
    "HAILO_NOT_SUPPORTED", "HAILO_NMS_BURST_INVALID_DATA", "HAILO_OUT_OF_HOST_CMA_MEMORY",
    "HAILO_QUEUE_IS_FULL", "HAILO_DMA_MAPPING_ALREADY_EXISTS", "HAILO_CANT_MEET_BUFFER_REQUIREMENTS",
    "HAILO_DRIVER_INVALID_RESPONSE", "HAILO_DRIVER_INVALID_IOCTL", "HAILO_DRIVER_TIMEOUT",
    "HAILO_DRIVER_INTERRUPTED", "HAILO_CONNECTION_REFUSED", "HAILO_DRIVER_WAIT_CANCELED",
    "HAILO_HEF_FILE_CORRUPTED", "HAILO_HEF_NOT_SUPPORTED", "HAILO_HEF_NOT_COMPATIBLE_WITH_DEVICE",
    "HAILO_INVALID_HEF_USE", "HAILO_OPERATION_ABORTED", "HAILO_DEVICE_NOT_CONNECTED",
    "HAILO_DEVICE_TEMPORARILY_UNAVAILABLE",
};

uint64_t fnv1a64(const uint8_t *p, size_t n, uint64_t h) {
    for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 1099511628211ULL; }
    return h;
}

const char *const ARCH_NAMES[] = {"HAILO8_A0", "HAILO8", "HAILO8L", "HAILO15H", "HAILO15L", "HAILO15M", "HAILO10H", "HAILO12L"};

int arch_from_name(const std::string &name) {
    for (int i = 0; i < 8; i++) if (name == ARCH_NAMES[i]) return i;
    return -1;
}

hailo_device_architecture_t device_arch() {
    const char *fallback = HAILORT_MAJOR_VERSION >= 5 ? "HAILO10H" : "HAILO8";
    const int a = arch_from_name(env("FAKE_HAILORT_ARCH", fallback));
    return static_cast<hailo_device_architecture_t>(a < 0 ? arch_from_name(fallback) : a);
}

std::string library_version() {
    return std::to_string(HAILORT_MAJOR_VERSION) + "." + std::to_string(HAILORT_MINOR_VERSION) + "." + std::to_string(HAILORT_REVISION_VERSION);
}

bool is_hailo8_family(int arch) { return arch == HAILO_ARCH_HAILO8_A0 || arch == HAILO_ARCH_HAILO8 || arch == HAILO_ARCH_HAILO8L; }

// ------------------------------------------------------------------ HEF facts
std::vector<std::string> split_tabs(const std::string &line) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : line) {
        if (c == '\t') { out.push_back(cur); cur.clear(); } else cur += c;
    }
    out.push_back(cur);
    return out;
}

// One HEF block: "hef size hash intact supported archs network_group", then "in"/"out"/"resource" lines.
bool load_facts(uint64_t size, uint64_t hash, HefFacts &found) {
    const std::string path = env("FAKE_HAILORT_FACTS");
    if (path.empty()) return false;
    std::ifstream f(path);
    std::string line;
    HefFacts cur;
    bool in_block = false, match = false;
    while (std::getline(f, line)) {
        const auto t = split_tabs(line);
        if (t[0] == "hef" && t.size() >= 7) {
            if (in_block && match) {
                found = cur;
                if (found.groups.empty()) found.groups.push_back(found.network_group);
                return true;
            }
            cur = HefFacts();
            cur.size = std::strtoull(t[1].c_str(), nullptr, 10);
            cur.hash = std::strtoull(t[2].c_str(), nullptr, 16);
            cur.intact = t[3] == "1";
            cur.supported = t[4] == "1";
            std::stringstream archs(t[5]);
            std::string a;
            while (std::getline(archs, a, ',')) { const int id = arch_from_name(a); if (id >= 0) cur.archs.push_back(id); }
            cur.network_group = t[6];
            in_block = true;
            match = cur.size == size && cur.hash == hash;
        } else if (in_block && (t[0] == "in" || t[0] == "out") && t.size() >= 14) {
            StreamFacts s;
            s.name = t[1];
            s.shape = {static_cast<uint32_t>(std::stoul(t[2])), static_cast<uint32_t>(std::stoul(t[3])), static_cast<uint32_t>(std::stoul(t[4]))};
            s.order = static_cast<hailo_format_order_t>(std::stoi(t[5]));
            s.type = static_cast<hailo_format_type_t>(std::stoi(t[6]));
            s.flags = static_cast<hailo_format_flags_t>(std::stoi(t[7]));
            s.quant = {std::stof(t[8]), std::stof(t[9]), std::stof(t[10]), std::stof(t[11])};
            s.nms = t[12] == "1";
            s.nms_frame_size = std::stoul(t[13]);
            (t[0] == "in" ? cur.inputs : cur.outputs).push_back(s);
        } else if (in_block && t[0] == "harch" && t.size() >= 2) {
            cur.hef_arch = std::stoi(t[1]);
        } else if (in_block && t[0] == "group" && t.size() >= 2) {
            cur.groups.push_back(t[1]);
        } else if (in_block && t[0] == "frame" && t.size() >= 7) {
            // A VLM's frame: the first input of the encoder group (name h w f order type).
            cur.has_frame = true;
            cur.frame.name = t[1];
            cur.frame.shape = {static_cast<uint32_t>(std::stoul(t[2])), static_cast<uint32_t>(std::stoul(t[3])), static_cast<uint32_t>(std::stoul(t[4]))};
            cur.frame.order = static_cast<hailo_format_order_t>(std::stoi(t[5]));
            cur.frame.type = static_cast<hailo_format_type_t>(std::stoi(t[6]));
        } else if (in_block && t[0] == "resource" && t.size() >= 5) {
            cur.resources.push_back({t[1], std::stoull(t[2]), std::stoull(t[3]), t[4] == "1"});
        }
    }
    if (in_block && match) {
        found = cur;
        if (found.groups.empty()) found.groups.push_back(found.network_group);
        return true;
    }
    return false;
}

size_t type_bytes(hailo_format_type_t t) {
    switch (t) {
    case HAILO_FORMAT_TYPE_UINT16: return 2;
    case HAILO_FORMAT_TYPE_FLOAT32: return 4;
    default: return 1;
    }
}

}  // namespace fake
using namespace fake;

// The private pimpl classes of the public headers, defined here; FakeAccess (a friend) names them.
class Hef::Impl {
public:
    HefFacts facts;
    std::shared_ptr<std::vector<uint8_t>> bytes;
};

class InferModel::InferStream::Impl {
public:
    StreamFacts facts;
    hailo_format_type_t type;  // host format type after set_format_type
    hailo_format_order_t order;
    size_t frame_size() const {
        if (facts.nms) return facts.nms_frame_size;
        return static_cast<size_t>(facts.shape.height) * facts.shape.width * facts.shape.features * type_bytes(type);
    }
};

class ConfiguredInferModel::Bindings::InferStream::Impl {
public:
    MemoryView buffer;
    bool set = false;
};

class FakeAccess {
public:
    using HefImpl = Hef::Impl;
    using StreamImpl = InferModel::InferStream::Impl;
    using BindingImpl = ConfiguredInferModel::Bindings::InferStream::Impl;
    static Hef make_hef(std::shared_ptr<Hef::Impl> impl) { return Hef(impl); }
    static const HefFacts &facts(const Hef &hef) { return hef.pimpl->facts; }
    static const HefImpl &impl(const Hef &hef) { return *hef.pimpl; }
    static InferModel::InferStream make_stream(std::shared_ptr<FakeAccess::StreamImpl> impl) { return InferModel::InferStream(impl); }
    static std::shared_ptr<FakeAccess::StreamImpl> impl(const InferModel::InferStream &s) { return s.m_pimpl; }
    static ConfiguredInferModel make_configured(std::shared_ptr<ConfiguredInferModelBase> impl) { return ConfiguredInferModel(impl); }
    static ConfiguredInferModel::Bindings make_bindings(std::unordered_map<std::string, ConfiguredInferModel::Bindings::InferStream> &&in,
        std::unordered_map<std::string, ConfiguredInferModel::Bindings::InferStream> &&out) {
        return ConfiguredInferModel::Bindings(std::move(in), std::move(out));
    }
    static ConfiguredInferModel::Bindings::InferStream make_binding(std::shared_ptr<ConfiguredInferModel::Bindings::InferStream::Impl> impl) {
        return ConfiguredInferModel::Bindings::InferStream(impl);
    }
    static const std::unordered_map<std::string, ConfiguredInferModel::Bindings::InferStream> &inputs(const ConfiguredInferModel::Bindings &b) { return b.m_inputs; }
    static const std::unordered_map<std::string, ConfiguredInferModel::Bindings::InferStream> &outputs(const ConfiguredInferModel::Bindings &b) { return b.m_outputs; }
    static std::shared_ptr<ConfiguredInferModel::Bindings::InferStream::Impl> impl(const ConfiguredInferModel::Bindings::InferStream &s) { return s.m_pimpl; }
    static AsyncInferJob make_job(std::shared_ptr<AsyncInferJobBase> impl) { return AsyncInferJob(impl); }
};

// ------------------------------------------------------------------ C API
extern "C" {

HAILORTAPI hailo_status hailo_get_library_version(hailo_version_t *version) {
    if (!version) return HAILO_INVALID_ARGUMENT;
    version->major = HAILORT_MAJOR_VERSION;
    version->minor = HAILORT_MINOR_VERSION;
    version->revision = HAILORT_REVISION_VERSION;
    return HAILO_SUCCESS;
}

HAILORTAPI const char *hailo_get_status_message(hailo_status status) {
    const int s = static_cast<int>(status);
    if (s < 0 || s >= static_cast<int>(HAILO_STATUS_COUNT)) return nullptr;
    return STATUS_NAMES[s];
}

HAILORTAPI hailo_status hailo_init_vdevice_params(hailo_vdevice_params_t *params) {
    if (!params) return HAILO_INVALID_ARGUMENT;
    params->device_count = 1;
    params->device_ids = nullptr;
    params->scheduling_algorithm = HAILO_SCHEDULING_ALGORITHM_ROUND_ROBIN;
    params->group_id = HAILO_UNIQUE_VDEVICE_GROUP_ID;
    params->multi_process_service = false;
    return HAILO_SUCCESS;
}

/** Not in HailoRT: lets a test tell the fake from a real library. */
HAILORTAPI const char *fake_hailort_marker(void) { return "fake libhailort (hailo-tools tests)"; }

}  // extern "C"

// ------------------------------------------------------------------ Buffer, MemoryView
Buffer::Buffer() : m_data(nullptr), m_size(0) {}
Buffer::~Buffer() { std::free(m_data); }
Buffer::Buffer(Buffer &&o) : m_data(o.m_data), m_size(o.m_size) { o.m_data = nullptr; o.m_size = 0; }
Buffer &Buffer::operator=(Buffer &&o) {
    if (this != &o) { std::free(m_data); m_data = o.m_data; m_size = o.m_size; o.m_data = nullptr; o.m_size = 0; }
    return *this;
}
Expected<Buffer> Buffer::create(size_t size) {
    Buffer b;
    b.m_data = static_cast<uint8_t *>(std::calloc(size ? size : 1, 1));
    if (!b.m_data) return make_unexpected(HAILO_OUT_OF_HOST_MEMORY);
    b.m_size = size;
    return Expected<Buffer>(std::move(b));
}
Expected<BufferPtr> Buffer::create_shared(size_t size) {
    auto b = create(size);
    if (!b) return make_unexpected(b.status());
    return Expected<BufferPtr>(std::make_shared<Buffer>(b.release()));
}
uint8_t *Buffer::data() noexcept { return m_data; }
const uint8_t *Buffer::data() const noexcept { return m_data; }
size_t Buffer::size() const noexcept { return m_size; }
MemoryView Buffer::as_view() { return MemoryView(m_data, m_size); }

MemoryView::MemoryView() noexcept : m_data(nullptr), m_size(0) {}
MemoryView::MemoryView(Buffer &buffer) noexcept : m_data(buffer.data()), m_size(buffer.size()) {}
MemoryView::MemoryView(BufferPtr buffer) noexcept : m_data(buffer ? buffer->data() : nullptr), m_size(buffer ? buffer->size() : 0) {}
MemoryView::MemoryView(void *data, size_t size) noexcept : m_data(data), m_size(size) {}
MemoryView::MemoryView(const std::string &data) noexcept : m_data(const_cast<char *>(data.data())), m_size(data.size()) {}
const MemoryView MemoryView::create_const(const void *data, size_t size) noexcept { return MemoryView(const_cast<void *>(data), size); }
uint8_t *MemoryView::data() noexcept { return static_cast<uint8_t *>(m_data); }
const uint8_t *MemoryView::data() const noexcept { return static_cast<const uint8_t *>(m_data); }
size_t MemoryView::size() const noexcept { return m_size; }
bool MemoryView::empty() const noexcept { return m_size == 0; }

// ------------------------------------------------------------------ Hef


namespace fake {
// HailoRT's own checks on the bytes first (fake_hef_checks.cpp: its statuses, by version), then the
// facts the simulated device knows about the HEF (its streams), when the test wrote them.
Expected<Hef> load_hef(const uint8_t *data, size_t size, bool from_file) {
    const HefCheck check = check_hef(data, size, from_file);
    if (check.crash) {
        // libhailort reads a missing element here and dies; the stand-in must not be kinder.
        log_line("critical", "fake libhailort: " + check.message + " - crashing as libhailort does");
        std::raise(SIGSEGV);
    }
    if (check.status != HAILO_SUCCESS) {
        log_line("error", check.message);
        log_line("error", "Failed parsing HEF file");
        return make_unexpected(check.status);
    }
    if (fault("corrupted")) {
        log_line("error", "HEF proto xxhash does not match");
        return make_unexpected(hef_status(91));
    }
    if (fault("not-supported")) {
        log_line("error", "Failed opening non-compatible HEF with the following unsupported extensions: (fault)");
        return make_unexpected(hef_status(92));
    }
    auto impl = std::make_shared<FakeAccess::HefImpl>();
    if (!load_facts(size, fnv1a64(data, size), impl->facts)) {
        // A HEF HailoRT accepts but the test wrote no facts for: its groups and archs, no streams.
        impl->facts = HefFacts();
        impl->facts.size = size;
        impl->facts.groups = check.groups;
        impl->facts.network_group = check.groups.empty() ? "" : check.groups.front();
        impl->facts.archs = check.archs;
    }
    impl->bytes = std::make_shared<std::vector<uint8_t>>(data, data + size);
    return Expected<Hef>(FakeAccess::make_hef(impl));
}

Expected<std::vector<uint8_t>> read_file(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        log_line("error", "Failed to open file " + path);
        return make_unexpected(HAILO_OPEN_FILE_FAILURE);
    }
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    return Expected<std::vector<uint8_t>>(std::move(bytes));
}
}  // namespace fake

Hef::Hef(std::shared_ptr<Impl> p) : pimpl(std::move(p)) {}
Hef::~Hef() = default;
Hef::Hef(Hef &&) = default;
Hef &Hef::operator=(Hef &&) = default;

Expected<Hef> Hef::create(const std::string &hef_path) {
    auto bytes = read_file(hef_path);
    if (!bytes) return make_unexpected(bytes.status());
    return load_hef(bytes->data(), bytes->size(), true);
}

Expected<Hef> Hef::create(const MemoryView &hef_buffer) { return load_hef(hef_buffer.data(), hef_buffer.size(), false); }

#if !FAKE_HAILORT_VERSION_AT_LEAST(5, 1, 0)
Expected<hailo_device_architecture_t> Hef::get_hef_device_arch() const {
    if (pimpl->facts.archs.empty()) return make_unexpected(HAILO_INVALID_HEF);
    // 4.x and 5.0 name the architecture the HEF was compiled for: the first of the compatible list.
    return Expected<hailo_device_architecture_t>(static_cast<hailo_device_architecture_t>(pimpl->facts.archs[0]));
}
#else
Expected<std::vector<hailo_device_architecture_t>> Hef::get_compatible_device_archs() const {
    std::vector<hailo_device_architecture_t> out;
    for (int a : pimpl->facts.archs) out.push_back(static_cast<hailo_device_architecture_t>(a));
    return Expected<std::vector<hailo_device_architecture_t>>(std::move(out));
}
#endif

Expected<std::string> Hef::device_arch_to_string(const hailo_device_architecture_t arch) {
    const int a = static_cast<int>(arch);
    if (a < 0 || a > 7) return make_unexpected(HAILO_INVALID_ARGUMENT);
    return Expected<std::string>(std::string(ARCH_NAMES[a]));
}

std::vector<std::string> Hef::get_network_groups_names() const { return pimpl->facts.groups; }

std::string Hef::hash() const {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(pimpl->facts.hash));
    return buf;
}

#if FAKE_HAILORT_VERSION_AT_LEAST(5, 0, 0)
Expected<std::string> Hef::hash(const std::string &hef_path) {
    auto hef = Hef::create(hef_path);
    if (!hef) return make_unexpected(hef.status());
    return Expected<std::string>(hef->hash());
}
#endif

namespace {
Expected<MemoryView> resource_view(const FakeAccess::HefImpl &impl, const ResourceFacts &r) {
    if (!r.checksum_ok || r.offset + r.size > impl.bytes->size()) {
        log_line("error", "External resource " + r.name + " checksum mismatch");
        return make_unexpected(hef_status(91));
    }
    return Expected<MemoryView>(MemoryView(impl.bytes->data() + r.offset, r.size));
}
}  // namespace

namespace fake {
const HefFacts &facts_of(const Hef &hef) { return FakeAccess::facts(hef); }

Expected<MemoryView> resource_of(const Hef &hef, const std::string &name) {
    const auto &impl = FakeAccess::impl(hef);
    for (const auto &r : impl.facts.resources) {
        if (r.name == name) return resource_view(impl, r);
    }
    log_line("error", "External resource " + name + " not found");
    return make_unexpected(HAILO_NOT_FOUND);
}
}  // namespace fake

#if !FAKE_HAILORT_VERSION_AT_LEAST(4, 21, 0)
// no external resources before 4.21
#elif HAILORT_MAJOR_VERSION == 4
Expected<std::map<std::string, std::string>> Hef::get_external_resources() const {
    std::map<std::string, std::string> all;
    for (const auto &r : pimpl->facts.resources) {
        auto v = resource_view(*pimpl, r);
        if (!v) return make_unexpected(v.status());
        all.emplace(r.name, std::string(reinterpret_cast<const char *>(v->data()), v->size()));
    }
    return Expected<std::map<std::string, std::string>>(std::move(all));
}
#elif HAILORT_MAJOR_VERSION == 5 && HAILORT_MINOR_VERSION == 0
Expected<std::map<std::string, MemoryView>> Hef::get_external_resources() const {
    std::map<std::string, MemoryView> all;
    for (const auto &r : pimpl->facts.resources) {
        auto v = resource_view(*pimpl, r);
        if (!v) return make_unexpected(v.status());
        all.emplace(r.name, v.value());
    }
    return Expected<std::map<std::string, MemoryView>>(std::move(all));
}
#else
Expected<MemoryView> Hef::get_external_resources(const std::string &resource_name) const {
    for (const auto &r : pimpl->facts.resources) {
        if (r.name == resource_name) return resource_view(*pimpl, r);
    }
    log_line("error", "External resource " + resource_name + " not found");
    return make_unexpected(HAILO_NOT_FOUND);
}

std::vector<std::string> Hef::get_external_resource_names() const {
    std::vector<std::string> names;
    for (const auto &r : pimpl->facts.resources) names.push_back(r.name);
    return names;
}
#endif

// ------------------------------------------------------------------ Device
Device::Device(Type type) : m_type(type), m_device_architecture(device_arch()) {}

namespace fake {
SimulatedLoad &simulated_load() {
    static SimulatedLoad load;
    return load;
}

}  // namespace fake

// ------------------------------------------------------------------ device state
// The chip warms from 42 °C by FAKE_HAILORT_TEMP_PER_TOKEN (default 0.02 °C) per generated token, up
// to 95 °C; memory: FAKE_HAILORT_RAM_TOTAL_KIB (default 8 GiB, the Hailo-10H's LPDDR4X) with 1.5 GiB
// taken by the system, the open models' HEFs and FAKE_HAILORT_KIB_PER_TOKEN (default 128) per token
// in their contexts. As device.cpp (5.2.0): health and performance stats only on Hailo-10/15 (75
// elsewhere), the health's on-die temperature the hotter sensor.
Expected<hailo_chip_temperature_info_t> Device::get_chip_temperature() {
    const auto &load = fake::simulated_load();
    const double per_token = static_cast<double>(fake::env_long("FAKE_HAILORT_TEMP_PER_TOKEN_MILLI", 20)) / 1000.0;
    hailo_chip_temperature_info_t t{};
    t.ts0_temperature = static_cast<float32_t>(std::min(95.0, 42.0 + per_token * static_cast<double>(load.tokens.load())));
    t.ts1_temperature = t.ts0_temperature - 0.5f;
    t.sample_count = 1;
    return t;
}

static bool has_stats(hailo_device_architecture_t arch) {
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 20, 0)
    if (arch == HAILO_ARCH_HAILO15L) return true;
#endif
    return arch == HAILO_ARCH_HAILO10H || arch == HAILO_ARCH_HAILO15H || arch == HAILO_ARCH_HAILO15M;
}

Expected<hailo_health_stats_t> Device::query_health_stats() {
    if (!has_stats(fake::device_arch())) {
        fake::log_line("error", "Query health stats is not supported for device arch");
        return make_unexpected(HAILO_INVALID_DEVICE_ARCHITECTURE);
    }
    auto t = get_chip_temperature();
    if (!t) return make_unexpected(t.status());
    hailo_health_stats_t h{};
    h.on_die_temperature = std::max(t->ts0_temperature, t->ts1_temperature);
    h.on_die_voltage = 780;
    h.bist_failure_mask = 0;
    return h;
}

Expected<hailo_performance_stats_t> Device::query_performance_stats() {
    if (!has_stats(fake::device_arch())) {
        fake::log_line("error", "Query performance stats is not supported for device arch");
        return make_unexpected(HAILO_INVALID_DEVICE_ARCHITECTURE);
    }
    const auto &load = fake::simulated_load();
    hailo_performance_stats_t p{};
    p.ram_size_total = fake::env_long("FAKE_HAILORT_RAM_TOTAL_KIB", 8L << 20);
    p.ram_size_used = std::min<int64_t>(p.ram_size_total, (3L << 19) + load.model_kib.load() + load.context_tokens.load() * fake::env_long("FAKE_HAILORT_KIB_PER_TOKEN", 128));
    p.cpu_utilization = 25.0f;
    p.nnc_utilization = load.generating.load() > 0 ? 80.0f : 0.0f;
    p.ddr_noc_total_transactions = -1;
    p.dsp_utilization = 0;
    return p;
}

namespace {
// The ids the driver's sysfs class lists (no ioctl: scan works even when the driver's version differs).
std::vector<std::string> device_ids() {
    std::vector<std::string> ids;
    if (fault("no-device") || fault("driver-missing")) return ids;
    const long n = std::max(0L, env_long("FAKE_HAILORT_DEVICES", 1));
    for (long i = 0; i < n; i++) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "0000:%02lx:00.0", 0x3c + i);
        ids.push_back(buf);
    }
    return ids;
}

class FakeDevice final : public Device {
public:
    explicit FakeDevice(std::string id) : Device(Type::PCIE), m_id(std::move(id)) {}
    Expected<hailo_device_architecture_t> get_architecture() const override { return Expected<hailo_device_architecture_t>(m_device_architecture); }
    const char *get_dev_id() const override { return m_id.c_str(); }

private:
    std::string m_id;
};

// No hailo_chardev class (no driver): 4.18-4.22 fail the scan with 64, 4.23+ answer an empty list
// (vdma/driver/os/posix/linux/driver_os_specific.cpp, list_devices, per tag).
hailo_status driver_class_status() {
    if (!fault("driver-missing") || FAKE_HAILORT_VERSION_AT_LEAST(4, 23, 0)) return HAILO_SUCCESS;
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 20, 0)
    log_line("error", "Can't find hailort driver class. Can happen if the driver is not installed, if the kernel was updated or on some driver failure (then read driver dmesg log)");
#else
    log_line("error", "Can't find hailo pcie class, this may happen if the driver is not installed (this may happen if the kernel was updated), or if there is no connected Hailo board");
#endif
    return static_cast<hailo_status>(64);
}

bool is_hailo1x(int arch) { return !is_hailo8_family(arch); }

// What opening one device costs before anything else (PcieDevice::create + HailoRTDriver's
// constructor, per tag): 4.22+ refuses a Hailo-1X device before the driver is touched; the first
// ioctl asks the driver's version (an ioctl it does not know: ENOTTY → 86, 36 before 4.20), which
// must equal the library's (76); 5.x then refuses a Hailo-8 (79); a firmware whose major.minor is
// not the library's only warns here (Device::update_fw_state) and fails the first non-critical
// control later (configure, 16).
hailo_status open_device(const std::string &id) {
    const int arch = device_arch();
    (void)arch;  // used where the version checks the architecture
#if HAILORT_MAJOR_VERSION == 4 && FAKE_HAILORT_VERSION_AT_LEAST(4, 22, 0)
    if (is_hailo1x(arch)) {
        log_line("error", "Hailo1X Devices are only supported in versions 5.0.0 and above. ");
        return HAILO_NOT_SUPPORTED;
    }
#endif
    if (fault("driver-ioctl")) {
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 20, 0)
        log_line("error", "Ioctl HAILO_QUERY_DRIVER_INFO failed due to inappropriate ioctl for device (can happen due to version mismatch or unsupported feature)");
        log_line("error", "Failed to query driver info with 86");
        return static_cast<hailo_status>(86);
#else
        log_line("error", "Failed to query driver info, errno 25");
        return static_cast<hailo_status>(36);
#endif
    }
    const std::string driver = env("FAKE_HAILORT_DRIVER_VERSION", library_version());
    if (driver != library_version()) {
        log_line("error", "Driver version (" + driver + ") is different from library version (" + library_version() + ")");
        log_line("error", "Driver version mismatch, status 76");
        return HAILO_INVALID_DRIVER_VERSION;
    }
#if HAILORT_MAJOR_VERSION >= 5
    if (is_hailo8_family(arch)) {
        log_line("error", "Hailo8 devices are only supported in versions 4.x.x and earlier");
        return HAILO_NOT_SUPPORTED;
    }
#endif
    unsigned fw[3] = {0, 0, 0};
    std::sscanf(env("FAKE_HAILORT_FW", library_version()).c_str(), "%u.%u.%u", &fw[0], &fw[1], &fw[2]);
    if (fw[0] != HAILORT_MAJOR_VERSION || fw[1] != HAILORT_MINOR_VERSION) {
        log_line("warning", "Unsupported firmware operation. Host: " + library_version() + ", Device: " + std::to_string(fw[0]) + "." +
            std::to_string(fw[1]) + "." + std::to_string(fw[2]) + " (" + id + ")");
    }
    return HAILO_SUCCESS;
}

// Firmware major.minor equal to the library's (device.cpp, update_fw_state), else controls other
// than the critical ones answer 16.
bool firmware_supported() {
    unsigned fw[3] = {0, 0, 0};
    std::sscanf(env("FAKE_HAILORT_FW", library_version()).c_str(), "%u.%u.%u", &fw[0], &fw[1], &fw[2]);
    return fw[0] == HAILORT_MAJOR_VERSION && fw[1] == HAILORT_MINOR_VERSION;
}

void put(char *dst, size_t cap, uint8_t *len, const std::string &s) {
    const size_t n = std::min(cap, s.size());
    std::memcpy(dst, s.data(), n);
    *len = static_cast<uint8_t>(n);
}
}  // namespace

Expected<std::vector<std::string>> Device::scan() {
    // No driver: 4.23+ answers an empty list and SUCCESS, older versions 64 (driver_class_status).
    const auto status = driver_class_status();
    if (status != HAILO_SUCCESS) return make_unexpected(status);
    return Expected<std::vector<std::string>>(device_ids());
}

Expected<std::unique_ptr<Device>> Device::create() {
    const auto status = driver_class_status();
    if (status != HAILO_SUCCESS) return make_unexpected(status);
    auto ids = device_ids();
    if (ids.empty()) return make_unexpected(HAILO_OUT_OF_PHYSICAL_DEVICES);
    return create(ids[0]);
}

Expected<std::unique_ptr<Device>> Device::create(const std::string &device_id) {
    const auto listed = driver_class_status();
    if (listed != HAILO_SUCCESS) return make_unexpected(listed);
    for (const auto &id : device_ids()) {
        if (id != device_id) continue;
        const auto status = open_device(id);
        if (status != HAILO_SUCCESS) return make_unexpected(status);
        return Expected<std::unique_ptr<Device>>(std::unique_ptr<Device>(new FakeDevice(id)));
    }
    log_line("error", "Device " + device_id + " not found");
    return make_unexpected(HAILO_NOT_FOUND);
}

Expected<hailo_device_identity_t> Device::identify() {
    hailo_device_identity_t id{};
    id.protocol_version = 2;
    unsigned fw[3] = {0, 0, 0};
    std::sscanf(env("FAKE_HAILORT_FW", library_version()).c_str(), "%u.%u.%u", &fw[0], &fw[1], &fw[2]);
    id.fw_version = {fw[0], fw[1], fw[2]};
    id.is_release = true;
    id.device_architecture = m_device_architecture;
    const std::string family = is_hailo8_family(m_device_architecture) ? (m_device_architecture == HAILO_ARCH_HAILO8L ? "Hailo-8L" : "Hailo-8") : "Hailo-10H";
    put(id.board_name, HAILO_MAX_BOARD_NAME_LENGTH, &id.board_name_length, family);
    put(id.serial_number, HAILO_MAX_SERIAL_NUMBER_LENGTH, &id.serial_number_length, "FAKE0000000001");
    put(id.part_number, HAILO_MAX_PART_NUMBER_LENGTH, &id.part_number_length, "HM2ZK0000000");
    put(id.product_name, HAILO_MAX_PRODUCT_NAME_LENGTH, &id.product_name_length, family + " M.2 (fake, test stand-in)");
    return Expected<hailo_device_identity_t>(std::move(id));
}

// ------------------------------------------------------------------ InferModel streams

InferModel::InferStream::InferStream(std::shared_ptr<Impl> pimpl) : m_pimpl(std::move(pimpl)) {}
const std::string InferModel::InferStream::name() const { return m_pimpl->facts.name; }
hailo_3d_image_shape_t InferModel::InferStream::shape() const { return m_pimpl->facts.shape; }
hailo_format_t InferModel::InferStream::format() const { return {m_pimpl->type, m_pimpl->order, m_pimpl->facts.flags}; }
size_t InferModel::InferStream::get_frame_size() const { return m_pimpl->frame_size(); }
Expected<hailo_nms_shape_t> InferModel::InferStream::get_nms_shape() const {
    if (!m_pimpl->facts.nms) return make_unexpected(HAILO_INVALID_OPERATION);
    hailo_nms_shape_t shape{};
    shape.number_of_classes = m_pimpl->facts.shape.height;
    shape.max_bboxes_per_class = m_pimpl->facts.shape.features;
    return Expected<hailo_nms_shape_t>(shape);
}
void InferModel::InferStream::set_format_type(hailo_format_type_t type) {
    m_pimpl->type = (type == HAILO_FORMAT_TYPE_AUTO) ? m_pimpl->facts.type : type;
}
void InferModel::InferStream::set_format_order(hailo_format_order_t order) { m_pimpl->order = order; }
std::vector<hailo_quant_info_t> InferModel::InferStream::get_quant_infos() const { return {m_pimpl->facts.quant}; }
bool InferModel::InferStream::is_nms() const { return m_pimpl->facts.nms; }

// ------------------------------------------------------------------ Bindings

ConfiguredInferModel::Bindings::InferStream::InferStream(std::shared_ptr<Impl> pimpl) : m_pimpl(std::move(pimpl)) {}
hailo_status ConfiguredInferModel::Bindings::InferStream::set_buffer(MemoryView view) {
    m_pimpl->buffer = view;
    m_pimpl->set = true;
    return HAILO_SUCCESS;
}
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 19, 0)
Expected<MemoryView> ConfiguredInferModel::Bindings::InferStream::get_buffer() const {
#else
Expected<MemoryView> ConfiguredInferModel::Bindings::InferStream::get_buffer() {
#endif
    if (!m_pimpl->set) return make_unexpected(HAILO_NOT_FOUND);
    return Expected<MemoryView>(MemoryView(m_pimpl->buffer));
}

ConfiguredInferModel::Bindings::Bindings(std::unordered_map<std::string, InferStream> &&inputs, std::unordered_map<std::string, InferStream> &&outputs)
    : m_inputs(std::move(inputs)), m_outputs(std::move(outputs)) {}
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 19, 0)
// A copy has its own streams (the buffers are per bindings), as HailoRT's inner_copy.
ConfiguredInferModel::Bindings::Bindings(const Bindings &other) { *this = other; }
ConfiguredInferModel::Bindings &ConfiguredInferModel::Bindings::operator=(const Bindings &other) {
    if (this == &other) return *this;
    m_inputs.clear();
    m_outputs.clear();
    for (const auto &e : other.m_inputs) m_inputs.emplace(e.first, InferStream(std::make_shared<InferStream::Impl>(*e.second.m_pimpl)));
    for (const auto &e : other.m_outputs) m_outputs.emplace(e.first, InferStream(std::make_shared<InferStream::Impl>(*e.second.m_pimpl)));
    return *this;
}
#endif

namespace {
using BindingMap = std::unordered_map<std::string, ConfiguredInferModel::Bindings::InferStream>;
// The buffer bound to one stream (the fake reads it without the public accessors, which 4.18 lacks for const Bindings).
Expected<MemoryView> bound(const BindingMap &m, const std::string &name) {
    auto it = m.find(name);
    if (it == m.end()) {
        log_line("error", "Failed to find stream " + name);
        return make_unexpected(HAILO_NOT_FOUND);
    }
    const auto impl = FakeAccess::impl(it->second);
    if (!impl->set) return make_unexpected(HAILO_NOT_FOUND);
    return Expected<MemoryView>(MemoryView(impl->buffer));
}
Expected<ConfiguredInferModel::Bindings::InferStream> only(const BindingMap &m) {
    if (m.size() != 1) return make_unexpected(HAILO_INVALID_OPERATION);
    return Expected<ConfiguredInferModel::Bindings::InferStream>(ConfiguredInferModel::Bindings::InferStream(m.begin()->second));
}
Expected<ConfiguredInferModel::Bindings::InferStream> named(const BindingMap &m, const std::string &name) {
    auto it = m.find(name);
    if (it == m.end()) {
        log_line("error", "Failed to find stream " + name);
        return make_unexpected(HAILO_NOT_FOUND);
    }
    return Expected<ConfiguredInferModel::Bindings::InferStream>(ConfiguredInferModel::Bindings::InferStream(it->second));
}
}  // namespace

Expected<ConfiguredInferModel::Bindings::InferStream> ConfiguredInferModel::Bindings::input() { return only(m_inputs); }
Expected<ConfiguredInferModel::Bindings::InferStream> ConfiguredInferModel::Bindings::output() { return only(m_outputs); }
Expected<ConfiguredInferModel::Bindings::InferStream> ConfiguredInferModel::Bindings::input(const std::string &name) { return named(m_inputs, name); }
Expected<ConfiguredInferModel::Bindings::InferStream> ConfiguredInferModel::Bindings::output(const std::string &name) { return named(m_outputs, name); }
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 19, 0)
Expected<ConfiguredInferModel::Bindings::InferStream> ConfiguredInferModel::Bindings::input() const { return only(m_inputs); }
Expected<ConfiguredInferModel::Bindings::InferStream> ConfiguredInferModel::Bindings::output() const { return only(m_outputs); }
Expected<ConfiguredInferModel::Bindings::InferStream> ConfiguredInferModel::Bindings::input(const std::string &name) const { return named(m_inputs, name); }
Expected<ConfiguredInferModel::Bindings::InferStream> ConfiguredInferModel::Bindings::output(const std::string &name) const { return named(m_outputs, name); }
#endif

// ------------------------------------------------------------------ the simulated device
class AsyncInferJobBase {
public:
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    hailo_status status = HAILO_SUCCESS;
    void finish(hailo_status s) {
        { std::lock_guard<std::mutex> lock(mutex); done = true; status = s; }
        cv.notify_all();
    }
    hailo_status wait(std::chrono::milliseconds timeout) {
        std::unique_lock<std::mutex> lock(mutex);
        if (!cv.wait_for(lock, timeout, [&] { return done; })) return HAILO_TIMEOUT;
        return status;
    }
};

struct BoundBuffer {
    MemoryView view;
    StreamFacts facts;
    hailo_format_type_t type;
};

struct Job {
    std::vector<BoundBuffer> inputs, outputs;
    std::function<void(const AsyncInferCompletionInfo &)> callback;
    std::shared_ptr<AsyncInferJobBase> state;
    std::chrono::steady_clock::time_point due;
};

class ConfiguredInferModelBase {
public:
    ConfiguredInferModelBase(std::vector<std::shared_ptr<FakeAccess::StreamImpl>> inputs,
                             std::vector<std::shared_ptr<FakeAccess::StreamImpl>> outputs)
        : m_inputs(std::move(inputs)), m_outputs(std::move(outputs)) {
        m_queue_size = static_cast<size_t>(std::max(1L, env_long("FAKE_HAILORT_QUEUE", 8)));
        const long fps = std::max(1L, env_long("FAKE_HAILORT_FPS", 1000));
        m_frame_time = std::chrono::nanoseconds(1000000000L / fps);
        m_latency = std::chrono::microseconds(std::max(0L, env_long("FAKE_HAILORT_LATENCY_US", 1500)));
        m_fault_after = env_long("FAKE_HAILORT_FAULT_AFTER", 0);
        m_thread = std::thread([this] { device_loop(); });
    }

    ~ConfiguredInferModelBase() {
        shutdown();
        { std::lock_guard<std::mutex> lock(m_mutex); m_stop = true; }
        m_cv.notify_all();
        if (m_thread.joinable()) {
            if (m_thread.get_id() == std::this_thread::get_id()) m_thread.detach();
            else m_thread.join();
        }
    }

    Expected<ConfiguredInferModel::Bindings> create_bindings() {
        BindingMap in, out;
        for (const auto &s : m_inputs) in.emplace(s->facts.name, FakeAccess::make_binding(std::make_shared<FakeAccess::BindingImpl>()));
        for (const auto &s : m_outputs) out.emplace(s->facts.name, FakeAccess::make_binding(std::make_shared<FakeAccess::BindingImpl>()));
        return Expected<ConfiguredInferModel::Bindings>(FakeAccess::make_bindings(std::move(in), std::move(out)));
    }

    hailo_status wait_for_async_ready(std::chrono::milliseconds timeout, uint32_t frames_count) {
        std::unique_lock<std::mutex> lock(m_mutex);
        if (m_shutdown) return HAILO_SHUTDOWN_EVENT_SIGNALED;
        if (frames_count > m_queue_size) {
            // HailoRT always times out here: the queue can never hold that many frames.
            lock.unlock();
            std::this_thread::sleep_for(timeout);
            log_line("error", "wait_for_async_ready: frames_count " + std::to_string(frames_count) + " exceeds the queue size " + std::to_string(m_queue_size));
            return HAILO_TIMEOUT;
        }
        if (!m_cv.wait_for(lock, timeout, [&] { return m_shutdown || m_jobs.size() + frames_count <= m_queue_size; })) {
            log_line("error", "wait_for_async_ready timed out");
            return HAILO_TIMEOUT;
        }
        return m_shutdown ? HAILO_SHUTDOWN_EVENT_SIGNALED : HAILO_SUCCESS;
    }

    Expected<AsyncInferJob> run_async(const ConfiguredInferModel::Bindings &bindings, std::function<void(const AsyncInferCompletionInfo &)> callback) {
        Job job;
        for (const auto &s : m_inputs) {
            auto view = bound(FakeAccess::inputs(bindings), s->facts.name);
            if (!view) return make_unexpected(view.status());
            if (view->size() != s->frame_size()) return fail_size("Input", view->size(), s->frame_size());
            job.inputs.push_back({view.value(), s->facts, s->type});
        }
        for (const auto &s : m_outputs) {
            auto view = bound(FakeAccess::outputs(bindings), s->facts.name);
            if (!view) return make_unexpected(view.status());
            if (view->size() != s->frame_size()) return fail_size("Output", view->size(), s->frame_size());
            job.outputs.push_back({view.value(), s->facts, s->type});
        }
        job.callback = std::move(callback);
        job.state = std::make_shared<AsyncInferJobBase>();
        auto state = job.state;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (m_shutdown) return make_unexpected(HAILO_SHUTDOWN_EVENT_SIGNALED);
            if (m_jobs.size() >= m_queue_size) {
                log_line("error", "run_async: the async queue is full");
                return make_unexpected(HAILO_QUEUE_IS_FULL);
            }
            // Frames finish one round trip after submission, and no faster than the device rate.
            const auto now = std::chrono::steady_clock::now();
            auto due = now + m_latency;
            if (m_last_due + m_frame_time > due) due = m_last_due + m_frame_time;
            m_last_due = due;
            job.due = due;
            m_jobs.push_back(std::move(job));
        }
        m_cv.notify_all();
        return Expected<AsyncInferJob>(FakeAccess::make_job(state));
    }

    hailo_status shutdown() {
        std::deque<Job> aborted;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            if (m_shutdown) return HAILO_SUCCESS;
            m_shutdown = true;
            // Frames in flight finish unless the device hangs.
            m_cv.wait_for(lock, std::chrono::milliseconds(hung() ? 0 : 2000), [&] { return m_jobs.empty(); });
            aborted.swap(m_jobs);
        }
        m_cv.notify_all();
        for (auto &job : aborted) complete(job, HAILO_STREAM_ABORT);
        return HAILO_SUCCESS;
    }

    size_t queue_size() const { return m_queue_size; }

private:
    Expected<AsyncInferJob> fail_size(const char *what, size_t got, size_t expected) {
        // Hailo-10H (configured_infer_model_hrpc_client.cpp): 6, and the failed run_async shuts the model down.
        log_line("error", std::string(what) + " buffer size " + std::to_string(got) + " is different than expected " + std::to_string(expected));
        shutdown();
        return make_unexpected(HAILO_INVALID_OPERATION);
    }

    bool hung() const { return fault("timeout") && m_frames_done >= m_fault_after; }

    void device_loop() {
        std::unique_lock<std::mutex> lock(m_mutex);
        while (!m_stop) {
            if (m_jobs.empty() || hung()) {
                m_cv.wait_for(lock, std::chrono::milliseconds(50));
                continue;
            }
            const auto due = m_jobs.front().due;
            if (std::chrono::steady_clock::now() < due) {
                m_cv.wait_until(lock, due);
                continue;
            }
            Job job = std::move(m_jobs.front());
            m_jobs.pop_front();
            const long n = m_frames_done++;
            lock.unlock();
            if (n >= m_fault_after && fault("crash")) {
                log_line("critical", "fake libhailort: injected crash (FAKE_HAILORT_FAULT=crash) at frame " + std::to_string(n));
                std::abort();
            }
            if (n >= m_fault_after && fault("segv")) {
                log_line("critical", "fake libhailort: injected segmentation fault at frame " + std::to_string(n));
                *static_cast<volatile int *>(nullptr) = 1;  // a real invalid write, as a driver bug would make
            }
            compute(job);
            complete(job, HAILO_SUCCESS);
            lock.lock();
            m_cv.notify_all();
        }
    }

    // Deterministic outputs derived from every input byte: same inputs, same outputs; any
    // changed byte changes them all.
    void compute(Job &job) {
        uint64_t seed = 14695981039346656037ULL;
        // Faults a real device can show, which the run checks exist to catch: a device that
        // ignores its input, and one that is not deterministic.
        if (!fault("constant-output")) {
            for (const auto &in : job.inputs) seed = fnv1a64(in.view.data(), in.view.size(), seed);
        }
        if (fault("nondeterministic")) seed ^= static_cast<uint64_t>(++m_noise) * 0x9E3779B97F4A7C15ULL;
        for (size_t o = 0; o < job.outputs.size(); o++) {
            auto &out = job.outputs[o];
            uint64_t x = seed ^ ((o + 1) * 0x9E3779B97F4A7C15ULL);
            if (x == 0) x = 1;
            auto next = [&x]() { x ^= x >> 12; x ^= x << 25; x ^= x >> 27; return x * 2685821657736338717ULL; };
            uint8_t *p = out.view.data();
            const size_t n = out.view.size();
            if (out.type == HAILO_FORMAT_TYPE_FLOAT32) {
                const float scale = out.facts.quant.qp_scale != 0 ? out.facts.quant.qp_scale : 1.0f / 255;
                for (size_t i = 0; i + 4 <= n; i += 4) {
                    const float v = (static_cast<float>(next() >> 56) - out.facts.quant.qp_zp) * scale;
                    std::memcpy(p + i, &v, 4);
                }
            } else if (out.type == HAILO_FORMAT_TYPE_UINT16) {
                for (size_t i = 0; i + 2 <= n; i += 2) {
                    const uint16_t v = static_cast<uint16_t>(next() >> 48);
                    std::memcpy(p + i, &v, 2);
                }
            } else {
                for (size_t i = 0; i < n; i++) p[i] = static_cast<uint8_t>(next() >> 56);
            }
        }
    }

    static void complete(Job &job, hailo_status status) {
        try {
            job.callback(AsyncInferCompletionInfo(status));
        } catch (...) {
        }
        job.state->finish(status);
    }

    std::vector<std::shared_ptr<FakeAccess::StreamImpl>> m_inputs, m_outputs;
    size_t m_queue_size;
    std::chrono::nanoseconds m_frame_time;
    std::chrono::microseconds m_latency;
    long m_fault_after;
    std::atomic<long> m_frames_done{0};
    uint64_t m_noise = 0;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<Job> m_jobs;
    std::chrono::steady_clock::time_point m_last_due{};
    bool m_shutdown = false;
    bool m_stop = false;
    std::thread m_thread;
};

// ------------------------------------------------------------------ AsyncInferJob
AsyncInferJob::AsyncInferJob(std::shared_ptr<AsyncInferJobBase> pimpl) : m_pimpl(std::move(pimpl)), m_should_wait_in_dtor(true) {}
AsyncInferJob::~AsyncInferJob() {
    if (m_pimpl && m_should_wait_in_dtor) m_pimpl->wait(HAILO_INFINITE_TIMEOUT);
}
AsyncInferJob::AsyncInferJob(AsyncInferJob &&other) : m_pimpl(std::move(other.m_pimpl)), m_should_wait_in_dtor(other.m_should_wait_in_dtor) {
    other.m_should_wait_in_dtor = false;
}
AsyncInferJob &AsyncInferJob::operator=(AsyncInferJob &&other) {
    if (this != &other) {
        m_pimpl = std::move(other.m_pimpl);
        m_should_wait_in_dtor = other.m_should_wait_in_dtor;
        other.m_should_wait_in_dtor = false;
    }
    return *this;
}
hailo_status AsyncInferJob::wait(std::chrono::milliseconds timeout) {
    if (!m_pimpl) return HAILO_INVALID_OPERATION;
    const auto status = m_pimpl->wait(timeout);
    if (status != HAILO_TIMEOUT) m_should_wait_in_dtor = false;
    return status;
}
void AsyncInferJob::detach() { m_should_wait_in_dtor = false; }

// ------------------------------------------------------------------ ConfiguredInferModel
ConfiguredInferModel::ConfiguredInferModel(std::shared_ptr<ConfiguredInferModelBase> pimpl) : m_pimpl(std::move(pimpl)) {}
Expected<ConfiguredInferModel::Bindings> ConfiguredInferModel::create_bindings() { return m_pimpl->create_bindings(); }
hailo_status ConfiguredInferModel::wait_for_async_ready(std::chrono::milliseconds timeout, uint32_t frames_count) {
    return m_pimpl->wait_for_async_ready(timeout, frames_count);
}
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 19, 0)
hailo_status ConfiguredInferModel::run(const Bindings &bindings, std::chrono::milliseconds timeout) {
#else
hailo_status ConfiguredInferModel::run(Bindings bindings, std::chrono::milliseconds timeout) {
#endif
    // As infer_model.cpp: wait_for_async_ready + run_async + wait.
    auto ready = wait_for_async_ready(timeout, 1);
    if (ready != HAILO_SUCCESS) return ready;
    auto job = run_async(bindings);
    if (!job) return job.status();
    const auto status = job->wait(timeout);
    if (status == HAILO_TIMEOUT) job->detach();
    return status;
}
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 19, 0)
Expected<AsyncInferJob> ConfiguredInferModel::run_async(const Bindings &bindings, std::function<void(const AsyncInferCompletionInfo &)> callback) {
#else
Expected<AsyncInferJob> ConfiguredInferModel::run_async(Bindings bindings, std::function<void(const AsyncInferCompletionInfo &)> callback) {
#endif
    return m_pimpl->run_async(bindings, std::move(callback));
}
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 21, 0)
Expected<size_t> ConfiguredInferModel::get_async_queue_size() const { return Expected<size_t>(m_pimpl->queue_size()); }
#else
Expected<size_t> ConfiguredInferModel::get_async_queue_size() { return Expected<size_t>(m_pimpl->queue_size()); }
#endif
hailo_status ConfiguredInferModel::shutdown() { return m_pimpl->shutdown(); }

// ------------------------------------------------------------------ InferModel, VDevice
namespace {
// 4.x's DeviceBase::is_hef_compatible (device_internal.cpp, v4.18.0-v4.23.0): which HEF hw_arch
// values a device runs. A Hailo-8 runs HAILO8P (1), HAILO8R (2) and HAILO8L (3) HEFs; a Hailo-8L
// only HAILO8L (3).
bool hef_compatible_4x(int device, int hef) {
    switch (device) {
    case HAILO_ARCH_HAILO8: return hef == 1 || hef == 2 || hef == 3;
    case HAILO_ARCH_HAILO8L: return hef == 3;
    case HAILO_ARCH_HAILO15H:
    case HAILO_ARCH_HAILO10H: return hef == 104 || hef == 105 || hef == 103 || hef == 4 || hef == 5;
    case 4 /* HAILO15L, PLUTO before 4.20 */: return hef == 6 || hef == 106;
    case HAILO_ARCH_HAILO15M: return hef == 4;
    default: return false;
    }
}

// What configure checks before it loads anything (DeviceBase::configure → check_hef_is_compatible,
// update_fw_state): built as 4.x, the architecture by 4.x's rule (26 before 4.21, then 93), with
// HailoRT's warning for a Hailo-8L HEF on a Hailo-8; on a Hailo-8 a firmware whose major.minor is
// not the library's refuses the controls configure needs (16).
hailo_status check_at_configure(const HefFacts &facts) {
#if HAILORT_MAJOR_VERSION == 4
    const int device = device_arch();
    if (fault("not-compatible") || !hef_compatible_4x(device, facts.hef_arch)) {
        log_line("error", "HEF format is not compatible with device. Device arch: " + HailoRTCommon::get_device_arch_str(static_cast<hailo_device_architecture_t>(device)) +
            ", HEF arch: " + (facts.archs.empty() ? std::string("UNKNOWN ARCHITECTURE") : HailoRTCommon::get_device_arch_str(static_cast<hailo_device_architecture_t>(facts.archs[0]))));
        return hef_status(93);
    }
    if (facts.hef_arch == 3 && device == HAILO_ARCH_HAILO8) {
        log_line("warning", "HEF was compiled for Hailo8L device, while the device itself is Hailo8. This will result in lower performance.");
    }
#else
    (void)facts;
#endif
    if (is_hailo8_family(device_arch()) && !firmware_supported()) {
        log_line("error", "Operation 2 is not allowed when FW version in not supported. Host supported FW version is " + library_version());
        return HAILO_UNSUPPORTED_FW_VERSION;
    }
    return HAILO_SUCCESS;
}

class FakeInferModel final : public InferModel {
public:
    explicit FakeInferModel(Hef hef) : m_hef(std::move(hef)) {
        for (const auto &s : FakeAccess::facts(m_hef).inputs) add(s, m_inputs, m_input_names);
        for (const auto &s : FakeAccess::facts(m_hef).outputs) add(s, m_outputs, m_output_names);
    }
    const Hef &hef() const override { return m_hef; }
    void set_batch_size(uint16_t batch_size) override { m_batch = batch_size; }
    void set_power_mode(hailo_power_mode_t) override {}
    Expected<ConfiguredInferModel> configure() override {
        const auto checked = check_at_configure(FakeAccess::facts(m_hef));
        if (checked != HAILO_SUCCESS) return make_unexpected(checked);
        std::vector<std::shared_ptr<FakeAccess::StreamImpl>> in, out;
        // The configured model keeps the formats chosen so far (copies, as HailoRT freezes them).
        for (const auto &s : m_inputs) in.push_back(std::make_shared<FakeAccess::StreamImpl>(*FakeAccess::impl(s)));
        for (const auto &s : m_outputs) out.push_back(std::make_shared<FakeAccess::StreamImpl>(*FakeAccess::impl(s)));
        return Expected<ConfiguredInferModel>(FakeAccess::make_configured(std::make_shared<ConfiguredInferModelBase>(std::move(in), std::move(out))));
    }
    Expected<InferStream> input() override { return only(m_inputs); }
    Expected<InferStream> output() override { return only(m_outputs); }
    Expected<InferStream> input(const std::string &name) override { return named(m_inputs, name); }
    Expected<InferStream> output(const std::string &name) override { return named(m_outputs, name); }
    const std::vector<InferStream> &inputs() const override { return m_inputs; }
    const std::vector<InferStream> &outputs() const override { return m_outputs; }
    const std::vector<std::string> &get_input_names() const override { return m_input_names; }
    const std::vector<std::string> &get_output_names() const override { return m_output_names; }

private:
    static void add(const StreamFacts &f, std::vector<InferStream> &streams, std::vector<std::string> &names) {
        auto impl = std::make_shared<FakeAccess::StreamImpl>();
        impl->facts = f;
        impl->type = f.type;
        impl->order = f.order;
        streams.push_back(FakeAccess::make_stream(impl));
        names.push_back(f.name);
    }
    static Expected<InferStream> only(const std::vector<InferStream> &v) {
        if (v.size() != 1) {
            log_line("error", "Model has more than one stream: name it");
            return make_unexpected(HAILO_INVALID_OPERATION);
        }
        return Expected<InferStream>(InferStream(v[0]));
    }
    static Expected<InferStream> named(const std::vector<InferStream> &v, const std::string &name) {
        for (const auto &s : v) if (s.name() == name) return Expected<InferStream>(InferStream(s));
        log_line("error", "Stream " + name + " not found");
        return make_unexpected(HAILO_NOT_FOUND);
    }

    Hef m_hef;
    std::vector<InferStream> m_inputs, m_outputs;
    std::vector<std::string> m_input_names, m_output_names;
    uint16_t m_batch = 0;
};

class FakeVDevice final : public VDevice {
public:
    FakeVDevice(const hailo_vdevice_params_t &params, std::vector<std::string> ids) : VDevice(params), m_ids(std::move(ids)) {
        for (const auto &id : m_ids) m_devices.emplace_back(new FakeDevice(id));
    }
    Expected<std::vector<std::reference_wrapper<Device>>> get_physical_devices() const override {
        std::vector<std::reference_wrapper<Device>> out;
        for (const auto &d : m_devices) out.push_back(*d);
        return Expected<std::vector<std::reference_wrapper<Device>>>(std::move(out));
    }
    Expected<std::vector<std::string>> get_physical_devices_ids() const override { return Expected<std::vector<std::string>>(std::vector<std::string>(m_ids)); }
    hailo_status dma_map(void *, size_t, hailo_dma_buffer_direction_t) override { return HAILO_SUCCESS; }
    hailo_status dma_unmap(void *, size_t, hailo_dma_buffer_direction_t) override { return HAILO_SUCCESS; }

private:
    std::vector<std::string> m_ids;
    std::vector<std::unique_ptr<Device>> m_devices;
};

Expected<std::unique_ptr<VDevice>> make_vdevice(const hailo_vdevice_params_t &params) {
    const bool explicit_ids = params.device_ids != nullptr;
    const std::string group = params.group_id ? params.group_id : HAILO_UNIQUE_VDEVICE_GROUP_ID;
#if HAILORT_MAJOR_VERSION >= 5
    if (params.multi_process_service) {
        log_line("error", "multi_process_service is not supported on Hailo-10H; use a shared group_id");
        return make_unexpected(HAILO_INVALID_OPERATION);
    }
#else
    // 4.x: multi_process_service makes this VDevice a client of hailort.service (vdevice.cpp,
    // VDeviceClient::create); the service must run (gRPC fails: 77) and carry the same libhailort
    // version (rpc_client_utils.hpp: 78; the message prints the two versions as HailoRT does).
    if (params.multi_process_service) {
        if (params.scheduling_algorithm == HAILO_SCHEDULING_ALGORITHM_NONE) {
            log_line("error", "Multi-process service is supported only with HailoRT scheduler, please choose scheduling algorithm");
            return make_unexpected(HAILO_INVALID_ARGUMENT);
        }
        const std::string service = env("FAKE_HAILORT_SERVICE", "stopped");
        if (service.rfind("running", 0) != 0) {
            log_line("error", "CHECK_GRPC_STATUS failed with error code: 14.");
            log_line("warning", "Make sure HailoRT service is enabled and active!");
            return make_unexpected(HAILO_RPC_FAILED);
        }
        const std::string service_version = service.size() > 8 && service[7] == ':' ? service.substr(8) : library_version();
        if (service_version != library_version()) {
            log_line("error", "Invalid libhailort version on service: client version " + service_version + ", service version " + library_version());
            return make_unexpected(HAILO_INVALID_SERVICE_VERSION);
        }
    }
#endif
    const auto listed = driver_class_status();
    if (listed != HAILO_SUCCESS) return make_unexpected(listed);
    const auto available = device_ids();
    if (available.empty()) {
        log_line("error", "Failed to create vdevice. there are not enough free devices. requested: 1, found: 0");
        return make_unexpected(HAILO_OUT_OF_PHYSICAL_DEVICES);
    }
    std::vector<std::string> ids;
    if (explicit_ids) {
        for (uint32_t i = 0; i < params.device_count; i++) {
            const std::string id(params.device_ids[i].id, strnlen(params.device_ids[i].id, HAILO_MAX_DEVICE_ID_LENGTH));
            if (std::find(available.begin(), available.end(), id) == available.end()) {
                log_line("error", "Device " + id + " not found");
                return make_unexpected(HAILO_INVALID_ARGUMENT);
            }
            ids.push_back(id);
        }
    } else {
        if (params.device_count > available.size()) return make_unexpected(HAILO_OUT_OF_PHYSICAL_DEVICES);
        ids.assign(available.begin(), available.begin() + std::max<uint32_t>(1, params.device_count));
    }
    // Each device is opened (driver version, architecture) before it is marked as used.
    for (const auto &id : ids) {
        const auto status = open_device(id);
        if (status != HAILO_SUCCESS) return make_unexpected(status);
    }
    if (fault("busy")) {
        const std::string holder = env("FAKE_HAILORT_HOLDER_GROUP", HAILO_UNIQUE_VDEVICE_GROUP_ID);
#if HAILORT_MAJOR_VERSION >= 5
        const bool shares = group != HAILO_UNIQUE_VDEVICE_GROUP_ID && group == holder;
        if (!shares) {
            // hailort_server waits for the device, then answers 73; the client skips it and ends with 74.
            std::this_thread::sleep_for(std::chrono::milliseconds(std::max(0L, env_long("FAKE_HAILORT_BUSY_WAIT_MS", 5000))));
            log_line("error", "VDevice is in use, timed out waiting for it");
            if (explicit_ids) return make_unexpected(HAILO_DEVICE_IN_USE);
            log_line("error", "Failed to create vdevice. there are not enough free devices. requested: 1, found: 0");
            return make_unexpected(HAILO_OUT_OF_PHYSICAL_DEVICES);
        }
#else
        // 4.x: only clients of hailort.service with the holder's group share (the holder is then the
        // service); otherwise the driver's mark_as_used answers 73 at once and, without explicit ids,
        // the device is skipped (vdevice.cpp, VDeviceBase::create_devices).
        const bool shares = params.multi_process_service && group != HAILO_UNIQUE_VDEVICE_GROUP_ID && group == holder;
        if (!shares) {
            if (explicit_ids) return make_unexpected(HAILO_DEVICE_IN_USE);
            log_line("error", "Failed to create vdevice. there are not enough free devices. requested: 1, found: 0");
            return make_unexpected(HAILO_OUT_OF_PHYSICAL_DEVICES);
        }
#endif
    }
    return Expected<std::unique_ptr<VDevice>>(std::unique_ptr<VDevice>(new FakeVDevice(params, ids)));
}

hailo_vdevice_params_t default_params() {
    hailo_vdevice_params_t p{};
    hailo_init_vdevice_params(&p);
    return p;
}

Expected<std::shared_ptr<InferModel>> infer_model_from(const uint8_t *data, size_t size, bool from_file) {
    auto hef = load_hef(data, size, from_file);
    if (!hef) return make_unexpected(hef.status());
#if HAILORT_MAJOR_VERSION >= 5
    // 5.x on a Hailo-10H: hailort_server checks the architecture when the model is created.
    const auto &archs = FakeAccess::facts(hef.value()).archs;
    if (fault("not-compatible") || std::find(archs.begin(), archs.end(), static_cast<int>(device_arch())) == archs.end()) {
        log_line("error", "HEF file is not compatible with device. Device arch: " + std::string(ARCH_NAMES[device_arch()]));
        return make_unexpected(HAILO_HEF_NOT_COMPATIBLE_WITH_DEVICE);
    }
#endif
    return Expected<std::shared_ptr<InferModel>>(std::shared_ptr<InferModel>(new FakeInferModel(hef.release())));
}
}  // namespace

Expected<std::unique_ptr<VDevice>> VDevice::create(const hailo_vdevice_params_t &params) { return make_vdevice(params); }
Expected<std::unique_ptr<VDevice>> VDevice::create() { return create(default_params()); }
Expected<std::unique_ptr<VDevice>> VDevice::create(const std::vector<std::string> &ids) {
    std::vector<hailo_device_id_t> raw(ids.size());
    for (size_t i = 0; i < ids.size(); i++) std::strncpy(raw[i].id, ids[i].c_str(), HAILO_MAX_DEVICE_ID_LENGTH - 1);
    auto p = default_params();
    p.device_ids = raw.data();
    p.device_count = static_cast<uint32_t>(raw.size());
    return create(p);
}
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 21, 0)
Expected<std::shared_ptr<VDevice>> VDevice::create_shared(const hailo_vdevice_params_t &params) {
    auto v = make_vdevice(params);
    if (!v) return make_unexpected(v.status());
    return Expected<std::shared_ptr<VDevice>>(std::shared_ptr<VDevice>(v.release()));
}
Expected<std::shared_ptr<VDevice>> VDevice::create_shared() { return create_shared(default_params()); }
Expected<std::shared_ptr<VDevice>> VDevice::create_shared(const std::vector<std::string> &ids) {
    auto v = create(ids);
    if (!v) return make_unexpected(v.status());
    return Expected<std::shared_ptr<VDevice>>(std::shared_ptr<VDevice>(v.release()));
}
#endif

Expected<std::shared_ptr<InferModel>> VDevice::create_infer_model(const std::string &hef_path, const std::string &) {
    auto bytes = read_file(hef_path);
    if (!bytes) return make_unexpected(bytes.status());
    return infer_model_from(bytes->data(), bytes->size(), true);
}

Expected<std::shared_ptr<InferModel>> VDevice::create_infer_model(const MemoryView hef_buffer, const std::string &) {
    return infer_model_from(hef_buffer.data(), hef_buffer.size(), false);
}

}  // namespace hailort
