/*
 * Fake HailoRT (test stand-in) - genai/vlm/vlm.hpp: hailort::genai's VLM classes with the names and
 * signatures of HailoRT 5.2.0 (hailort5-api.md §2) and the same drift as llm.hpp (videos since
 * 5.2.0, context calls since 5.1.1, optimize_memory_on_device since 5.1.0). Written for the tests;
 * not Hailo's file.
 */
#ifndef _HAILO_GENAI_VLM_HPP_
#define _HAILO_GENAI_VLM_HPP_

#include "hailo/expected.hpp"
#include "hailo/vdevice.hpp"
#include "hailo/genai/llm/llm.hpp"
#include "hailo/genai/common.hpp"

namespace hailort
{
namespace genai
{

class HAILORTAPI VLMParams
{
public:
    VLMParams() = default;
#if FAKE_HAILORT_AT_LEAST(1, 0)
    VLMParams(const std::string &hef_path, bool optimize_memory_on_device = false) : m_hef_path(hef_path), m_optimize_memory_on_device(optimize_memory_on_device) {}
#else
    VLMParams(const std::string &hef_path) : m_hef_path(hef_path) {}
#endif

    hailo_status set_model(const std::string &hef_path);
    const std::string& hef() const;
#if FAKE_HAILORT_AT_LEAST(1, 0)
    bool optimize_memory_on_device() const;
    void set_optimize_memory_on_device(bool optimize_memory_on_device);
#endif

private:
    std::string m_hef_path;
#if FAKE_HAILORT_AT_LEAST(1, 0)
    bool m_optimize_memory_on_device;
#endif
};

class HAILORTAPI VLMGenerator
{
public:
    VLMGenerator(VLMGenerator &&other);
    VLMGenerator &operator=(VLMGenerator &&) = delete;
    VLMGenerator(const VLMGenerator &) = delete;
    VLMGenerator &operator=(const VLMGenerator &) = delete;
    virtual ~VLMGenerator();

#if FAKE_HAILORT_AT_LEAST(2, 0)
    Expected<LLMGeneratorCompletion> generate(const std::string &prompt, const std::vector<MemoryView> &input_frames,
        const std::vector<std::vector<MemoryView>> &input_videos = {});
    Expected<LLMGeneratorCompletion> generate(const std::vector<std::string> &messages_json_strings, const std::vector<MemoryView> &input_frames,
        const std::vector<std::vector<MemoryView>> &input_videos = {});
#else
    Expected<LLMGeneratorCompletion> generate(const std::string &prompt, const std::vector<MemoryView> &input_frames);
    Expected<LLMGeneratorCompletion> generate(const std::vector<std::string> &messages_json_strings, const std::vector<MemoryView> &input_frames);
#endif

    class Impl;
    VLMGenerator(std::shared_ptr<Impl> pimpl);
private:
    std::shared_ptr<Impl> m_pimpl;
};

class HAILORTAPI VLM
{
public:
    static Expected<VLM> create(std::shared_ptr<VDevice> vdevice, const VLMParams &vlm_params);

    Expected<LLMGeneratorParams> create_generator_params();
    Expected<VLMGenerator> create_generator(const LLMGeneratorParams &params);
    Expected<VLMGenerator> create_generator();
#if FAKE_HAILORT_AT_LEAST(2, 0)
    Expected<LLMGeneratorCompletion> generate(const std::vector<std::string> &messages_json_strings, const std::vector<MemoryView> &input_frames,
        const std::vector<std::vector<MemoryView>> &input_videos = {});
    Expected<LLMGeneratorCompletion> generate(const LLMGeneratorParams &params, const std::vector<std::string> &messages_json_strings,
        const std::vector<MemoryView> &input_frames, const std::vector<std::vector<MemoryView>> &input_videos = {});
#else
    Expected<LLMGeneratorCompletion> generate(const std::vector<std::string> &messages_json_strings, const std::vector<MemoryView> &input_frames);
    Expected<LLMGeneratorCompletion> generate(const LLMGeneratorParams &params, const std::vector<std::string> &messages_json_strings,
        const std::vector<MemoryView> &input_frames);
#endif

    Expected<std::vector<int>> tokenize(const std::string &prompt);
#if FAKE_HAILORT_AT_LEAST(1, 1)
    Expected<size_t> get_context_usage_size();
    Expected<size_t> max_context_capacity();
#endif
    hailo_status clear_context();
#if FAKE_HAILORT_AT_LEAST(1, 1)
    Expected<BufferPtr> save_context();
    hailo_status load_context(const MemoryView &context);
#endif
    hailo_status set_generation_recovery_sequence(const std::string &sequence);
    Expected<std::string> get_generation_recovery_sequence();
    Expected<std::string> prompt_template();
    hailo_status set_stop_tokens(const std::vector<std::string> &stop_tokens);
    Expected<std::vector<std::string>> get_stop_tokens();

    uint32_t input_frame_size() const;
    const hailo_3d_image_shape_t& input_frame_shape() const;
    const hailo_format_type_t& input_frame_format_type() const;
    const hailo_format_order_t& input_frame_format_order() const;

    VLM(VLM &&);
    VLM &operator=(VLM &&) = delete;
    VLM(const VLM &) = delete;
    VLM &operator=(const VLM &) = delete;
    virtual ~VLM();

    class Impl;
    VLM(std::unique_ptr<Impl> pimpl);
private:
    std::unique_ptr<Impl> m_pimpl;
};

} /* namespace genai */
} /* namespace hailort */

#endif /* _HAILO_GENAI_VLM_HPP_ */
