/*
 * Fake HailoRT (test stand-in) - genai/speech2text/speech2text.hpp: hailort::genai's Speech2Text
 * classes with the names and signatures of HailoRT's public header, and its drift: the header
 * appeared in 5.1.0; 5.1.1 added the overloads without generator params and tokenize(); 5.2.0 added
 * the repetition penalty (and the three-argument generator-params constructor). Written for the
 * tests; not Hailo's file.
 */
#ifndef _HAILO_GENAI_SPEECH2TEXT_HPP_
#define _HAILO_GENAI_SPEECH2TEXT_HPP_

#include "hailo/hailort.h"
#include "hailo/expected.hpp"
#include "hailo/vdevice.hpp"
#include "hailo/genai/llm/llm.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hailort
{
namespace genai
{

class HAILORTAPI Speech2TextParams
{
public:
    Speech2TextParams() = default;
    Speech2TextParams(std::string_view hef_path);

    hailo_status set_model(std::string_view hef_path);
    std::string_view hef() const;

private:
    std::string m_hef_path;
};

enum class Speech2TextTask {
    TRANSCRIBE = 0,
    TRANSLATE
};

class HAILORTAPI Speech2TextGeneratorParams
{
public:
    hailo_status set_task(Speech2TextTask task);
    hailo_status set_language(std::string_view language);
#if FAKE_HAILORT_AT_LEAST(2, 0)
    hailo_status set_repetition_penalty(float32_t repetition_penalty);
#endif
    Speech2TextTask task() const;
    std::string_view language() const;
#if FAKE_HAILORT_AT_LEAST(2, 0)
    float32_t repetition_penalty() const;
    Speech2TextGeneratorParams(Speech2TextTask task, std::string_view language, float32_t repetition_penalty);
#else
    Speech2TextGeneratorParams(Speech2TextTask task, std::string_view language);
#endif

private:
    Speech2TextGeneratorParams() = default;
    friend class Speech2Text;

    Speech2TextTask m_task = Speech2TextTask::TRANSCRIBE;
    std::string m_language;
#if FAKE_HAILORT_AT_LEAST(2, 0)
    float32_t m_repetition_penalty = 1.0f;
#endif
};

class HAILORTAPI Speech2Text
{
public:
    struct SegmentInfo
    {
        float32_t start_sec;
        float32_t end_sec;
        std::string text;
    };

    static Expected<Speech2Text> create(std::shared_ptr<VDevice> vdevice, const Speech2TextParams &speech2text_params);
    Expected<Speech2TextGeneratorParams> create_generator_params();

    Expected<std::string> generate_all_text(MemoryView audio_buffer, const Speech2TextGeneratorParams &generator_params,
        std::chrono::milliseconds timeout = DEFAULT_OPERATION_TIMEOUT);
#if FAKE_HAILORT_AT_LEAST(1, 1)
    Expected<std::string> generate_all_text(MemoryView audio_buffer, std::chrono::milliseconds timeout = DEFAULT_OPERATION_TIMEOUT);
#endif
    Expected<std::vector<SegmentInfo>> generate_all_segments(MemoryView audio_buffer,
        const Speech2TextGeneratorParams &generator_params, std::chrono::milliseconds timeout = DEFAULT_OPERATION_TIMEOUT);
#if FAKE_HAILORT_AT_LEAST(1, 1)
    Expected<std::vector<SegmentInfo>> generate_all_segments(MemoryView audio_buffer, std::chrono::milliseconds timeout = DEFAULT_OPERATION_TIMEOUT);
    Expected<std::vector<int>> tokenize(const std::string &text);
#endif

    static constexpr std::chrono::milliseconds DEFAULT_OPERATION_TIMEOUT = std::chrono::seconds(10);

    Speech2Text(Speech2Text &&);
    Speech2Text &operator=(Speech2Text &&) = delete;
    Speech2Text(const Speech2Text &) = delete;
    Speech2Text &operator=(const Speech2Text &) = delete;
    virtual ~Speech2Text();

    class Impl;
    Speech2Text(std::unique_ptr<Impl> pimpl);

private:
    std::unique_ptr<Impl> m_pimpl;
};

} /* namespace genai */
} /* namespace hailort */

#endif /* _HAILO_GENAI_SPEECH2TEXT_HPP_ */
