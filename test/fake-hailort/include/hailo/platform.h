/* Fake HailoRT (test stand-in) - platform.h: the export macro of the real header (HailoRT 5.2.0). */
#ifndef _HAILO_PLATFORM_H_
#define _HAILO_PLATFORM_H_

#if defined(_MSC_VER)
#if defined(_HAILO_EXPORTING)
#define HAILORTAPI __declspec(dllexport)
#else
#define HAILORTAPI __declspec(dllimport)
#endif
#else
#define HAILORTAPI __attribute__ ((visibility ("default")))
#endif

#if !defined(_MSC_VER)
#include <unistd.h>
#include <sys/time.h>
#endif

#endif /* _HAILO_PLATFORM_H_ */
