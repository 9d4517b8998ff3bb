// hailo-tools native bridge: an extern "C" shim over HailoRT's C++ InferModel API — 4.18 … 4.23
// (Hailo-8, Hailo-8L) and 5.x (Hailo-10H, Hailo-15) — loaded with koffi in the device worker
// process (the Hailo-10H rejects HailoRT's flat C API with status 7, and InferModel returns C++
// types koffi cannot call). Facts: docs/research/hailort5-api.md; the 4.x drift: native/README.md.
//
// Rules this file keeps:
//  * every export catches: no C++ exception and no HailoRT callback crosses into JavaScript;
//    run_async completions are collected here (a mutex-guarded queue) and JavaScript polls or blocks;
//  * buffers are checked before HailoRT sees them: a wrong-sized input is refused with
//    HAILO_INVALID_ARGUMENT (real HailoRT answers 6 and shuts the configured model down);
//  * buffers handed to HailoRT are page-aligned and page-rounded (infer_model.hpp: "otherwise some
//    memory corruption might occur");
//  * errors: the last failure of the calling thread as status number + name + text.
//
// Build: native/build.mjs (or `hailo-tools devices`, which builds on first use) passes
// HAILORT_{MAJOR,MINOR,REVISION}_VERSION as HailoRT's CMake target does.
#include "shim_common.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#if !HTS_VERSION_AT_LEAST(4, 18, 0)
#error "HailoRT older than 4.18 is not supported: the bridge needs InferModel as 4.18 has it (native/README.md)"
#endif
// API drift, checked against the v4.18.0 … v5.2.0 headers (native/README.md):
//  * VDevice::create_shared exists from 4.21; before, create() answers a unique_ptr (converted here);
//  * a HEF names one architecture (get_hef_device_arch) up to 5.0; 5.1 lists them (get_compatible_device_archs);
//  * external resources: none before 4.21; get_external_resources() is a map of strings in 4.21-4.23 and of
//    MemoryViews in 5.0.x; 5.1 introduced get_external_resources(name) + get_external_resource_names;
//  * sharing a device between processes: 4.x goes through hailort.service (multi_process_service, as
//    4.x's multi_process_example); 5.x shares by group id alone and refuses the flag on Hailo-10H.
#define HTS_HAS_CREATE_SHARED HTS_VERSION_AT_LEAST(4, 21, 0)
#define HTS_ONE_ARCH (!HTS_VERSION_AT_LEAST(5, 1, 0))
#define HTS_RESOURCES_NONE (!HTS_VERSION_AT_LEAST(4, 21, 0))
#define HTS_RESOURCES_STRING_MAP (HAILORT_MAJOR_VERSION == 4 && HTS_VERSION_AT_LEAST(4, 21, 0))
#define HTS_RESOURCES_VIEW_MAP (HAILORT_MAJOR_VERSION == 5 && HAILORT_MINOR_VERSION == 0)
#define HTS_SHARE_THROUGH_SERVICE (HAILORT_MAJOR_VERSION == 4)

using namespace hailort;
using std::chrono::milliseconds;

namespace hts {

thread_local int g_status = HAILO_SUCCESS;
thread_local std::string g_message;
thread_local std::string g_status_name;

void set_error(int status, const std::string &message) {
    g_status = status;
    g_message = message;
    const char *name = hailo_get_status_message(static_cast<hailo_status>(status));
    g_status_name = name ? name : "";
}

void clear_error() {
    g_status = HAILO_SUCCESS;
    g_message.clear();
    g_status_name.clear();
}

// ---- JSON writing (names come from the HEF: escape everything) ----
void json_string(std::ostringstream &o, const std::string &s) {
    o << '"';
    for (unsigned char c : s) {
        switch (c) {
        case '"': o << "\\\""; break;
        case '\\': o << "\\\\"; break;
        case '\n': o << "\\n"; break;
        case '\r': o << "\\r"; break;
        case '\t': o << "\\t"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                o << buf;
            } else {
                o << static_cast<char>(c);
            }
        }
    }
    o << '"';
}

void json_number(std::ostringstream &o, double v) {
    if (v != v || v > 1e308 || v < -1e308) { o << "null"; return; }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    o << buf;
}

int64_t answer_text(const std::string &text, char *buf, size_t cap) {
    if (buf && cap > 0) {
        const size_t n = std::min(cap - 1, text.size());
        std::memcpy(buf, text.data(), n);
        buf[n] = '\0';
    }
    return static_cast<int64_t>(text.size());
}

int last_status() { return g_status; }

}  // namespace hts

using namespace hts;

namespace {

constexpr uint32_t SHIM_ABI = 4;  // 2: the GenAI exports (hailo_genai.cpp); 3: the speech exports (hailo_speech.cpp); 4: hts_open's frame and slot bounds

std::string fixed_string(const char *s, size_t max_len, size_t len) {
    return std::string(s, std::min(max_len, len));
}

// ---- page-aligned buffers ----
size_t page_size() {
    const long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? static_cast<size_t>(p) : 4096;
}

struct AlignedBuffer {
    uint8_t *data = nullptr;
    size_t size = 0;      // the frame size HailoRT expects
    size_t capacity = 0;  // page-rounded
    AlignedBuffer() = default;
    AlignedBuffer(const AlignedBuffer &) = delete;
    AlignedBuffer &operator=(const AlignedBuffer &) = delete;
    AlignedBuffer(AlignedBuffer &&o) noexcept : data(o.data), size(o.size), capacity(o.capacity) { o.data = nullptr; }
    ~AlignedBuffer() { std::free(data); }
    bool allocate(size_t n) {
        const size_t page = page_size();
        capacity = ((n + page - 1) / page) * page;
        if (capacity == 0) capacity = page;
        void *p = nullptr;
        if (posix_memalign(&p, page, capacity) != 0) return false;
        std::memset(p, 0, capacity);
        data = static_cast<uint8_t *>(p);
        size = n;
        return true;
    }
};

struct StreamDesc {
    std::string name;
    hailo_3d_image_shape_t shape{};
    hailo_format_t format{};
    size_t frame_size = 0;
    bool nms = false;
    std::vector<hailo_quant_info_t> quant;
};

// One set of buffers bound to HailoRT: a frame in flight uses one slot.
struct Slot {
    std::vector<AlignedBuffer> inputs;
    std::vector<AlignedBuffer> outputs;
    ConfiguredInferModel::Bindings bindings;
};

struct Completion {
    uint32_t slot;
    int status;
};

struct Model {
    std::shared_ptr<VDevice> vdevice;
    std::shared_ptr<InferModel> infer_model;
    ConfiguredInferModel configured;
    std::vector<StreamDesc> inputs, outputs;
    size_t input_total = 0, output_total = 0;
    size_t queue_size = 0;
    std::vector<std::unique_ptr<Slot>> slots;  // async slots + 1 for synchronous frames
    uint32_t timeout_ms = 5000;
    int dead_status = HAILO_SUCCESS;  // set when HailoRT shut the configured model down

    std::mutex mutex;
    std::condition_variable cv;
    std::deque<Completion> done;
    uint32_t in_flight = 0;
};

std::mutex g_models_mutex;
std::map<int32_t, std::shared_ptr<Model>> g_models;
int32_t g_next_handle = 1;

std::shared_ptr<Model> find_model(int32_t handle) {
    std::lock_guard<std::mutex> lock(g_models_mutex);
    auto it = g_models.find(handle);
    if (it == g_models.end()) {
        set_error(HAILO_INVALID_ARGUMENT, "no open model with handle " + std::to_string(handle));
        return nullptr;
    }
    return it->second;
}

bool alive(Model &m, const char *what) {
    if (m.dead_status == HAILO_SUCCESS) return true;
    set_error(m.dead_status, std::string(what) + ": HailoRT shut the configured model down after status " +
        std::to_string(m.dead_status) + "; close it and open the HEF again");
    return false;
}

StreamDesc describe(const InferModel::InferStream &s) {
    StreamDesc d;
    d.name = s.name();
    d.shape = s.shape();
    d.format = s.format();
    d.frame_size = s.get_frame_size();
    d.nms = s.is_nms();
    d.quant = s.get_quant_infos();
    return d;
}

void stream_json(std::ostringstream &o, const StreamDesc &d) {
    o << "{\"name\":";
    json_string(o, d.name);
    o << ",\"shape\":[" << d.shape.height << ',' << d.shape.width << ',' << d.shape.features << ']';
    o << ",\"order\":" << static_cast<int>(d.format.order) << ",\"type\":" << static_cast<int>(d.format.type)
      << ",\"flags\":" << static_cast<int>(d.format.flags) << ",\"frameSize\":" << d.frame_size
      << ",\"nms\":" << (d.nms ? "true" : "false") << ",\"quant\":[";
    for (size_t i = 0; i < d.quant.size(); i++) {
        if (i) o << ',';
        o << '[';
        json_number(o, d.quant[i].qp_zp); o << ',';
        json_number(o, d.quant[i].qp_scale); o << ',';
        json_number(o, d.quant[i].limvals_min); o << ',';
        json_number(o, d.quant[i].limvals_max);
        o << ']';
    }
    o << "]}";
}

// The completion callback HailoRT calls on its own thread: records, never throws, never calls JS.
std::function<void(const AsyncInferCompletionInfo &)> completion_for(const std::shared_ptr<Model> &model, uint32_t slot) {
    std::weak_ptr<Model> weak = model;
    return [weak, slot](const AsyncInferCompletionInfo &info) {
        try {
            auto m = weak.lock();
            if (!m) return;
            {
                std::lock_guard<std::mutex> lock(m->mutex);
                m->done.push_back({slot, static_cast<int>(info.status)});
                if (m->in_flight > 0) m->in_flight--;
            }
            m->cv.notify_all();
        } catch (...) {
            // Nothing may escape into HailoRT's thread.
        }
    };
}

bool check_size(const Model &m, size_t in_size, size_t out_size, bool check_out) {
    if (in_size != m.input_total) {
        std::string detail;
        for (const auto &s : m.inputs) detail += (detail.empty() ? "" : ", ") + s.name + " " + std::to_string(s.frame_size);
        set_error(HAILO_INVALID_ARGUMENT, "input is " + std::to_string(in_size) + " bytes but one frame is " +
            std::to_string(m.input_total) + " bytes (" + detail + "); refused before HailoRT saw it");
        return false;
    }
    if (check_out && out_size != m.output_total) {
        set_error(HAILO_INVALID_ARGUMENT, "output buffer is " + std::to_string(out_size) + " bytes but one frame of outputs is " +
            std::to_string(m.output_total) + " bytes");
        return false;
    }
    return true;
}

void fill_slot(Slot &slot, const uint8_t *in) {
    size_t offset = 0;
    for (auto &b : slot.inputs) {
        std::memcpy(b.data, in + offset, b.size);
        offset += b.size;
    }
}

void read_slot(const Slot &slot, uint8_t *out) {
    size_t offset = 0;
    for (const auto &b : slot.outputs) {
        std::memcpy(out + offset, b.data, b.size);
        offset += b.size;
    }
}

// run_async on a slot; on failure HailoRT has shut the model down (infer_model.cpp), so remember it.
int submit_slot(const std::shared_ptr<Model> &m, uint32_t slot_index) {
    auto ready = m->configured.wait_for_async_ready(milliseconds(m->timeout_ms), 1);
    if (ready != HAILO_SUCCESS) {
        set_error(ready, "ConfiguredInferModel::wait_for_async_ready");
        return ready;
    }
    {
        std::lock_guard<std::mutex> lock(m->mutex);
        m->in_flight++;
    }
    auto job = m->configured.run_async(m->slots[slot_index]->bindings, completion_for(m, slot_index));
    if (!job) {
        {
            std::lock_guard<std::mutex> lock(m->mutex);
            if (m->in_flight > 0) m->in_flight--;
        }
        m->dead_status = job.status();
        set_error(job.status(), "ConfiguredInferModel::run_async");
        return job.status();
    }
    job->detach();
    return HAILO_SUCCESS;
}

// Waits up to timeout for at least one completion; answers how many were taken.
uint32_t take_completions(Model &m, Completion *out, uint32_t max, uint32_t timeout_ms) {
    std::unique_lock<std::mutex> lock(m.mutex);
    m.cv.wait_for(lock, milliseconds(timeout_ms), [&] { return !m.done.empty(); });
    uint32_t n = 0;
    while (n < max && !m.done.empty()) {
        out[n++] = m.done.front();
        m.done.pop_front();
    }
    return n;
}

// Waits until nothing is in flight (or the timeout): a model must not be freed under HailoRT.
bool drain(Model &m, uint32_t timeout_ms) {
    std::unique_lock<std::mutex> lock(m.mutex);
    return m.cv.wait_for(lock, milliseconds(timeout_ms), [&] { return m.in_flight == 0; });
}


}  // namespace

// ---------------------------------------------------------------- exports

HTS_EXPORT uint32_t hts_abi_version(void) { return SHIM_ABI; }

/** The HailoRT the shim was compiled against (major*10000 + minor*100 + revision). */
HTS_EXPORT uint32_t hts_compiled_version(void) {
    return HAILORT_MAJOR_VERSION * 10000 + HAILORT_MINOR_VERSION * 100 + HAILORT_REVISION_VERSION;
}

HTS_EXPORT int hts_library_version(uint32_t *major, uint32_t *minor, uint32_t *revision) {
    return guarded("hailo_get_library_version", [&]() -> int {
        hailo_version_t v{};
        auto status = hailo_get_library_version(&v);
        if (status != HAILO_SUCCESS) { set_error(status, "hailo_get_library_version"); return status; }
        if (major) *major = v.major;
        if (minor) *minor = v.minor;
        if (revision) *revision = v.revision;
        clear_error();
        return HAILO_SUCCESS;
    }, HAILO_INTERNAL_FAILURE);
}

HTS_EXPORT int hts_last_status(void) { return g_status; }
HTS_EXPORT const char *hts_last_status_name(void) { return g_status_name.c_str(); }
HTS_EXPORT const char *hts_last_error(void) { return g_message.c_str(); }

/** Device::scan + Device::identify of each, as JSON. Answers the JSON length, or -1 (last error). */
HTS_EXPORT int64_t hts_scan_json(char *buf, size_t cap) {
    return guarded("scan", [&]() -> int64_t {
        auto ids = Device::scan();
        if (!ids) { set_error(ids.status(), "Device::scan"); return -1; }
        std::ostringstream o;
        o << "{\"devices\":[";
        bool first = true;
        for (const auto &id : ids.value()) {
            if (!first) o << ',';
            first = false;
            o << "{\"id\":";
            json_string(o, id);
            auto device = Device::create(id);
            if (!device) {
                const char *name = hailo_get_status_message(device.status());
                o << ",\"ok\":false,\"status\":" << device.status() << ",\"statusName\":";
                json_string(o, name ? name : "");
                o << ",\"message\":\"Device::create\"}";
                continue;
            }
            auto identity = device.value()->identify();
            if (!identity) {
                const char *name = hailo_get_status_message(identity.status());
                o << ",\"ok\":false,\"status\":" << identity.status() << ",\"statusName\":";
                json_string(o, name ? name : "");
                o << ",\"message\":\"Device::identify\"}";
                continue;
            }
            const hailo_device_identity_t &idn = identity.value();
            o << ",\"ok\":true,\"architecture\":" << static_cast<int>(idn.device_architecture)
              << ",\"fw\":[" << idn.fw_version.major << ',' << idn.fw_version.minor << ',' << idn.fw_version.revision << ']'
              << ",\"release\":" << (idn.is_release ? "true" : "false") << ",\"protocol\":" << idn.protocol_version
              << ",\"board\":";
            json_string(o, fixed_string(idn.board_name, HAILO_MAX_BOARD_NAME_LENGTH, idn.board_name_length));
            o << ",\"serial\":";
            json_string(o, fixed_string(idn.serial_number, HAILO_MAX_SERIAL_NUMBER_LENGTH, idn.serial_number_length));
            o << ",\"part\":";
            json_string(o, fixed_string(idn.part_number, HAILO_MAX_PART_NUMBER_LENGTH, idn.part_number_length));
            o << ",\"product\":";
            json_string(o, fixed_string(idn.product_name, HAILO_MAX_PRODUCT_NAME_LENGTH, idn.product_name_length));
            o << '}';
        }
        o << "]}";
        clear_error();
        return answer_text(o.str(), buf, cap);
    }, static_cast<int64_t>(-1));
}

/**
 * Opens a HEF: VDevice (group_id: "UNIQUE" takes the device alone, any other id shares it),
 * InferModel with uint8 (format 0: HailoRT's quantised default) or float32 (1) host I/O, batch
 * size (0 = auto), configure, and `queue` slots of page-aligned buffers (0 or more than the
 * model's async queue size = the queue size). `max_frame_bytes` > 0: an input or output frame
 * (all streams of it, in the chosen format: HailoRT's get_frame_size) larger than this is refused
 * with HAILO_INVALID_ARGUMENT before any buffer is allocated — the frames come from the HEF, and
 * (slots + 1) zero-filled copies of each are made here (the worker passes LIMITS.deviceFrameBytes).
 * `max_slot_bytes` > 0: the async slots are fewer when (slots + 1) × (input + output frame) would
 * pass it (the worker passes LIMITS.deviceSlotBytes). Answers a handle > 0, or -1 (last error).
 */
HTS_EXPORT int32_t hts_open(const char *hef_path, int format, uint32_t batch, uint32_t queue, const char *group_id, uint32_t timeout_ms,
                            uint64_t max_frame_bytes, uint64_t max_slot_bytes) {
    return guarded("open", [&]() -> int32_t {
        if (!hef_path || !*hef_path) { set_error(HAILO_INVALID_ARGUMENT, "open: no HEF path"); return -1; }
        if (format != 0 && format != 1) { set_error(HAILO_INVALID_ARGUMENT, "open: format must be 0 (uint8) or 1 (float32)"); return -1; }
        if (batch > UINT16_MAX) { set_error(HAILO_INVALID_ARGUMENT, "open: batch size above 65535"); return -1; }
        auto model = std::make_shared<Model>();
        model->timeout_ms = timeout_ms > 0 ? timeout_ms : 5000;

        hailo_vdevice_params_t params{};
        auto status = hailo_init_vdevice_params(&params);
        if (status != HAILO_SUCCESS) { set_error(status, "hailo_init_vdevice_params"); return -1; }
        const std::string group = (group_id && *group_id) ? group_id : HAILO_UNIQUE_VDEVICE_GROUP_ID;
        params.group_id = group.c_str();
#if HTS_SHARE_THROUGH_SERVICE
        // 4.x: another process can use the device only through hailort.service.
        params.multi_process_service = group != HAILO_UNIQUE_VDEVICE_GROUP_ID;
        const std::string through = params.multi_process_service ? ", through hailort.service" : "";
#else
        const std::string through;
#endif
#if HTS_HAS_CREATE_SHARED
        auto vdevice = VDevice::create_shared(params);
        if (!vdevice) { set_error(vdevice.status(), "VDevice::create (group " + group + through + ")"); return -1; }
        model->vdevice = vdevice.release();
#else
        auto vdevice = VDevice::create(params);
        if (!vdevice) { set_error(vdevice.status(), "VDevice::create (group " + group + through + ")"); return -1; }
        model->vdevice = std::shared_ptr<VDevice>(vdevice.release());
#endif

        auto infer_model = model->vdevice->create_infer_model(std::string(hef_path));
        if (!infer_model) { set_error(infer_model.status(), "VDevice::create_infer_model"); return -1; }
        model->infer_model = infer_model.release();
        auto &im = *model->infer_model;

        if (format == 1) {
            for (const auto &name : im.get_input_names()) {
                auto s = im.input(name);
                if (!s) { set_error(s.status(), "InferModel::input(" + name + ")"); return -1; }
                s->set_format_type(HAILO_FORMAT_TYPE_FLOAT32);
            }
            for (const auto &name : im.get_output_names()) {
                auto s = im.output(name);
                if (!s) { set_error(s.status(), "InferModel::output(" + name + ")"); return -1; }
                s->set_format_type(HAILO_FORMAT_TYPE_FLOAT32);
            }
        }
        if (batch > 0) im.set_batch_size(static_cast<uint16_t>(batch));

        auto configured = im.configure();
        if (!configured) { set_error(configured.status(), "InferModel::configure"); return -1; }
        model->configured = configured.release();

        for (const auto &s : im.inputs()) { model->inputs.push_back(describe(s)); model->input_total += model->inputs.back().frame_size; }
        for (const auto &s : im.outputs()) { model->outputs.push_back(describe(s)); model->output_total += model->outputs.back().frame_size; }
        if (max_frame_bytes > 0 && (model->input_total > max_frame_bytes || model->output_total > max_frame_bytes)) {
            const bool input = model->input_total > max_frame_bytes;
            set_error(HAILO_INVALID_ARGUMENT, std::string("open: the ") + (input ? "input" : "output") + " frame is " +
                                                  std::to_string(input ? model->input_total : model->output_total) + " bytes, over the bound of " +
                                                  std::to_string(max_frame_bytes) + " bytes; refused before any frame is allocated");
            return -1;
        }

        auto queue_size = model->configured.get_async_queue_size();
        if (!queue_size) { set_error(queue_size.status(), "ConfiguredInferModel::get_async_queue_size"); return -1; }
        model->queue_size = queue_size.value();
        size_t async_slots = model->queue_size;
        if (queue > 0 && queue < async_slots) async_slots = queue;
        if (async_slots == 0) async_slots = 1;
        // The queue size is HailoRT's answer (m_max_ongoing_transfers) and every slot holds a whole
        // input and output frame: at most max_slot_bytes for all of them, one async slot at least.
        const size_t per_slot = model->input_total + model->output_total;
        if (max_slot_bytes > 0 && per_slot > 0) {
            const uint64_t fit = std::max<uint64_t>(2, max_slot_bytes / per_slot);
            if (async_slots + 1 > fit) async_slots = static_cast<size_t>(fit - 1);
        }

        for (size_t i = 0; i < async_slots + 1; i++) {
            auto owned = std::unique_ptr<Slot>(new Slot());
            Slot &slot = *owned;
            auto bindings = model->configured.create_bindings();
            if (!bindings) { set_error(bindings.status(), "ConfiguredInferModel::create_bindings"); return -1; }
            slot.bindings = bindings.release();
            for (const auto &d : model->inputs) {
                AlignedBuffer b;
                if (!b.allocate(d.frame_size)) { set_error(HAILO_OUT_OF_HOST_MEMORY, "page-aligned input buffer"); return -1; }
                auto stream = slot.bindings.input(d.name);
                if (!stream) { set_error(stream.status(), "Bindings::input(" + d.name + ")"); return -1; }
                auto st = stream->set_buffer(MemoryView(b.data, b.size));
                if (st != HAILO_SUCCESS) { set_error(st, "Bindings::InferStream::set_buffer(" + d.name + ")"); return -1; }
                slot.inputs.push_back(std::move(b));
            }
            for (const auto &d : model->outputs) {
                AlignedBuffer b;
                if (!b.allocate(d.frame_size)) { set_error(HAILO_OUT_OF_HOST_MEMORY, "page-aligned output buffer"); return -1; }
                auto stream = slot.bindings.output(d.name);
                if (!stream) { set_error(stream.status(), "Bindings::output(" + d.name + ")"); return -1; }
                auto st = stream->set_buffer(MemoryView(b.data, b.size));
                if (st != HAILO_SUCCESS) { set_error(st, "Bindings::InferStream::set_buffer(" + d.name + ")"); return -1; }
                slot.outputs.push_back(std::move(b));
            }
            model->slots.push_back(std::move(owned));
        }

        std::lock_guard<std::mutex> lock(g_models_mutex);
        const int32_t handle = g_next_handle++;
        g_models[handle] = model;
        clear_error();
        return handle;
    }, static_cast<int32_t>(-1));
}

/** The open model's streams, queue size, async slots and resource names, as JSON. */
HTS_EXPORT int64_t hts_model_json(int32_t handle, char *buf, size_t cap) {
    return guarded("model_json", [&]() -> int64_t {
        auto m = find_model(handle);
        if (!m) return -1;
        std::ostringstream o;
        o << "{\"inputs\":[";
        for (size_t i = 0; i < m->inputs.size(); i++) { if (i) o << ','; stream_json(o, m->inputs[i]); }
        o << "],\"outputs\":[";
        for (size_t i = 0; i < m->outputs.size(); i++) { if (i) o << ','; stream_json(o, m->outputs[i]); }
        o << "],\"queueSize\":" << m->queue_size << ",\"slots\":" << (m->slots.size() - 1)
          << ",\"inputBytes\":" << m->input_total << ",\"outputBytes\":" << m->output_total << ",\"resources\":[";
        const Hef &hef = m->infer_model->hef();
#if HTS_RESOURCES_STRING_MAP || HTS_RESOURCES_VIEW_MAP
        auto all = hef.get_external_resources();
        if (all) {
            bool first = true;
            for (const auto &entry : all.value()) { if (!first) o << ','; first = false; json_string(o, entry.first); }
        }
#elif !HTS_RESOURCES_NONE
        const auto names = hef.get_external_resource_names();
        for (size_t i = 0; i < names.size(); i++) { if (i) o << ','; json_string(o, names[i]); }
#endif
        o << "],\"archs\":[";
#if HTS_ONE_ARCH
        auto arch = hef.get_hef_device_arch();
        if (arch) o << static_cast<int>(arch.value());
#else
        auto archs = hef.get_compatible_device_archs();
        if (archs) {
            for (size_t i = 0; i < archs->size(); i++) { if (i) o << ','; o << static_cast<int>(archs.value()[i]); }
        }
#endif
        o << "]}";
        clear_error();
        return answer_text(o.str(), buf, cap);
    }, static_cast<int64_t>(-1));
}

/**
 * One frame, synchronously: `in` holds every input's frame in model order, `out` receives every
 * output's frame in model order. Wrong sizes are refused with HAILO_INVALID_ARGUMENT before
 * HailoRT sees a buffer. Answers a hailo_status.
 */
HTS_EXPORT int hts_infer(int32_t handle, const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size) {
    return guarded("infer", [&]() -> int {
        auto m = find_model(handle);
        if (!m) return HAILO_INVALID_ARGUMENT;
        if (!alive(*m, "infer")) return m->dead_status;
        if (!in || !out) { set_error(HAILO_INVALID_ARGUMENT, "infer: null buffer"); return HAILO_INVALID_ARGUMENT; }
        if (!check_size(*m, in_size, out_size, true)) return HAILO_INVALID_ARGUMENT;
        Slot &slot = *m->slots.back();
        fill_slot(slot, in);
        auto status = m->configured.run(slot.bindings, milliseconds(m->timeout_ms));
        if (status != HAILO_SUCCESS) {
            if (status != HAILO_TIMEOUT) m->dead_status = status;
            set_error(status, "ConfiguredInferModel::run");
            return status;
        }
        read_slot(slot, out);
        clear_error();
        return HAILO_SUCCESS;
    }, static_cast<int>(HAILO_INTERNAL_FAILURE));
}

/**
 * The shim's own pipelined loop (the baseline the JavaScript loop is measured against):
 * `frames` frames, at most `depth` in flight (capped at the async slots), inputs taken in turn
 * from the `in_size / input_frame` frames in `in`. wait_for_async_ready + run_async + detach per
 * frame, completions collected here. Elapsed wall time in *elapsed_ms. Answers a hailo_status.
 */
HTS_EXPORT int hts_run_pipelined(int32_t handle, const uint8_t *in, size_t in_size, uint32_t frames, uint32_t depth, double *elapsed_ms) {
    return guarded("run_pipelined", [&]() -> int {
        auto m = find_model(handle);
        if (!m) return HAILO_INVALID_ARGUMENT;
        if (!alive(*m, "run_pipelined")) return m->dead_status;
        if (!in || m->input_total == 0 || in_size == 0 || in_size % m->input_total != 0) {
            check_size(*m, in_size, 0, false);
            if (g_status == HAILO_SUCCESS) set_error(HAILO_INVALID_ARGUMENT, "run_pipelined: inputs are not whole frames");
            return HAILO_INVALID_ARGUMENT;
        }
        const size_t distinct = in_size / m->input_total;
        const uint32_t async_slots = static_cast<uint32_t>(m->slots.size() - 1);
        const uint32_t limit = std::max<uint32_t>(1, std::min(depth == 0 ? async_slots : depth, async_slots));
        {
            std::lock_guard<std::mutex> lock(m->mutex);
            m->done.clear();
        }
        std::vector<uint32_t> free_slots;
        for (uint32_t s = 0; s < limit; s++) free_slots.push_back(limit - 1 - s);
        const auto start = std::chrono::steady_clock::now();
        uint32_t submitted = 0, completed = 0;
        int failure = HAILO_SUCCESS;
        Completion batch[64];
        while (completed < submitted || (submitted < frames && failure == HAILO_SUCCESS)) {
            while (submitted < frames && !free_slots.empty() && failure == HAILO_SUCCESS) {
                const uint32_t slot = free_slots.back();
                free_slots.pop_back();
                fill_slot(*m->slots[slot], in + (submitted % distinct) * m->input_total);
                const int st = submit_slot(m, slot);
                if (st != HAILO_SUCCESS) { failure = st; break; }
                submitted++;
            }
            if (completed == submitted) break;
            const uint32_t n = take_completions(*m, batch, 64, m->timeout_ms);
            if (n == 0) {
                failure = HAILO_TIMEOUT;
                set_error(HAILO_TIMEOUT, "run_pipelined: no completion within " + std::to_string(m->timeout_ms) + " ms");
                break;
            }
            for (uint32_t i = 0; i < n; i++) {
                completed++;
                free_slots.push_back(batch[i].slot);
                if (batch[i].status != HAILO_SUCCESS && failure == HAILO_SUCCESS) {
                    failure = batch[i].status;
                    set_error(failure, "run_async completion");
                }
            }
        }
        const auto end = std::chrono::steady_clock::now();
        if (elapsed_ms) *elapsed_ms = std::chrono::duration<double, std::milli>(end - start).count();
        if (failure != HAILO_SUCCESS) return failure;
        clear_error();
        return HAILO_SUCCESS;
    }, static_cast<int>(HAILO_INTERNAL_FAILURE));
}

/** Starts one frame on async slot `slot` (0 .. slots-1) without waiting; see hts_wait_done. */
HTS_EXPORT int hts_submit(int32_t handle, uint32_t slot, const uint8_t *in, size_t in_size) {
    return guarded("submit", [&]() -> int {
        auto m = find_model(handle);
        if (!m) return HAILO_INVALID_ARGUMENT;
        if (!alive(*m, "submit")) return m->dead_status;
        if (slot + 1 >= m->slots.size()) { set_error(HAILO_INVALID_ARGUMENT, "submit: slot " + std::to_string(slot) + " out of range"); return HAILO_INVALID_ARGUMENT; }
        if (!in || !check_size(*m, in_size, 0, false)) return HAILO_INVALID_ARGUMENT;
        fill_slot(*m->slots[slot], in);
        const int st = submit_slot(m, slot);
        if (st == HAILO_SUCCESS) clear_error();
        return st;
    }, static_cast<int>(HAILO_INTERNAL_FAILURE));
}

/**
 * Blocks up to timeout_ms for finished frames; writes up to `max` (slot, status) pairs and answers
 * how many (0 = none finished in time), or -1 (last error).
 */
HTS_EXPORT int32_t hts_wait_done(int32_t handle, uint32_t *slots, int32_t *statuses, uint32_t max, uint32_t timeout_ms) {
    return guarded("wait_done", [&]() -> int32_t {
        auto m = find_model(handle);
        if (!m) return -1;
        std::vector<Completion> taken(std::max<uint32_t>(1, std::min<uint32_t>(max, 1024)));
        const uint32_t n = take_completions(*m, taken.data(), static_cast<uint32_t>(taken.size()), timeout_ms);
        for (uint32_t i = 0; i < n; i++) {
            if (slots) slots[i] = taken[i].slot;
            if (statuses) statuses[i] = taken[i].status;
        }
        clear_error();
        return static_cast<int32_t>(n);
    }, static_cast<int32_t>(-1));
}

/** Copies the outputs of async slot `slot` (its last finished frame) into `out`. */
HTS_EXPORT int hts_read_output(int32_t handle, uint32_t slot, uint8_t *out, size_t out_size) {
    return guarded("read_output", [&]() -> int {
        auto m = find_model(handle);
        if (!m) return HAILO_INVALID_ARGUMENT;
        if (slot + 1 >= m->slots.size()) { set_error(HAILO_INVALID_ARGUMENT, "read_output: slot out of range"); return HAILO_INVALID_ARGUMENT; }
        if (!out || out_size != m->output_total) { set_error(HAILO_INVALID_ARGUMENT, "read_output: buffer is not one frame of outputs"); return HAILO_INVALID_ARGUMENT; }
        read_slot(*m->slots[slot], out);
        clear_error();
        return HAILO_SUCCESS;
    }, static_cast<int>(HAILO_INTERNAL_FAILURE));
}

/**
 * An external resource embedded in the HEF (e.g. hailo-config.json): copies up to `cap` bytes,
 * answers its full length, or -1 when the HEF has none of that name (last status NOT_FOUND, 61)
 * or it cannot be read (e.g. HEF_FILE_CORRUPTED, 91).
 */
HTS_EXPORT int64_t hts_resource(int32_t handle, const char *name, uint8_t *buf, size_t cap) {
    return guarded("resource", [&]() -> int64_t {
        auto m = find_model(handle);
        if (!m) return -1;
        if (!name) { set_error(HAILO_INVALID_ARGUMENT, "resource: no name"); return -1; }
#if HTS_RESOURCES_NONE
        // Before 4.21 a HEF has no external resources HailoRT can read.
        (void)buf; (void)cap;
        set_error(HAILO_NOT_FOUND, std::string("HailoRT ") + std::to_string(HAILORT_MAJOR_VERSION) + "." + std::to_string(HAILORT_MINOR_VERSION) +
            " reads no external resources (4.21+): no resource '" + name + "'");
        return -1;
#else
        const Hef &hef = m->infer_model->hef();
#endif
#if HTS_RESOURCES_STRING_MAP || HTS_RESOURCES_VIEW_MAP
        auto all = hef.get_external_resources();
        if (!all) { set_error(all.status(), "Hef::get_external_resources"); return -1; }
        auto it = all->find(name);
        if (it == all->end()) { set_error(HAILO_NOT_FOUND, std::string("Hef::get_external_resources: no resource '") + name + "'"); return -1; }
#if HTS_RESOURCES_STRING_MAP
        const MemoryView view = MemoryView::create_const(it->second.data(), it->second.size());
#else
        const MemoryView view = it->second;
#endif
#elif !HTS_RESOURCES_NONE
        auto found = hef.get_external_resources(std::string(name));
        if (!found) { set_error(found.status(), std::string("Hef::get_external_resources(") + name + ")"); return -1; }
        const MemoryView view = found.value();
#endif
#if !HTS_RESOURCES_NONE
        if (buf && cap > 0) std::memcpy(buf, view.data(), std::min(cap, view.size()));
        clear_error();
        return static_cast<int64_t>(view.size());
#endif
    }, static_cast<int64_t>(-1));
}

/** Waits for frames in flight, shuts the configured model down, releases the VDevice. */
HTS_EXPORT int hts_close(int32_t handle) {
    return guarded("close", [&]() -> int {
        std::shared_ptr<Model> m;
        {
            std::lock_guard<std::mutex> lock(g_models_mutex);
            auto it = g_models.find(handle);
            if (it == g_models.end()) { set_error(HAILO_INVALID_ARGUMENT, "close: no open model with handle " + std::to_string(handle)); return HAILO_INVALID_ARGUMENT; }
            m = it->second;
            g_models.erase(it);
        }
        const bool drained = drain(*m, m->timeout_ms);
        auto status = m->configured.shutdown();
        if (!drained) drain(*m, m->timeout_ms);
        m.reset();
        if (status != HAILO_SUCCESS && status != HAILO_SHUTDOWN_EVENT_SIGNALED) { set_error(status, "ConfiguredInferModel::shutdown"); return status; }
        clear_error();
        return HAILO_SUCCESS;
    }, static_cast<int>(HAILO_INTERNAL_FAILURE));
}
