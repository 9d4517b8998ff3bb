// Faithfulness checks of the fake libhailort against HailoRT 5.2.0's documented behaviour
// (../shared/docs/hailort5-api.md §1, §4, §5). The static_asserts check the API's shape (deleted
// constructors and assignments) and hold against the real headers too (see native/README.md);
// the run-time checks print "PASS name" / "FAIL name: detail". Usage: selftest HEF FACTS
#include <hailo/hailort.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <type_traits>
#include <unistd.h>
#include <vector>

using namespace hailort;

static_assert(!std::is_copy_assignable<Expected<int>>::value, "Expected has no copy assignment");
static_assert(!std::is_move_assignable<Expected<int>>::value, "Expected has no move assignment");
static_assert(!std::is_constructible<Expected<int>, hailo_status>::value, "Expected(hailo_status) is deleted");
static_assert(!std::is_copy_constructible<AsyncInferJob>::value && std::is_move_constructible<AsyncInferJob>::value, "AsyncInferJob is move-only");
static_assert(!std::is_copy_constructible<VDevice>::value && !std::is_move_constructible<VDevice>::value, "VDevice: no copy, no move");
static_assert(!std::is_copy_constructible<Device>::value && !std::is_move_constructible<Device>::value, "Device: no copy, no move");
static_assert(std::is_copy_constructible<Hef>::value && !std::is_copy_assignable<Hef>::value, "Hef: copyable, not copy-assignable");
static_assert(!std::is_default_constructible<HailoRTCommon>::value, "HailoRTCommon() is deleted");
static_assert(std::is_default_constructible<ConfiguredInferModel>::value, "ConfiguredInferModel() = default");
static_assert(std::is_abstract<InferModel>::value && std::is_abstract<VDevice>::value, "InferModel, VDevice are abstract");
static_assert(sizeof(hailo_status) == sizeof(int), "hailo_status is int-sized");
static_assert(HAILO_OUT_OF_PHYSICAL_DEVICES == 74 && HAILO_HEF_NOT_COMPATIBLE_WITH_DEVICE == 93, "status values");
#if HAILORT_MINOR_VERSION >= 1
static_assert(HAILO_STATUS_COUNT == 98, "95-97 exist since 5.1.0");
#endif
static_assert(HAILO_ARCH_HAILO10H == 6 && HAILO_FORMAT_TYPE_FLOAT32 == 3, "enum values");

static int failures = 0;

static void check(const char *name, bool ok, const std::string &detail = "") {
    if (ok) std::printf("PASS %s\n", name);
    else { std::printf("FAIL %s: %s\n", name, detail.c_str()); failures++; }
}

static void fault(const char *f) { setenv("FAKE_HAILORT_FAULT", f, 1); }

int main(int argc, char **argv) {
    if (argc < 3) { std::fprintf(stderr, "usage: selftest HEF FACTS\n"); return 2; }
    const std::string hef = argv[1];
    setenv("FAKE_HAILORT_FACTS", argv[2], 1);
    setenv("FAKE_HAILORT_BUSY_WAIT_MS", "10", 1);
    setenv("FAKE_HAILORT_QUEUE", "4", 1);
    setenv("HAILORT_LOGGER_PATH", "NONE", 1);

    hailo_vdevice_params_t params{};
    check("hailo_init_vdevice_params gives UNIQUE", hailo_init_vdevice_params(&params) == HAILO_SUCCESS && std::string(params.group_id) == "UNIQUE" && !params.multi_process_service);
    check("hailo_get_status_message names", std::string(hailo_get_status_message(HAILO_OUT_OF_PHYSICAL_DEVICES)) == "HAILO_OUT_OF_PHYSICAL_DEVICES" && hailo_get_status_message(static_cast<hailo_status>(98)) == nullptr);

    fault("no-device");
    auto none = Device::scan();
    check("no device: scan is empty and SUCCESS", none.status() == HAILO_SUCCESS && none->empty());
    check("no device: VDevice::create answers 74", VDevice::create(params).status() == HAILO_OUT_OF_PHYSICAL_DEVICES);

    fault("busy");
    check("busy: scan lists the device", Device::scan()->size() == 1);
    check("busy: VDevice::create answers 74", VDevice::create(params).status() == HAILO_OUT_OF_PHYSICAL_DEVICES);
    check("busy: with explicit device ids 73", VDevice::create(std::vector<std::string>{Device::scan()->at(0)}).status() == HAILO_DEVICE_IN_USE);
    setenv("FAKE_HAILORT_HOLDER_GROUP", "SHARED", 1);
    params.group_id = "SHARED";
    check("busy: the holder's shared group id shares the device", VDevice::create(params).status() == HAILO_SUCCESS);
    params.group_id = "UNIQUE";
    fault("");

    auto vdevice = VDevice::create(params);
    check("VDevice::create", vdevice.status() == HAILO_SUCCESS);
    if (!vdevice) return 1;
    auto model = vdevice.value()->create_infer_model(hef);
    check("create_infer_model", model.status() == HAILO_SUCCESS, std::to_string(model.status()));
    if (!model) return 1;
    auto configured = model.value()->configure();
    check("configure", configured.status() == HAILO_SUCCESS);
    if (!configured) return 1;
    auto cim = configured.release();
    check("get_async_queue_size", cim.get_async_queue_size().value() == 4);
    check("wait_for_async_ready: frames_count above the queue size times out (4)", cim.wait_for_async_ready(std::chrono::milliseconds(20), 5) == HAILO_TIMEOUT);

    const auto &in = model.value()->inputs().at(0);
    const auto &out = model.value()->outputs().at(0);
    std::vector<uint8_t> ibuf(in.get_frame_size(), 7), obuf(out.get_frame_size(), 0);
    auto bindings = cim.create_bindings();
    bindings->input()->set_buffer(MemoryView(ibuf.data(), ibuf.size()));
    bindings->output()->set_buffer(MemoryView(obuf.data(), obuf.size()));
    std::thread::id callback_thread;
    auto job = cim.run_async(bindings.value(), [&](const AsyncInferCompletionInfo &info) {
        if (info.status == HAILO_SUCCESS) callback_thread = std::this_thread::get_id();
    });
    check("run_async", job.status() == HAILO_SUCCESS);
    check("AsyncInferJob::wait", job->wait(std::chrono::milliseconds(2000)) == HAILO_SUCCESS);
    check("completion callback on HailoRT's own thread", callback_thread != std::thread::id() && callback_thread != std::this_thread::get_id());

#if HAILORT_MINOR_VERSION >= 1
    auto resource = model.value()->hef().get_external_resources("no-such-resource");
    check("unknown external resource answers 61", resource.status() == HAILO_NOT_FOUND);
#else
    check("unknown external resource answers 61 (5.1+ only; 5.0 returns a map)", true);
#endif

    char cwd_template[] = "/tmp/fake-selftest-XXXXXX";
    const std::string cwd = mkdtemp(cwd_template);
    if (chdir(cwd.c_str()) != 0) return 1;
    unsetenv("HAILORT_LOGGER_PATH");
    std::vector<uint8_t> small(in.get_frame_size() - 1, 7);
    auto wrong = cim.create_bindings();
    wrong->input()->set_buffer(MemoryView(small.data(), small.size()));
    wrong->output()->set_buffer(MemoryView(obuf.data(), obuf.size()));
    check("wrong-sized input: run_async answers 6", cim.run_async(wrong.value()).status() == HAILO_INVALID_OPERATION);
    auto after = cim.run_async(bindings.value());
    check("wrong-sized input: the configured model is shut down", after.status() != HAILO_SUCCESS, std::to_string(after.status()));
    check("HAILORT_LOGGER_PATH unset: hailort.log lands in the current directory", std::ifstream(cwd + "/hailort.log").good());
    std::remove((cwd + "/hailort.log").c_str());
    setenv("HAILORT_LOGGER_PATH", "NONE", 1);
    check("HAILORT_LOGGER_PATH=NONE: no log file", VDevice::create(std::vector<std::string>{"no-such-id"}).status() != HAILO_SUCCESS && !std::ifstream(cwd + "/hailort.log").good());
    rmdir(cwd.c_str());

    std::printf("%d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
