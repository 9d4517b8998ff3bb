/*
 * Fake HailoRT (test stand-in) - genai/common.hpp: the BUILTIN marker of HailoRT 5.x's GenAI API
 * (hailort5-api.md §2). Written for the tests; not Hailo's file.
 */
#ifndef _HAILO_GENAI_COMMON_HPP_
#define _HAILO_GENAI_COMMON_HPP_

#include <string>

namespace hailort
{
namespace genai
{

/* Names a model built into the device (then a LoRA name is required). */
const std::string BUILTIN = "<builtin>";

} /* namespace genai */
} /* namespace hailort */

#endif /* _HAILO_GENAI_COMMON_HPP_ */
