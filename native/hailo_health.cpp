// hailo-tools native bridge, device state while a GenAI model runs: the physical devices under an
// open LLM/VLM's VDevice (VDevice::get_physical_devices) and what HailoRT reports of each —
// Device::get_chip_temperature (both sensors), query_health_stats and query_performance_stats
// (HailoRT: "Supported only on Hailo-10/Hailo-15 devices running on Linux"; a field of -1 is a stat
// it could not read). Each call's failure is reported with its status instead of the figure, so a
// release or device that lacks one still answers the others.
#include "shim_common.hpp"

#include <sstream>
#include <string>

using namespace hailort;
using namespace hts;

namespace {

/** ,"<key>":<status> for a failed call. */
void failed(std::ostringstream &o, bool &first_error, const char *key, hailo_status status) {
    o << (first_error ? "" : ",") << "\"" << key << "\":" << static_cast<int>(status);
    first_error = false;
}

}  // namespace

/**
 * {"devices":[{"id":…,"temperature":{"ts0":…,"ts1":…}|null,"health":{"onDie":…,"voltageMv":…,
 * "bistFailureMask":…}|null,"performance":{"cpu":…,"ramTotalKib":…,"ramUsedKib":…,"nnc":…,"dsp":…}|null,
 * "errors":{"<call>":status,…}}]} for the LLM/VLM `handle`. Answers the JSON length, or -1.
 */
HTS_EXPORT int64_t hts_genai_health_json(int32_t handle, char *buf, size_t cap) {
    return guarded("genai_health", [&]() -> int64_t {
        auto vdevice = genai_vdevice(handle);
        if (!vdevice) return -1;
        auto devices = vdevice->get_physical_devices();
        if (!devices) { set_error(devices.status(), "VDevice::get_physical_devices"); return -1; }
        std::ostringstream o;
        o << "{\"devices\":[";
        bool first = true;
        for (Device &d : devices.value()) {
            o << (first ? "" : ",") << "{\"id\":";
            first = false;
            json_string(o, d.get_dev_id() ? d.get_dev_id() : "");
            std::ostringstream errors;
            bool first_error = true;
            auto t = d.get_chip_temperature();
            o << ",\"temperature\":";
            if (t) {
                o << "{\"ts0\":";
                json_number(o, t->ts0_temperature);
                o << ",\"ts1\":";
                json_number(o, t->ts1_temperature);
                o << "}";
            } else {
                o << "null";
                failed(errors, first_error, "get_chip_temperature", t.status());
            }
            auto h = d.query_health_stats();
            o << ",\"health\":";
            if (h) {
                o << "{\"onDie\":";
                json_number(o, h->on_die_temperature);
                o << ",\"voltageMv\":" << h->on_die_voltage << ",\"bistFailureMask\":" << h->bist_failure_mask << "}";
            } else {
                o << "null";
                failed(errors, first_error, "query_health_stats", h.status());
            }
            auto p = d.query_performance_stats();
            o << ",\"performance\":";
            if (p) {
                o << "{\"cpu\":";
                json_number(o, p->cpu_utilization);
                o << ",\"ramTotalKib\":" << p->ram_size_total << ",\"ramUsedKib\":" << p->ram_size_used << ",\"nnc\":";
                json_number(o, p->nnc_utilization);
                o << ",\"dsp\":" << p->dsp_utilization << "}";
            } else {
                o << "null";
                failed(errors, first_error, "query_performance_stats", p.status());
            }
            o << ",\"errors\":{" << errors.str() << "}}";
        }
        o << "]}";
        clear_error();
        return answer_text(o.str(), buf, cap);
    }, static_cast<int64_t>(-1));
}
