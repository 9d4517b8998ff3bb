/*
 * Fake HailoRT (test stand-in) - infer_model.hpp: InferModel, ConfiguredInferModel, Bindings,
 * AsyncInferJob and AsyncInferCompletionInfo with the members the shim uses, signatures as in
 * HailoRT 5.2.0 (hailort5-api.md §1.3-1.4): move-only AsyncInferJob, pimpl classes with private
 * constructors, the default empty callback; 4.18 passed Bindings by value and had no const
 * accessors (4.19 added them), get_async_queue_size is const since 4.21. Written for the tests; not Hailo's file.
 */
#ifndef _HAILO_ASYNC_INFER_HPP_
#define _HAILO_ASYNC_INFER_HPP_

#include "hailo/hailort.h"
#include "hailo/expected.hpp"
#include "hailo/buffer.hpp"
#include "hailo/hef.hpp"
#include "hailo/vdevice.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace hailort
{

class AsyncInferJobBase;
class ConfiguredInferModelBase;
class FakeAccess;

class HAILORTAPI AsyncInferJob
{
public:
    AsyncInferJob() : m_should_wait_in_dtor(false) {};
    virtual ~AsyncInferJob();

    AsyncInferJob(const AsyncInferJob &other) = delete;
    AsyncInferJob &operator=(const AsyncInferJob &other) = delete;
    AsyncInferJob(AsyncInferJob &&other);
    AsyncInferJob &operator=(AsyncInferJob &&other);

    hailo_status wait(std::chrono::milliseconds timeout);
    void detach();

private:
    friend class FakeAccess;

    AsyncInferJob(std::shared_ptr<AsyncInferJobBase> pimpl);
    std::shared_ptr<AsyncInferJobBase> m_pimpl;
    bool m_should_wait_in_dtor;
};

struct AsyncInferCompletionInfo;

static const auto ASYNC_INFER_EMPTY_CALLBACK = [](const AsyncInferCompletionInfo&) {};

class HAILORTAPI ConfiguredInferModel
{
public:
    ConfiguredInferModel() = default;

    class HAILORTAPI Bindings
    {
    public:
        Bindings() = default;
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 19, 0)
        Bindings(const Bindings &other);
        Bindings &operator=(const Bindings &other);
#endif

        class HAILORTAPI InferStream
        {
        public:
            hailo_status set_buffer(MemoryView view);
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 19, 0)
            Expected<MemoryView> get_buffer() const;
#else
            Expected<MemoryView> get_buffer();
#endif

        private:
            friend class FakeAccess;
            friend class Bindings;

            class Impl;
            InferStream(std::shared_ptr<Impl> pimpl);
            std::shared_ptr<Impl> m_pimpl;
        };

        Expected<InferStream> input();
        Expected<InferStream> output();
        Expected<InferStream> input(const std::string &name);
        Expected<InferStream> output(const std::string &name);
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 19, 0)
        Expected<InferStream> input() const;
        Expected<InferStream> output() const;
        Expected<InferStream> input(const std::string &name) const;
        Expected<InferStream> output(const std::string &name) const;
#endif

    private:
        friend class FakeAccess;

        Bindings(std::unordered_map<std::string, InferStream> &&inputs,
            std::unordered_map<std::string, InferStream> &&outputs);

        std::unordered_map<std::string, Bindings::InferStream> m_inputs;
        std::unordered_map<std::string, Bindings::InferStream> m_outputs;
    };

    Expected<Bindings> create_bindings();

    hailo_status wait_for_async_ready(std::chrono::milliseconds timeout, uint32_t frames_count = 1);

#if FAKE_HAILORT_VERSION_AT_LEAST(4, 19, 0)
    hailo_status run(const Bindings &bindings, std::chrono::milliseconds timeout);

    Expected<AsyncInferJob> run_async(const Bindings &bindings,
        std::function<void(const AsyncInferCompletionInfo &)> callback = ASYNC_INFER_EMPTY_CALLBACK);
#else
    hailo_status run(Bindings bindings, std::chrono::milliseconds timeout);

    Expected<AsyncInferJob> run_async(Bindings bindings,
        std::function<void(const AsyncInferCompletionInfo &)> callback = ASYNC_INFER_EMPTY_CALLBACK);
#endif

#if FAKE_HAILORT_VERSION_AT_LEAST(4, 21, 0)
    Expected<size_t> get_async_queue_size() const;
#else
    Expected<size_t> get_async_queue_size();
#endif

    hailo_status shutdown();

private:
    friend class FakeAccess;

    ConfiguredInferModel(std::shared_ptr<ConfiguredInferModelBase> pimpl);
    std::shared_ptr<ConfiguredInferModelBase> m_pimpl;
};

struct HAILORTAPI AsyncInferCompletionInfo
{
    AsyncInferCompletionInfo(hailo_status _status) : status(_status) {}

    hailo_status status;
};

class HAILORTAPI InferModel
{
public:
    virtual ~InferModel() = default;

    class HAILORTAPI InferStream
    {
    public:
        const std::string name() const;
        hailo_3d_image_shape_t shape() const;
        hailo_format_t format() const;
        size_t get_frame_size() const;
        Expected<hailo_nms_shape_t> get_nms_shape() const;
        void set_format_type(hailo_format_type_t type);
        void set_format_order(hailo_format_order_t order);
        std::vector<hailo_quant_info_t> get_quant_infos() const;
        bool is_nms() const;

    private:
        friend class FakeAccess;

        class Impl;
        InferStream(std::shared_ptr<Impl> pimpl);
        std::shared_ptr<Impl> m_pimpl;
    };

    virtual const Hef &hef() const = 0;
    virtual void set_batch_size(uint16_t batch_size) = 0;
    virtual void set_power_mode(hailo_power_mode_t power_mode) = 0;
    virtual Expected<ConfiguredInferModel> configure() = 0;
    virtual Expected<InferStream> input() = 0;
    virtual Expected<InferStream> output() = 0;
    virtual Expected<InferStream> input(const std::string &name) = 0;
    virtual Expected<InferStream> output(const std::string &name) = 0;
    virtual const std::vector<InferStream> &inputs() const = 0;
    virtual const std::vector<InferStream> &outputs() const = 0;
    virtual const std::vector<std::string> &get_input_names() const = 0;
    virtual const std::vector<std::string> &get_output_names() const = 0;
};

} /* namespace hailort */

#endif /* _HAILO_ASYNC_INFER_HPP_ */
