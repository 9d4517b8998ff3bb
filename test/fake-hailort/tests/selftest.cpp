// Faithfulness checks of the fake libhailort against HailoRT's behaviour for the version it is
// built as: 5.2.0's documented behaviour (../shared/docs/hailort5-api.md §1, §4, §5) and 4.x's
// rules read in the v4.18.0 … v4.23.0 sources (native/README.md). The static_asserts check the
// API's shape (deleted constructors and assignments, status values of the version) and hold
// against the real headers too; the run-time checks print "PASS name" / "FAIL name: detail".
// Usage: selftest HEF FACTS [OTHER_ARCH_HEF] — HEF runs on the version's default device (4.x: a
// Hailo-8L HEF, 5.x: a Hailo-10H one); OTHER_ARCH_HEF is one that device refuses.
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
#if HAILORT_MAJOR_VERSION > 4 || HAILORT_MINOR_VERSION >= 21
static_assert(std::is_copy_constructible<Hef>::value && !std::is_copy_assignable<Hef>::value, "Hef: copyable (4.21+), not copy-assignable");
#else
static_assert(!std::is_copy_constructible<Hef>::value && !std::is_copy_assignable<Hef>::value, "Hef: neither copyable nor copy-assignable before 4.21");
#endif
static_assert(!std::is_default_constructible<HailoRTCommon>::value, "HailoRTCommon() is deleted");
static_assert(std::is_default_constructible<ConfiguredInferModel>::value, "ConfiguredInferModel() = default");
static_assert(std::is_abstract<InferModel>::value && std::is_abstract<VDevice>::value, "InferModel, VDevice are abstract");
static_assert(sizeof(hailo_status) == sizeof(int), "hailo_status is int-sized");
static_assert(HAILO_OUT_OF_PHYSICAL_DEVICES == 74 && HAILO_INVALID_DRIVER_VERSION == 76 && HAILO_RPC_FAILED == 77 && HAILO_NOT_SUPPORTED == 79, "status values");
#define AT_LEAST(ma, mi) (HAILORT_MAJOR_VERSION > (ma) || (HAILORT_MAJOR_VERSION == (ma) && HAILORT_MINOR_VERSION >= (mi)))
#if AT_LEAST(5, 1)
static_assert(HAILO_STATUS_COUNT == 98, "97 exists since 5.1.0");
#elif AT_LEAST(5, 0)
static_assert(HAILO_STATUS_COUNT == 97, "94-96 exist since 5.0.0");
#elif AT_LEAST(4, 21)
static_assert(HAILO_STATUS_COUNT == 94 && HAILO_HEF_NOT_COMPATIBLE_WITH_DEVICE == 93, "91-93 exist since 4.21.0");
#elif AT_LEAST(4, 20)
static_assert(HAILO_STATUS_COUNT == 91 && HAILO_DRIVER_INVALID_IOCTL == 86, "85-90 exist since 4.20.0");
#else
static_assert(HAILO_STATUS_COUNT == 85, "4.18/4.19 end at 84");
#endif
static_assert(HAILO_ARCH_HAILO8 == 1 && HAILO_ARCH_HAILO8L == 2 && HAILO_ARCH_HAILO10H == 6 && HAILO_FORMAT_TYPE_FLOAT32 == 3, "enum values");

static int failures = 0;

static void check(const char *name, bool ok, const std::string &detail = "") {
    if (ok) std::printf("PASS %s\n", name);
    else { std::printf("FAIL %s: %s\n", name, detail.c_str()); failures++; }
}

static void fault(const char *f) { setenv("FAKE_HAILORT_FAULT", f, 1); }

static std::string version_string(int major, int minor, int revision) {
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(revision);
}

int main(int argc, char **argv) {
    if (argc < 3) { std::fprintf(stderr, "usage: selftest HEF FACTS [OTHER_ARCH_HEF]\n"); return 2; }
    const std::string hef = argv[1];
    const std::string other_arch_hef = argc > 3 ? argv[3] : "";
    setenv("FAKE_HAILORT_FACTS", argv[2], 1);
    setenv("FAKE_HAILORT_BUSY_WAIT_MS", "10", 1);
    setenv("FAKE_HAILORT_QUEUE", "4", 1);
    setenv("HAILORT_LOGGER_PATH", "NONE", 1);
    const std::string library = version_string(HAILORT_MAJOR_VERSION, HAILORT_MINOR_VERSION, HAILORT_REVISION_VERSION);
    // The device each major version runs: 4.x the Hailo-8 family, 5.x the Hailo-1X family.
    setenv("FAKE_HAILORT_ARCH", HAILORT_MAJOR_VERSION >= 5 ? "HAILO10H" : "HAILO8L", 1);

    hailo_vdevice_params_t params{};
    check("hailo_init_vdevice_params gives UNIQUE", hailo_init_vdevice_params(&params) == HAILO_SUCCESS && std::string(params.group_id) == "UNIQUE" && !params.multi_process_service);
    check("hailo_get_status_message names, nullptr past the version's last status", std::string(hailo_get_status_message(HAILO_OUT_OF_PHYSICAL_DEVICES)) == "HAILO_OUT_OF_PHYSICAL_DEVICES" &&
        hailo_get_status_message(HAILO_STATUS_COUNT) == nullptr && hailo_get_status_message(static_cast<hailo_status>(HAILO_STATUS_COUNT - 1)) != nullptr);
#if AT_LEAST(4, 20)
    check("status 64 is HAILO_DRIVER_NOT_INSTALLED (4.20+)", std::string(hailo_get_status_message(static_cast<hailo_status>(64))) == "HAILO_DRIVER_NOT_INSTALLED");
#else
    check("status 64 is HAILO_PCIE_DRIVER_NOT_INSTALLED (before 4.20)", std::string(hailo_get_status_message(static_cast<hailo_status>(64))) == "HAILO_PCIE_DRIVER_NOT_INSTALLED");
#endif

    fault("no-device");
    auto none = Device::scan();
    check("no device: scan is empty and SUCCESS", none.status() == HAILO_SUCCESS && none->empty());
    check("no device: VDevice::create answers 74", VDevice::create(params).status() == HAILO_OUT_OF_PHYSICAL_DEVICES);

    fault("driver-missing");
#if AT_LEAST(4, 23)
    check("no driver: scan is empty and SUCCESS (4.23+)", Device::scan().status() == HAILO_SUCCESS && Device::scan()->empty());
#else
    check("no driver: scan answers 64 (before 4.23)", Device::scan().status() == static_cast<hailo_status>(64));
#endif

    fault("driver-ioctl");
    check("driver answers ENOTTY: scan still lists the device", Device::scan()->size() == 1);
#if AT_LEAST(4, 20)
    check("driver answers ENOTTY: Device::create answers 86", Device::create(Device::scan()->at(0)).status() == static_cast<hailo_status>(86));
#else
    check("driver answers ENOTTY: Device::create answers 36 (before 4.20)", Device::create(Device::scan()->at(0)).status() == static_cast<hailo_status>(36));
#endif
    check("driver answers ENOTTY: VDevice::create fails the same way", VDevice::create(params).status() == Device::create(Device::scan()->at(0)).status());
    fault("");

    setenv("FAKE_HAILORT_DRIVER_VERSION", HAILORT_MAJOR_VERSION >= 5 ? "4.20.0" : "4.17.0", 1);
    check("driver version differs: Device::create answers 76", Device::create(Device::scan()->at(0)).status() == HAILO_INVALID_DRIVER_VERSION);
    check("driver version differs: VDevice::create answers 76", VDevice::create(params).status() == HAILO_INVALID_DRIVER_VERSION);
    setenv("FAKE_HAILORT_DRIVER_VERSION", library.c_str(), 1);
    check("driver version equal: Device::create succeeds", Device::create(Device::scan()->at(0)).status() == HAILO_SUCCESS);

#if HAILORT_MAJOR_VERSION >= 5
    setenv("FAKE_HAILORT_ARCH", "HAILO8", 1);
    check("5.x refuses a Hailo-8 (79)", Device::create(Device::scan()->at(0)).status() == HAILO_NOT_SUPPORTED);
    setenv("FAKE_HAILORT_ARCH", "HAILO10H", 1);
#elif AT_LEAST(4, 22)
    setenv("FAKE_HAILORT_ARCH", "HAILO10H", 1);
    check("4.22+ refuses a Hailo-1X device (79)", Device::create(Device::scan()->at(0)).status() == HAILO_NOT_SUPPORTED);
    setenv("FAKE_HAILORT_ARCH", "HAILO8L", 1);
#endif

    fault("busy");
    check("busy: scan lists the device", Device::scan()->size() == 1);
    check("busy: VDevice::create answers 74", VDevice::create(params).status() == HAILO_OUT_OF_PHYSICAL_DEVICES);
    check("busy: with explicit device ids 73", VDevice::create(std::vector<std::string>{Device::scan()->at(0)}).status() == HAILO_DEVICE_IN_USE);
    setenv("FAKE_HAILORT_HOLDER_GROUP", "SHARED", 1);
    params.group_id = "SHARED";
#if HAILORT_MAJOR_VERSION >= 5
    check("busy: the holder's shared group id shares the device", VDevice::create(params).status() == HAILO_SUCCESS);
    params.multi_process_service = true;
    check("5.x: multi_process_service answers 6", VDevice::create(params).status() == HAILO_INVALID_OPERATION);
    params.multi_process_service = false;
#else
    check("4.x busy: a group id alone does not share across processes (74)", VDevice::create(params).status() == HAILO_OUT_OF_PHYSICAL_DEVICES);
    params.multi_process_service = true;
    setenv("FAKE_HAILORT_SERVICE", "stopped", 1);
    check("4.x: multi_process_service without hailort.service answers 77", VDevice::create(params).status() == HAILO_RPC_FAILED);
    setenv("FAKE_HAILORT_SERVICE", "running:4.17.0", 1);
    check("4.x: hailort.service of another version answers 78", VDevice::create(params).status() == HAILO_INVALID_SERVICE_VERSION);
    setenv("FAKE_HAILORT_SERVICE", "running", 1);
    check("4.x busy: the service shares the device with its group", VDevice::create(params).status() == HAILO_SUCCESS);
    params.multi_process_service = false;
    unsetenv("FAKE_HAILORT_SERVICE");
#endif
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

#if AT_LEAST(5, 1)
    auto resource = model.value()->hef().get_external_resources("no-such-resource");
    check("unknown external resource answers 61", resource.status() == HAILO_NOT_FOUND);
#elif AT_LEAST(4, 21)
    auto resources = model.value()->hef().get_external_resources();
    check("external resources: one map (4.21-5.0), without an unknown name", resources.status() == HAILO_SUCCESS && resources->count("no-such-resource") == 0);
#else
    check("external resources: none before 4.21 (no API to ask)", true);
#endif

    // The other architecture's HEF: 4.x refuses it at configure by is_hef_compatible (26 before 4.21,
    // then 93); 5.x on a Hailo-10H when the model is created (93).
    if (!other_arch_hef.empty()) {
        auto other = vdevice.value()->create_infer_model(other_arch_hef);
#if HAILORT_MAJOR_VERSION >= 5
        check("another architecture's HEF: create_infer_model answers 93", other.status() == HAILO_HEF_NOT_COMPATIBLE_WITH_DEVICE, std::to_string(other.status()));
#else
        const hailo_status expected = AT_LEAST(4, 21) ? static_cast<hailo_status>(93) : HAILO_INVALID_HEF;
        check("a Hailo-8 HEF on a Hailo-8L: configure refuses it (26 before 4.21, then 93)", other && other.value()->configure().status() == expected,
            other ? std::to_string(other.value()->configure().status()) : std::to_string(other.status()));
        setenv("FAKE_HAILORT_ARCH", "HAILO8", 1);
        auto on_hailo8 = vdevice.value()->create_infer_model(hef);
        check("a Hailo-8L HEF on a Hailo-8: configure accepts it", on_hailo8 && on_hailo8.value()->configure().status() == HAILO_SUCCESS);
        setenv("FAKE_HAILORT_FW", "4.17.0", 1);
        auto old_fw = vdevice.value()->create_infer_model(hef);
        check("firmware of another major.minor: configure answers 16", old_fw && old_fw.value()->configure().status() == HAILO_UNSUPPORTED_FW_VERSION);
        unsetenv("FAKE_HAILORT_FW");
        setenv("FAKE_HAILORT_ARCH", "HAILO8L", 1);
#endif
    }

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
