/*
 * Fake HailoRT (test stand-in) - buffer.hpp: MemoryView and BufferPtr as in HailoRT 5.2.0
 * (hailort5-api.md §5). Buffer is reduced to what BufferPtr needs, with its deleted copy.
 * Written for the tests; not Hailo's file.
 */
#ifndef _HAILO_BUFFER_HPP_
#define _HAILO_BUFFER_HPP_

#include "hailo/expected.hpp"

#include <memory>
#include <cstdint>
#include <cstring>
#include <string>

namespace hailort
{

class Buffer;
class MemoryView;

using BufferPtr = std::shared_ptr<Buffer>;

class HAILORTAPI Buffer final
{
public:
    Buffer();
    ~Buffer();
    Buffer(const Buffer& other) = delete;
    Buffer& operator=(const Buffer& other) = delete;
    Buffer(Buffer&& other);
    Buffer& operator=(Buffer&& other);

    static Expected<Buffer> create(size_t size);
    static Expected<BufferPtr> create_shared(size_t size);

    uint8_t* data() noexcept;
    const uint8_t* data() const noexcept;
    size_t size() const noexcept;

    MemoryView as_view();

private:
    uint8_t *m_data;
    size_t m_size;
};

class HAILORTAPI MemoryView final
{
public:
    MemoryView() noexcept;
    explicit MemoryView(Buffer &buffer) noexcept;
    explicit MemoryView(BufferPtr buffer) noexcept;
    MemoryView(void *data, size_t size) noexcept;
    MemoryView(const std::string &data) noexcept;
    ~MemoryView() = default;

    MemoryView& operator=(MemoryView&& other) noexcept = default;
    MemoryView(const MemoryView &) noexcept = default;
    MemoryView& operator=(const MemoryView &) noexcept = default;
    MemoryView(MemoryView &&) noexcept = default;

    static const MemoryView create_const(const void *data, size_t size) noexcept;

    uint8_t* data() noexcept;
    const uint8_t* data() const noexcept;
    size_t size() const noexcept;
    bool empty() const noexcept;

    inline bool operator==(const MemoryView& rhs) const noexcept
    {
        return (m_size == rhs.m_size) && (0 == std::memcmp(m_data, rhs.m_data, m_size));
    }
    inline bool operator!=(const MemoryView& rhs) const noexcept { return !(*this == rhs); }

private:
    void *m_data;
    size_t m_size;
};

} /* namespace hailort */

#endif /* _HAILO_BUFFER_HPP_ */
