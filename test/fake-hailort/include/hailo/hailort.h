/*
 * Fake HailoRT (test stand-in) - hailort.h: the C types, macros and functions of HailoRT's hailort.h
 * that the hailo-tools shim uses, with the real names, values and layouts of the version the fake is
 * built as (HAILORT_{MAJOR,MINOR,REVISION}_VERSION, as HailoRT's CMake target passes them): 5.2.0
 * (../shared/docs/hailort5-api.md §1.8, §5) and the 4.18 … 5.1 drift read from the v4.18.0 … v5.1.1
 * headers (native/README.md). Written for the tests; not Hailo's file.
 */
#ifndef _HAILORT_H_
#define _HAILORT_H_

#ifdef __cplusplus
extern "C" {
#endif

#include "platform.h"

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <limits.h>

#define HAILO_MAX_ENUM (INT_MAX)
#define HAILO_INFINITE (UINT32_MAX)
#define HAILO_MAX_NAME_SIZE (128)
#define HAILO_MAX_STREAM_NAME_SIZE (HAILO_MAX_NAME_SIZE)
#define HAILO_MAX_BOARD_NAME_LENGTH (32)
#define HAILO_MAX_DEVICE_ID_LENGTH (32)
#define HAILO_MAX_SERIAL_NUMBER_LENGTH (16)
#define HAILO_MAX_PART_NUMBER_LENGTH (16)
#define HAILO_MAX_PRODUCT_NAME_LENGTH (42)
#define HAILO_DEFAULT_BATCH_SIZE (0)
#define HAILO_UNIQUE_VDEVICE_GROUP_ID ("UNIQUE")
#define HAILO_RANDOM_SEED (UINT32_MAX)

/* Not in HailoRT: which version's names and layouts this fake header describes. */
#if !defined(HAILORT_MAJOR_VERSION) || !defined(HAILORT_MINOR_VERSION) || !defined(HAILORT_REVISION_VERSION)
#error "the fake HailoRT headers need HAILORT_{MAJOR,MINOR,REVISION}_VERSION (test/fakes/fakeHailort.ts passes them)"
#endif
#define FAKE_HAILORT_VERSION_AT_LEAST(major, minor, revision) \
    (HAILORT_MAJOR_VERSION > (major) || (HAILORT_MAJOR_VERSION == (major) && (HAILORT_MINOR_VERSION > (minor) || \
        (HAILORT_MINOR_VERSION == (minor) && HAILORT_REVISION_VERSION >= (revision)))))

typedef float float32_t;
typedef double float64_t;

/* hailo_status: every value of the version (5.2.0: 0..97). By tag: 85-90 since 4.20.0, 91-93 since
 * 4.21.0, 94-96 since 5.0.0, 97 since 5.1.0; 36 and 64 were DRIVER_FAIL and PCIE_DRIVER_NOT_INSTALLED
 * before 4.20.0. */
typedef enum {
    HAILO_SUCCESS = 0, HAILO_UNINITIALIZED = 1, HAILO_INVALID_ARGUMENT = 2, HAILO_OUT_OF_HOST_MEMORY = 3,
    HAILO_TIMEOUT = 4, HAILO_INSUFFICIENT_BUFFER = 5, HAILO_INVALID_OPERATION = 6, HAILO_NOT_IMPLEMENTED = 7,
    HAILO_INTERNAL_FAILURE = 8, HAILO_DATA_ALIGNMENT_FAILURE = 9, HAILO_CHUNK_TOO_LARGE = 10,
    HAILO_INVALID_LOGGER_LEVEL = 11, HAILO_CLOSE_FAILURE = 12, HAILO_OPEN_FILE_FAILURE = 13,
    HAILO_FILE_OPERATION_FAILURE = 14, HAILO_UNSUPPORTED_CONTROL_PROTOCOL_VERSION = 15,
    HAILO_UNSUPPORTED_FW_VERSION = 16, HAILO_INVALID_CONTROL_RESPONSE = 17, HAILO_FW_CONTROL_FAILURE = 18,
    HAILO_ETH_FAILURE = 19, HAILO_ETH_INTERFACE_NOT_FOUND = 20, HAILO_ETH_RECV_FAILURE = 21,
    HAILO_ETH_SEND_FAILURE = 22, HAILO_INVALID_FIRMWARE = 23, HAILO_INVALID_CONTEXT_COUNT = 24,
    HAILO_INVALID_FRAME = 25, HAILO_INVALID_HEF = 26, HAILO_PCIE_NOT_SUPPORTED_ON_PLATFORM = 27,
    HAILO_INTERRUPTED_BY_SIGNAL = 28, HAILO_START_VDMA_CHANNEL_FAIL = 29, HAILO_SYNC_VDMA_BUFFER_FAIL = 30,
    HAILO_STOP_VDMA_CHANNEL_FAIL = 31, HAILO_CLOSE_VDMA_CHANNEL_FAIL = 32,
    HAILO_ATR_TABLES_CONF_VALIDATION_FAIL = 33, HAILO_EVENT_CREATE_FAIL = 34, HAILO_READ_EVENT_FAIL = 35,
    
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 20, 0)
    HAILO_DRIVER_OPERATION_FAILED = 36,
#else
    HAILO_DRIVER_FAIL = 36,
#endif
    HAILO_INVALID_FIRMWARE_MAGIC = 37, HAILO_INVALID_FIRMWARE_CODE_SIZE = 38,
    HAILO_INVALID_KEY_CERTIFICATE_SIZE = 39, HAILO_INVALID_CONTENT_CERTIFICATE_SIZE = 40,
    HAILO_MISMATCHING_FIRMWARE_BUFFER_SIZES = 41, HAILO_INVALID_FIRMWARE_CPU_ID = 42,
    HAILO_CONTROL_RESPONSE_MD5_MISMATCH = 43, HAILO_GET_CONTROL_RESPONSE_FAIL = 44,
    HAILO_GET_D2H_EVENT_MESSAGE_FAIL = 45, HAILO_MUTEX_INIT_FAIL = 46, HAILO_OUT_OF_DESCRIPTORS = 47,
    HAILO_UNSUPPORTED_OPCODE = 48, HAILO_USER_MODE_RATE_LIMITER_NOT_SUPPORTED = 49,
    HAILO_RATE_LIMIT_MAXIMUM_BANDWIDTH_EXCEEDED = 50, HAILO_ANSI_TO_UTF16_CONVERSION_FAILED = 51,
    HAILO_UTF16_TO_ANSI_CONVERSION_FAILED = 52, HAILO_UNEXPECTED_INTERFACE_INFO_FAILURE = 53,
    HAILO_UNEXPECTED_ARP_TABLE_FAILURE = 54, HAILO_MAC_ADDRESS_NOT_FOUND = 55, HAILO_NO_IPV4_INTERFACES_FOUND = 56,
    HAILO_SHUTDOWN_EVENT_SIGNALED = 57, HAILO_THREAD_ALREADY_ACTIVATED = 58, HAILO_THREAD_NOT_ACTIVATED = 59,
    HAILO_THREAD_NOT_JOINABLE = 60, HAILO_NOT_FOUND = 61, HAILO_COMMUNICATION_CLOSED = 62, HAILO_STREAM_ABORT = 63,
    
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 20, 0)
    HAILO_DRIVER_NOT_INSTALLED = 64,
#else
    HAILO_PCIE_DRIVER_NOT_INSTALLED = 64,
#endif
    HAILO_NOT_AVAILABLE = 65, HAILO_TRAFFIC_CONTROL_FAILURE = 66,
    HAILO_INVALID_SECOND_STAGE = 67, HAILO_INVALID_PIPELINE = 68, HAILO_NETWORK_GROUP_NOT_ACTIVATED = 69,
    HAILO_VSTREAM_PIPELINE_NOT_ACTIVATED = 70, HAILO_OUT_OF_FW_MEMORY = 71, HAILO_STREAM_NOT_ACTIVATED = 72,
    HAILO_DEVICE_IN_USE = 73, HAILO_OUT_OF_PHYSICAL_DEVICES = 74, HAILO_INVALID_DEVICE_ARCHITECTURE = 75,
    HAILO_INVALID_DRIVER_VERSION = 76, HAILO_RPC_FAILED = 77, HAILO_INVALID_SERVICE_VERSION = 78,
    HAILO_NOT_SUPPORTED = 79, HAILO_NMS_BURST_INVALID_DATA = 80, HAILO_OUT_OF_HOST_CMA_MEMORY = 81,
    HAILO_QUEUE_IS_FULL = 82, HAILO_DMA_MAPPING_ALREADY_EXISTS = 83, HAILO_CANT_MEET_BUFFER_REQUIREMENTS = 84,
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 20, 0)
    HAILO_DRIVER_INVALID_RESPONSE = 85, HAILO_DRIVER_INVALID_IOCTL = 86, HAILO_DRIVER_TIMEOUT = 87,
    HAILO_DRIVER_INTERRUPTED = 88, HAILO_CONNECTION_REFUSED = 89, HAILO_DRIVER_WAIT_CANCELED = 90,
#endif
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 21, 0)
    HAILO_HEF_FILE_CORRUPTED = 91, HAILO_HEF_NOT_SUPPORTED = 92, HAILO_HEF_NOT_COMPATIBLE_WITH_DEVICE = 93,
#endif
#if FAKE_HAILORT_VERSION_AT_LEAST(5, 0, 0)
    HAILO_INVALID_HEF_USE = 94, HAILO_OPERATION_ABORTED = 95, HAILO_DEVICE_NOT_CONNECTED = 96,
#endif
#if FAKE_HAILORT_VERSION_AT_LEAST(5, 1, 0)
    HAILO_DEVICE_TEMPORARILY_UNAVAILABLE = 97,
#endif

    HAILO_STATUS_COUNT,
    HAILO_STATUS_MAX_ENUM = HAILO_MAX_ENUM
} hailo_status;

typedef struct {
    uint32_t major;
    uint32_t minor;
    uint32_t revision;
} hailo_version_t;

typedef struct {
    char id[HAILO_MAX_DEVICE_ID_LENGTH];
} hailo_device_id_t;

typedef enum {
    HAILO_SCHEDULING_ALGORITHM_NONE = 0,
    HAILO_SCHEDULING_ALGORITHM_ROUND_ROBIN,
    HAILO_SCHEDULING_ALGORITHM_MAX_ENUM = HAILO_MAX_ENUM
} hailo_scheduling_algorithm_t;

typedef struct {
    uint32_t device_count;
    hailo_device_id_t *device_ids;
    hailo_scheduling_algorithm_t scheduling_algorithm;
    const char *group_id;
    bool multi_process_service;
} hailo_vdevice_params_t;

typedef enum hailo_device_architecture_e {
    HAILO_ARCH_HAILO8_A0 = 0,
    HAILO_ARCH_HAILO8,
    HAILO_ARCH_HAILO8L,
    HAILO_ARCH_HAILO15H,
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 20, 0)
    HAILO_ARCH_HAILO15L,
#else
    HAILO_ARCH_PLUTO,
#endif
    HAILO_ARCH_HAILO15M,
    HAILO_ARCH_HAILO10H,
#if FAKE_HAILORT_VERSION_AT_LEAST(5, 0, 0)
    HAILO_ARCH_HAILO12L,
#elif FAKE_HAILORT_VERSION_AT_LEAST(4, 21, 0)
    HAILO_ARCH_MARS,
#endif
    HAILO_ARCH_MAX_ENUM = HAILO_MAX_ENUM
} hailo_device_architecture_t;

typedef struct {
    uint32_t major;
    uint32_t minor;
    uint32_t revision;
} hailo_firmware_version_t;

typedef struct {
    uint32_t protocol_version;
    hailo_firmware_version_t fw_version;
    uint32_t logger_version;
    uint8_t board_name_length;
    char board_name[HAILO_MAX_BOARD_NAME_LENGTH];
    bool is_release;
    bool extended_context_switch_buffer;
#if FAKE_HAILORT_VERSION_AT_LEAST(5, 0, 0)
    bool extended_fw_check;
#endif
    hailo_device_architecture_t device_architecture;
    uint8_t serial_number_length;
    char serial_number[HAILO_MAX_SERIAL_NUMBER_LENGTH];
    uint8_t part_number_length;
    char part_number[HAILO_MAX_PART_NUMBER_LENGTH];
    uint8_t product_name_length;
    char product_name[HAILO_MAX_PRODUCT_NAME_LENGTH];
} hailo_device_identity_t;

/* Device state (hailort.h of 4.23/5.x: a field of -1 is a stat HailoRT could not read). */
typedef struct {
    float32_t ts0_temperature;
    float32_t ts1_temperature;
    uint16_t sample_count;
} hailo_chip_temperature_info_t;

typedef struct {
    float32_t cpu_utilization;
    int64_t ram_size_total;
    int64_t ram_size_used;
    float32_t nnc_utilization;
    int32_t ddr_noc_total_transactions;
    int32_t dsp_utilization;
} hailo_performance_stats_t;

typedef struct {
    float32_t on_die_temperature;
    int32_t on_die_voltage;
    int32_t bist_failure_mask;
} hailo_health_stats_t;

typedef enum {
    HAILO_FORMAT_TYPE_AUTO = 0,
    HAILO_FORMAT_TYPE_UINT8 = 1,
    HAILO_FORMAT_TYPE_UINT16 = 2,
    HAILO_FORMAT_TYPE_FLOAT32 = 3,
    HAILO_FORMAT_TYPE_MAX_ENUM = HAILO_MAX_ENUM
} hailo_format_type_t;

typedef enum {
    HAILO_FORMAT_ORDER_AUTO = 0,
    HAILO_FORMAT_ORDER_NHWC = 1,
    HAILO_FORMAT_ORDER_NHCW = 2,
    HAILO_FORMAT_ORDER_FCR = 3,
    HAILO_FORMAT_ORDER_F8CR = 4,
    HAILO_FORMAT_ORDER_NHW = 5,
    HAILO_FORMAT_ORDER_NC = 6,
    HAILO_FORMAT_ORDER_BAYER_RGB = 7,
    HAILO_FORMAT_ORDER_12_BIT_BAYER_RGB = 8,
    HAILO_FORMAT_ORDER_HAILO_NMS = 9,
    HAILO_FORMAT_ORDER_RGB888 = 10,
    HAILO_FORMAT_ORDER_NCHW = 11,
    HAILO_FORMAT_ORDER_YUY2 = 12,
    HAILO_FORMAT_ORDER_NV12 = 13,
    HAILO_FORMAT_ORDER_NV21 = 14,
    HAILO_FORMAT_ORDER_HAILO_YYUV = 15,
    HAILO_FORMAT_ORDER_HAILO_YYVU = 16,
    HAILO_FORMAT_ORDER_RGB4 = 17,
    HAILO_FORMAT_ORDER_I420 = 18,
    HAILO_FORMAT_ORDER_HAILO_YYYYUV = 19,
    HAILO_FORMAT_ORDER_HAILO_NMS_WITH_BYTE_MASK = 20,
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 20, 0)
    HAILO_FORMAT_ORDER_HAILO_NMS_ON_CHIP = 21,
    HAILO_FORMAT_ORDER_HAILO_NMS_BY_CLASS = 22,
    HAILO_FORMAT_ORDER_HAILO_NMS_BY_SCORE = 23,
#endif
    HAILO_FORMAT_ORDER_MAX_ENUM = HAILO_MAX_ENUM
} hailo_format_order_t;

typedef enum {
    HAILO_FORMAT_FLAGS_NONE = 0,
    HAILO_FORMAT_FLAGS_QUANTIZED = 1 << 0,
    HAILO_FORMAT_FLAGS_TRANSPOSED = 1 << 1,
    HAILO_FORMAT_FLAGS_MAX_ENUM = HAILO_MAX_ENUM
} hailo_format_flags_t;

typedef struct {
    hailo_format_type_t type;
    hailo_format_order_t order;
    hailo_format_flags_t flags;
} hailo_format_t;

typedef enum {
    HAILO_DMA_BUFFER_DIRECTION_H2D = 0,
    HAILO_DMA_BUFFER_DIRECTION_D2H = 1,
    HAILO_DMA_BUFFER_DIRECTION_BOTH = 2,
    HAILO_DMA_BUFFER_DIRECTION_MAX_ENUM = HAILO_MAX_ENUM
} hailo_dma_buffer_direction_t;

typedef struct {
    float32_t qp_zp;
    float32_t qp_scale;
    float32_t limvals_min;
    float32_t limvals_max;
} hailo_quant_info_t;

typedef struct {
    uint32_t height;
    uint32_t width;
    uint32_t features;
} hailo_3d_image_shape_t;

#if FAKE_HAILORT_VERSION_AT_LEAST(5, 0, 0)
typedef struct {
    uint32_t number_of_classes;
    uint32_t max_bboxes_per_class;
    uint32_t max_bboxes_total;
    uint32_t max_accumulated_mask_size;
} hailo_nms_shape_t;
#elif FAKE_HAILORT_VERSION_AT_LEAST(4, 20, 0)
typedef enum {
    HAILO_NMS_RESULT_ORDER_HW = 0,
    HAILO_NMS_RESULT_ORDER_BY_CLASS,
    HAILO_NMS_RESULT_ORDER_BY_SCORE,
} hailo_nms_result_order_type_t;

typedef struct {
    uint32_t number_of_classes;
    union {
        uint32_t max_bboxes_per_class;
        uint32_t max_bboxes_total;
    };
    uint32_t max_accumulated_mask_size;
    hailo_nms_result_order_type_t order_type;
} hailo_nms_shape_t;
#else
typedef struct {
    uint32_t number_of_classes;
    uint32_t max_bboxes_per_class;
    uint32_t max_accumulated_mask_size;
} hailo_nms_shape_t;
#endif

typedef enum {
    HAILO_POWER_MODE_PERFORMANCE = 0,
    HAILO_POWER_MODE_ULTRA_PERFORMANCE = 1,
    HAILO_POWER_MODE_MAX_ENUM = HAILO_MAX_ENUM
} hailo_power_mode_t;

HAILORTAPI hailo_status hailo_get_library_version(hailo_version_t *version);
HAILORTAPI const char* hailo_get_status_message(hailo_status status);
HAILORTAPI hailo_status hailo_init_vdevice_params(hailo_vdevice_params_t *params);

#ifdef __cplusplus
}
#endif

#endif /* _HAILORT_H_ */
