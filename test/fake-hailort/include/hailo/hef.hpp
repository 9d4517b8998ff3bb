/*
 * Fake HailoRT (test stand-in) - hef.hpp: hailort::Hef with the members the shim uses, signatures
 * as in HailoRT 5.2.0 (hailort5-api.md §1.5) and the drift of the version the fake is built as
 * (HAILORT_*_VERSION, as HailoRT's CMake target passes them): up to 5.0 a HEF names one architecture
 * (get_hef_device_arch), 5.1+ lists them (get_compatible_device_archs); external resources are absent
 * before 4.21, a map of strings in 4.21-4.23, a map of MemoryViews in 5.0.x and per name since 5.1;
 * hash(path) exists since 5.0; a Hef is copyable since 4.21. Written for the tests; not Hailo's file.
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

#if !FAKE_HAILORT_VERSION_AT_LEAST(5, 1, 0)
    Expected<hailo_device_architecture_t> get_hef_device_arch() const;
#else
    Expected<std::vector<hailo_device_architecture_t>> get_compatible_device_archs() const;
#endif
    static Expected<std::string> device_arch_to_string(const hailo_device_architecture_t arch);

    std::vector<std::string> get_network_groups_names() const;
    std::string hash() const;
#if FAKE_HAILORT_VERSION_AT_LEAST(5, 0, 0)
    static Expected<std::string> hash(const std::string &hef_path);
#endif

#if !FAKE_HAILORT_VERSION_AT_LEAST(4, 21, 0)
    // no external resources before 4.21
#elif HAILORT_MAJOR_VERSION == 4
    Expected<std::map<std::string, std::string>> get_external_resources() const;
#elif HAILORT_MAJOR_VERSION == 5 && HAILORT_MINOR_VERSION == 0
    Expected<std::map<std::string, MemoryView>> get_external_resources() const;
#else
    Expected<MemoryView> get_external_resources(const std::string &resource_name) const;
    std::vector<std::string> get_external_resource_names() const;
#endif

    ~Hef();
    Hef(Hef &&);
    Hef &operator=(Hef &&);
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 21, 0)
    Hef(const Hef &) = default;
#else
    Hef(const Hef &) = delete;
#endif
    Hef &operator=(const Hef &) = delete;

private:
    friend class FakeAccess;

    class Impl;
    Hef(std::shared_ptr<Impl> pimpl);
    std::shared_ptr<Impl> pimpl;
};

} /* namespace hailort */

#endif /* _HAILO_HEF_HPP_ */
