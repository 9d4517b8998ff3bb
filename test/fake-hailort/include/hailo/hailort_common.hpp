/*
 * Fake HailoRT (test stand-in) - hailort_common.hpp: HAILO_INFINITE_TIMEOUT and the HailoRTCommon
 * name helpers of HailoRT 5.2.0 that the shim uses (same names, same strings). Written for the
 * tests; not Hailo's file.
 */
#ifndef _HAILO_HAILORT_COMMON_HPP_
#define _HAILO_HAILORT_COMMON_HPP_

#include "hailo/hailort.h"
#include "hailo/expected.hpp"
#include "hailo/buffer.hpp"

#include <chrono>
#include <string>

namespace hailort
{

class HAILORTAPI HailoRTCommon final
{
public:
    HailoRTCommon() = delete;

    static std::string get_format_type_str(const hailo_format_type_t &type)
    {
        switch (type) {
        case HAILO_FORMAT_TYPE_UINT8: return "UINT8";
        case HAILO_FORMAT_TYPE_UINT16: return "UINT16";
        case HAILO_FORMAT_TYPE_FLOAT32: return "FLOAT32";
        case HAILO_FORMAT_TYPE_AUTO: return "AUTO";
        default: return "INVALID_FORMAT_TYPE";
        }
    }

    static std::string get_device_arch_str(const hailo_device_architecture_t &arch)
    {
        // 4.x named 4 PLUTO (before 4.20) and 7 MARS (4.21-4.23); 7 does not exist before 4.21.
#if FAKE_HAILORT_VERSION_AT_LEAST(5, 0, 0)
        static const char *const names[] = {"HAILO8_A0", "HAILO8", "HAILO8L", "HAILO15H", "HAILO15L", "HAILO15M", "HAILO10H", "HAILO12L"};
#elif FAKE_HAILORT_VERSION_AT_LEAST(4, 21, 0)
        static const char *const names[] = {"HAILO8_A0", "HAILO8", "HAILO8L", "HAILO15H", "HAILO15L", "HAILO15M", "HAILO10H", "MARS"};
#elif FAKE_HAILORT_VERSION_AT_LEAST(4, 20, 0)
        static const char *const names[] = {"HAILO8_A0", "HAILO8", "HAILO8L", "HAILO15H", "HAILO15L", "HAILO15M", "HAILO10H"};
#else
        static const char *const names[] = {"HAILO8_A0", "HAILO8", "HAILO8L", "HAILO15H", "PLUTO", "HAILO15M", "HAILO10H"};
#endif
        const int i = static_cast<int>(arch);
        return (i >= 0 && i < static_cast<int>(sizeof names / sizeof names[0])) ? names[i] : "UNKNOWN ARCHITECTURE";
    }

    static std::string get_format_order_str(const hailo_format_order_t &order)
    {
        switch (order) {
        case HAILO_FORMAT_ORDER_NHWC: return "NHWC";
        case HAILO_FORMAT_ORDER_NHCW: return "NHCW";
        case HAILO_FORMAT_ORDER_FCR: return "FCR";
        case HAILO_FORMAT_ORDER_F8CR: return "F8CR";
        case HAILO_FORMAT_ORDER_NHW: return "NHW";
        case HAILO_FORMAT_ORDER_NC: return "NC";
        case HAILO_FORMAT_ORDER_BAYER_RGB: return "BAYER RGB";
        case HAILO_FORMAT_ORDER_12_BIT_BAYER_RGB: return "12 BIT BAYER RGB";
        case HAILO_FORMAT_ORDER_RGB888: return "RGB 888";
        case HAILO_FORMAT_ORDER_NCHW: return "NCHW";
        case HAILO_FORMAT_ORDER_YUY2: return "YUY2";
        case HAILO_FORMAT_ORDER_NV12: return "NV12";
        case HAILO_FORMAT_ORDER_HAILO_YYUV: return "YYUV";
        case HAILO_FORMAT_ORDER_NV21: return "NV21";
        case HAILO_FORMAT_ORDER_HAILO_YYVU: return "YYVU";
        case HAILO_FORMAT_ORDER_RGB4: return "RGB4";
        case HAILO_FORMAT_ORDER_I420: return "I420";
        case HAILO_FORMAT_ORDER_HAILO_YYYYUV: return "YYYYUV";
        case HAILO_FORMAT_ORDER_HAILO_NMS_WITH_BYTE_MASK: return "HAILO NMS WITH BYTE MASK";
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 20, 0)
        case HAILO_FORMAT_ORDER_HAILO_NMS_ON_CHIP: return "HAILO NMS ON CHIP";
        case HAILO_FORMAT_ORDER_HAILO_NMS_BY_CLASS: return "HAILO NMS BY CLASS";
        case HAILO_FORMAT_ORDER_HAILO_NMS_BY_SCORE: return "HAILO NMS BY SCORE";
#endif
        default: return "INVALID_FORMAT_ORDER"; // AUTO and HAILO_NMS too, as in 5.2.0
        }
    }
};

constexpr std::chrono::milliseconds HAILO_INFINITE_TIMEOUT(UINT32_MAX);

} /* namespace hailort */

#endif /* _HAILO_HAILORT_COMMON_HPP_ */
