/*
 * Fake HailoRT (test stand-in) - vdevice.hpp: hailort::VDevice with the members the shim uses,
 * signatures as in HailoRT 5.2.0 (hailort5-api.md §1.2); copy and move deleted, protected
 * constructor, as in the real class; create_shared exists since 4.21. Written for the tests; not Hailo's file.
 */
#ifndef _HAILO_VDEVICE_HPP_
#define _HAILO_VDEVICE_HPP_

#include "hailo/hailort.h"
#include "hailo/expected.hpp"
#include "hailo/hef.hpp"
#include "hailo/device.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace hailort
{

class InferModel;

class HAILORTAPI VDevice
{
public:
    static Expected<std::unique_ptr<VDevice>> create(const hailo_vdevice_params_t &params);
    static Expected<std::unique_ptr<VDevice>> create();
    static Expected<std::unique_ptr<VDevice>> create(const std::vector<std::string> &device_ids);
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 21, 0)
    static Expected<std::shared_ptr<VDevice>> create_shared(const hailo_vdevice_params_t &params);
    static Expected<std::shared_ptr<VDevice>> create_shared();
    static Expected<std::shared_ptr<VDevice>> create_shared(const std::vector<std::string> &device_ids);
#endif

    virtual Expected<std::shared_ptr<InferModel>> create_infer_model(const std::string &hef_path,
        const std::string &name = "");
    virtual Expected<std::shared_ptr<InferModel>> create_infer_model(const MemoryView hef_buffer,
        const std::string &name = "");

    virtual Expected<std::vector<std::reference_wrapper<Device>>> get_physical_devices() const = 0;
    virtual Expected<std::vector<std::string>> get_physical_devices_ids() const = 0;

    virtual hailo_status dma_map(void *address, size_t size, hailo_dma_buffer_direction_t direction) = 0;
    virtual hailo_status dma_unmap(void *address, size_t size, hailo_dma_buffer_direction_t direction) = 0;

    virtual ~VDevice() = default;
    VDevice(const VDevice &) = delete;
    VDevice &operator=(const VDevice &) = delete;
    VDevice(VDevice &&) = delete;
    VDevice &operator=(VDevice &&other) = delete;

protected:
    VDevice(const hailo_vdevice_params_t &params) : m_params(params) {};

    hailo_vdevice_params_t m_params;
};

} /* namespace hailort */

#endif /* _HAILO_VDEVICE_HPP_ */
