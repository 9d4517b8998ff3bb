/*
 * Fake HailoRT (test stand-in) - genai/llm/llm.hpp: hailort::genai's LLM classes with the names and
 * signatures of HailoRT 5.2.0 (hailort5-api.md §2), following the drift between tags (checked
 * against v5.0.1, v5.1.1, v5.2.0, see native/README.md): `optimize_memory_on_device` since 5.1.0,
 * the context calls (usage, capacity, save, load) since 5.1.1, the tools argument since 5.2.0 —
 * chosen by HAILORT_*_VERSION, which the fake is built with. Written for the tests; not Hailo's file.
 */
#ifndef _HAILO_GENAI_LLM_HPP_
#define _HAILO_GENAI_LLM_HPP_

#include "hailo/expected.hpp"
#include "hailo/vdevice.hpp"
#include "hailo/buffer.hpp"
#include "hailo/genai/common.hpp"
#include "hailo/hailort_common.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#define FAKE_HAILORT_AT_LEAST(minor, revision) \
    (HAILORT_MAJOR_VERSION > 5 || (HAILORT_MAJOR_VERSION == 5 && (HAILORT_MINOR_VERSION > (minor) || \
        (HAILORT_MINOR_VERSION == (minor) && HAILORT_REVISION_VERSION >= (revision)))))

namespace hailort
{
namespace genai
{

class LLM;

class HAILORTAPI LLMParams
{
public:
    LLMParams() = default;
#if FAKE_HAILORT_AT_LEAST(1, 0)
    LLMParams(const std::string &hef_path, const std::string &lora_name = "", bool optimize_memory_on_device = false);
#else
    LLMParams(const std::string &hef_path, const std::string &lora_name = "");
#endif

    hailo_status set_model(const std::string &hef_path, const std::string &lora_name="");
    const std::string& hef() const;
    const std::string& lora() const;
#if FAKE_HAILORT_AT_LEAST(1, 0)
    bool optimize_memory_on_device() const;
    void set_optimize_memory_on_device(bool optimize_memory_on_device);
#endif

private:
    std::string m_hef_path;
    std::string m_lora;
#if FAKE_HAILORT_AT_LEAST(1, 0)
    bool m_optimize_memory_on_device;
#endif
};

class HAILORTAPI LLMGeneratorParams
{
public:
    hailo_status set_temperature(float32_t temperature);
    float32_t temperature() const;
    hailo_status set_top_p(float32_t top_p);
    float32_t top_p() const;
    hailo_status set_top_k(uint32_t top_k);
    uint32_t top_k() const;
    hailo_status set_frequency_penalty(float32_t frequency_penalty);
    float32_t frequency_penalty() const;
    hailo_status set_max_generated_tokens(uint32_t max_generated_tokens);
    uint32_t max_generated_tokens() const;
    hailo_status set_do_sample(bool do_sample);
    bool do_sample() const;
    hailo_status set_seed(uint32_t seed);
    uint32_t seed() const;

    LLMGeneratorParams(float32_t temperature, float32_t top_p, uint32_t top_k, float32_t frequency_penalty,
        uint32_t max_generated_tokens, bool do_sample, uint32_t seed) :
            m_temperature(temperature), m_top_p(top_p), m_top_k(top_k), m_frequency_penalty(frequency_penalty),
            m_max_generated_tokens(max_generated_tokens), m_do_sample(do_sample), m_seed(seed) {}

private:
    LLMGeneratorParams() = default;
    friend class LLM;

    float32_t m_temperature;
    float32_t m_top_p;
    uint32_t m_top_k;
    float32_t m_frequency_penalty;
    uint32_t m_max_generated_tokens;
    bool m_do_sample;
    uint32_t m_seed;
};

class HAILORTAPI LLMGeneratorCompletion final
{
public:
    LLMGeneratorCompletion(LLMGeneratorCompletion &&);
    LLMGeneratorCompletion(const LLMGeneratorCompletion &) = delete;
    LLMGeneratorCompletion &operator=(LLMGeneratorCompletion &&) = delete;
    LLMGeneratorCompletion &operator=(const LLMGeneratorCompletion &) = delete;
    ~LLMGeneratorCompletion();

    enum class Status {
        GENERATING = 0,
        MAX_TOKENS_REACHED,
        LOGICAL_END_OF_GENERATION,
        ABORTED,

        COUNT,

        MAX_VALUE = HAILO_MAX_ENUM,
    };

    Expected<size_t> read(char *output, size_t output_size, std::chrono::milliseconds timeout = DEFAULT_READ_TIMEOUT);
    Expected<std::string> read(std::chrono::milliseconds timeout = DEFAULT_READ_TIMEOUT);
    Expected<std::string> read_all(std::chrono::milliseconds timeout = HAILO_INFINITE_TIMEOUT);
    Status generation_status() const;
    hailo_status abort();

    static constexpr std::chrono::milliseconds DEFAULT_READ_TIMEOUT = std::chrono::seconds(10);

    class Impl;
    LLMGeneratorCompletion(std::unique_ptr<Impl> pimpl);
private:
    std::unique_ptr<Impl> m_pimpl;
};

class HAILORTAPI LLMGenerator
{
public:
    LLMGenerator(LLMGenerator &&other);
    LLMGenerator &operator=(LLMGenerator &&) = delete;
    LLMGenerator(const LLMGenerator &) = delete;
    LLMGenerator &operator=(const LLMGenerator &) = delete;
    virtual ~LLMGenerator();

    hailo_status write(const std::string &prompt);
#if FAKE_HAILORT_AT_LEAST(2, 0)
    hailo_status write(const std::vector<std::string> &prompt_json_strings, const std::vector<std::string> &tools_json_strings = {});
#else
    hailo_status write(const std::vector<std::string> &prompt_json_strings);
#endif
    Expected<LLMGeneratorCompletion> generate();

    class Impl;
    LLMGenerator(std::shared_ptr<Impl> pimpl);
private:
    std::shared_ptr<Impl> m_pimpl;
};

class HAILORTAPI LLM
{
public:
    static Expected<LLM> create(std::shared_ptr<VDevice> vdevice, const LLMParams &llm_params);

    Expected<LLMGeneratorParams> create_generator_params();
    Expected<LLMGenerator> create_generator(const LLMGeneratorParams &params);
    Expected<LLMGenerator> create_generator();
#if FAKE_HAILORT_AT_LEAST(2, 0)
    Expected<LLMGeneratorCompletion> generate(const std::vector<std::string> &prompt_json_strings, const std::vector<std::string> &tools_json_strings = {});
    Expected<LLMGeneratorCompletion> generate(const LLMGeneratorParams &params, const std::vector<std::string> &prompt_json_strings,
        const std::vector<std::string> &tools_json_strings = {});
#else
    Expected<LLMGeneratorCompletion> generate(const std::vector<std::string> &prompt_json_strings);
    Expected<LLMGeneratorCompletion> generate(const LLMGeneratorParams &params, const std::vector<std::string> &prompt_json_strings);
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

    LLM(LLM &&);
    LLM &operator=(LLM &&) = delete;
    LLM(const LLM &) = delete;
    LLM &operator=(const LLM &) = delete;
    virtual ~LLM();

    class Impl;
    LLM(std::unique_ptr<Impl> pimpl);
private:
    std::unique_ptr<Impl> m_pimpl;
};

} /* namespace genai */
} /* namespace hailort */

#endif /* _HAILO_GENAI_LLM_HPP_ */
