/*
 * Fake HailoRT (test stand-in) - hef.hpp: hailort::Hef with the members the shim uses, signatures
 * as in HailoRT 5.2.0 (hailort5-api.md §1.5). get_external_resources follows the API drift: the
 * per-name form since 5.1, the map form in 5.0.x, and 5.0.x names one architecture
 * (get_hef_device_arch) where 5.1+ lists them (get_compatible_device_archs) — chosen by
 * HAILORT_*_VERSION, which the fake is built with, as HailoRT's CMake target passes them. Written for the tests; not Hailo's file.
 */
#ifndef _HAILO_HEF_HPP_
#define _HAILO_HEF_HPP_

#include "hailo/hailort.h"
#include "hailo/expected.hpp"
#include "hailo/buffer.hpp"

#include <vector>
#include <memory>
#include <map>
#include <string>

namespace hailort
{

class HAILORTAPI Hef final
{
public:
    static Expected<Hef> create(const std::string &hef_path);
    static Expected<Hef> create(const MemoryView &hef_buffer);

#if defined(HAILORT_MAJOR_VERSION) && (HAILORT_MAJOR_VERSION == 5) && (HAILORT_MINOR_VERSION == 0)
    Expected<hailo_device_architecture_t> get_hef_device_arch() const;
#else
    Expected<std::vector<hailo_device_architecture_t>> get_compatible_device_archs() const;
#endif
    static Expected<std::string> device_arch_to_string(const hailo_device_architecture_t arch);

    std::vector<std::string> get_network_groups_names() const;
    std::string hash() const;
    static Expected<std::string> hash(const std::string &hef_path);

#if defined(HAILORT_MAJOR_VERSION) && (HAILORT_MAJOR_VERSION == 5) && (HAILORT_MINOR_VERSION == 0)
    Expected<std::map<std::string, MemoryView>> get_external_resources() const;
#else
    Expected<MemoryView> get_external_resources(const std::string &resource_name) const;
    std::vector<std::string> get_external_resource_names() const;
#endif

    ~Hef();
    Hef(Hef &&);
    Hef &operator=(Hef &&);
    Hef(const Hef &) = default;
    Hef &operator=(const Hef &) = delete;

private:
    friend class FakeAccess;

    class Impl;
    Hef(std::shared_ptr<Impl> pimpl);
    std::shared_ptr<Impl> pimpl;
};

} /* namespace hailort */

#endif /* _HAILO_HEF_HPP_ */
