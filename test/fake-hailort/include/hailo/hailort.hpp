/*
 * Fake HailoRT (test stand-in) - hailort.hpp: the umbrella header, with the subset of HailoRT
 * 5.2.0's headers the fake provides. Written for the tests; not Hailo's file.
 */
#ifndef _HAILORT_HPP_
#define _HAILORT_HPP_

#include "hailo/hailort.h"
#include "hailo/hailort_common.hpp"
#include "hailo/hef.hpp"
#include "hailo/device.hpp"
#include "hailo/vdevice.hpp"
#include "hailo/infer_model.hpp"
#include "hailo/expected.hpp"
#include "hailo/buffer.hpp"
#if FAKE_HAILORT_VERSION_AT_LEAST(5, 0, 0)
// 4.x's umbrella header includes no GenAI (its GenAI API is another, older one the fake does not model).
#include "hailo/genai/llm/llm.hpp"
#include "hailo/genai/vlm/vlm.hpp"
#include "hailo/genai/common.hpp"
#endif

#endif /* _HAILORT_HPP_ */
