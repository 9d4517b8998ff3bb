/*
 * Fake HailoRT (test stand-in) - device.hpp: hailort::Device with the members the shim uses,
 * signatures as in HailoRT 5.2.0 (hailort5-api.md §1.6); copy and move deleted as in the real
 * class. Written for the tests; not Hailo's file.
 */
#ifndef _HAILO_DEVICE_HPP_
#define _HAILO_DEVICE_HPP_

#include "hailo/hailort.h"
#include "hailo/expected.hpp"
#include "hailo/hef.hpp"

#include <vector>
#include <memory>
#include <chrono>
#include <string>

namespace hailort
{

class HAILORTAPI Device
{
public:
    enum class Type {
        PCIE = 0,
        ETH,
        INTEGRATED
    };

    static Expected<std::vector<std::string>> scan();
    static Expected<std::unique_ptr<Device>> create();
    static Expected<std::unique_ptr<Device>> create(const std::string &device_id);

    virtual Expected<hailo_device_identity_t> identify();
    virtual Expected<hailo_device_architecture_t> get_architecture() const = 0;
    virtual const char* get_dev_id() const = 0;
    virtual Expected<hailo_chip_temperature_info_t> get_chip_temperature();
    /* Hailo-10/Hailo-15 on Linux only (75, HAILO_INVALID_DEVICE_ARCHITECTURE, elsewhere). */
    virtual Expected<hailo_health_stats_t> query_health_stats();
    virtual Expected<hailo_performance_stats_t> query_performance_stats();

    virtual ~Device() = default;
    Device(const Device &) = delete;
    Device &operator=(const Device &) = delete;
    Device(Device &&) = delete;
    Device &operator=(Device &&other) = delete;

protected:
    Device(Type type);

    Type m_type;
    hailo_device_architecture_t m_device_architecture;
};

} /* namespace hailort */

#endif /* _HAILO_DEVICE_HPP_ */
