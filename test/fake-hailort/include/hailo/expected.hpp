/*
 * Fake HailoRT (test stand-in) - expected.hpp: hailort::Expected<T> with the public API of HailoRT
 * 5.2.0 (hailort5-api.md §1.7), including what it forbids: every assignment and the construction
 * from a bare hailo_status are deleted, the copy constructor is explicit. Code that compiles
 * against this compiles against the real header. Written for the tests; not Hailo's file.
 */
#ifndef _HAILO_EXPECTED_HPP_
#define _HAILO_EXPECTED_HPP_

#include "hailo/hailort.h"

#include <assert.h>
#include <new>
#include <utility>
#include <type_traits>

#ifdef __cpp_exceptions
#include <stdexcept>
#include <string>
#endif

namespace hailort
{

#ifdef __cpp_exceptions
class hailort_error : public std::runtime_error
{
public:
    template<typename... Args>
    hailort_error(hailo_status status, Args&&... args) : std::runtime_error(std::forward<Args>(args)...), m_status(status) {}
    hailo_status status() const { return m_status; }
private:
    hailo_status m_status;
};
#else
class hailort_error {
public:
    hailo_status status() const { return HAILO_INVALID_OPERATION; }
};
#endif

class Unexpected final
{
public:
    explicit Unexpected(hailo_status status) : m_status(status) {}
    operator hailo_status() { return m_status; }
    hailo_status m_status;
};

inline Unexpected make_unexpected(hailo_status status)
{
    return Unexpected(status);
}

template<typename T>
class Expected;

class ExpectedKey {
private:
    template<typename> friend class Expected;
    constexpr explicit ExpectedKey() = default;
};

template<typename T>
class Expected final
{
public:
    template<class U>
    friend class Expected;

    Expected(Unexpected unexpected) : m_status(unexpected.m_status)
    {
        assert(unexpected.m_status != HAILO_SUCCESS);
    }

    explicit Expected(const Expected<T> &other) : m_status(other.m_status)
    {
        if (other.has_value()) { new ((void*)&m_value) T(other.m_value); }
    }

    template <typename U>
    Expected(const Expected<U> &other) : m_status(other.m_status)
    {
        if (other.has_value()) { new ((void*)&m_value) T(other.m_value); }
    }

    Expected(Expected<T> &&other) : m_status(other.m_status)
    {
        if (other.has_value()) { new ((void*)&m_value) T(std::move(other.m_value)); }
    }

    Expected(T &&value) : m_value(std::move(value)), m_status(HAILO_SUCCESS) {}

    // An Expected is made from a value or from make_unexpected(status), never from a bare status.
    Expected(hailo_status status) = delete;

    template <typename... Args, std::enable_if_t<std::is_constructible<T, Args...>::value, int> = 0>
    explicit Expected(Args &&...args) : m_value(std::forward<Args>(args)...), m_status(HAILO_SUCCESS) {}

    template <typename... Args, std::enable_if_t<std::is_constructible<T, ExpectedKey, Args...>::value, int> = 0>
    explicit Expected(Args &&...args) : m_value(ExpectedKey(), std::forward<Args>(args)...), m_status(HAILO_SUCCESS) {}

    Expected<T>& operator=(const Expected<T> &other) = delete;
    Expected<T>& operator=(Expected<T> &&other) noexcept = delete;
    Expected<T>& operator=(const T &other) = delete;
    Expected<T>& operator=(T &&other) noexcept = delete;
    Expected<T>& operator=(hailo_status status) = delete;

    ~Expected()
    {
        if (has_value()) {
            m_status = HAILO_UNINITIALIZED;
            m_value.~T();
        }
    }

    void make_unexpected(hailo_status status)
    {
        assert(status != HAILO_SUCCESS);
        if (has_value()) { m_value.~T(); }
        m_status = status;
    }

    bool has_value() const { return HAILO_SUCCESS == m_status; }
    T& value() & { assert(has_value()); return m_value; }
    const T& value() const& { assert(has_value()); return m_value; }
    hailo_status status() const { return m_status; }

    T release()
    {
        assert(has_value());
        T moved = std::move(m_value);
        make_unexpected(HAILO_UNINITIALIZED);
        return moved;
    }

#ifdef __cpp_exceptions
    T expect(const std::string &msg) &&
    {
        if (!has_value()) {
            throw hailort_error(status(), "Expected::expect() failed with status=" + std::to_string(status()) + ". " + msg);
        }
        return release();
    }
#endif

    T* operator->() { assert(has_value()); return &(value()); }
    const T* operator->() const { assert(has_value()); return &(value()); }
    T& operator*() & { assert(has_value()); return value(); }
    const T& operator*() const& { assert(has_value()); return value(); }
    explicit operator bool() const { return has_value(); }

private:
    union {
        T m_value;
    };
    hailo_status m_status;
};

template <typename T>
using ExpectedRef = Expected<std::reference_wrapper<T>>;

} /* namespace hailort */

#endif /* _HAILO_EXPECTED_HPP_ */
