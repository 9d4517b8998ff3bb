// XXH3-64 (seed 0, the default 192-byte secret), written for the fake from the public algorithm
// description (github.com/Cyan4973/xxHash, doc/xxhash_spec.md): HailoRT hashes V2/V3 HEFs with it.
// Our own scalar code, so building the fake needs no system header. Test-only; checked against
// hash-wasm's xxhash3 (test/device/fake-xxh3.test.ts) over every length class of the algorithm.
#include <cstddef>
#include <cstdint>

namespace hailort {
namespace fake {
namespace {

constexpr uint64_t P32_1 = 0x9E3779B1ULL, P32_2 = 0x85EBCA77ULL, P32_3 = 0xC2B2AE3DULL;
constexpr uint64_t P64_1 = 0x9E3779B185EBCA87ULL, P64_2 = 0xC2B2AE3D27D4EB4FULL, P64_3 = 0x165667B19E3779F9ULL;
constexpr uint64_t P64_4 = 0x85EBCA77C2B2AE63ULL, P64_5 = 0x27D4EB2F165667C5ULL;
constexpr uint64_t MX1 = 0x165667919E3779F9ULL, MX2 = 0x9FB21C651E98DF25ULL;

// The default secret (kSecret of the specification).
const uint8_t SECRET[192] = {
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c, 0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb,
    0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f, 0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
    0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c, 0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb,
    0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3, 0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
    0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d, 0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31,
    0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64, 0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
    0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e, 0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc,
    0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce, 0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
};

uint32_t le32(const uint8_t *p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
uint64_t le64(const uint8_t *p) {
    return uint64_t(le32(p)) | uint64_t(le32(p + 4)) << 32;
}
uint64_t rotl(uint64_t x, int r) {
    return (x << r) | (x >> (64 - r));
}
uint64_t swap64(uint64_t x) {
    return __builtin_bswap64(x);
}
/** The 128-bit product of a and b, its halves xor-ed. */
uint64_t mul_fold(uint64_t a, uint64_t b) {
    const unsigned __int128 m = static_cast<unsigned __int128>(a) * b;
    return static_cast<uint64_t>(m) ^ static_cast<uint64_t>(m >> 64);
}
uint64_t xxh64_avalanche(uint64_t h) {
    h ^= h >> 33;
    h *= P64_2;
    h ^= h >> 29;
    h *= P64_3;
    return h ^ (h >> 32);
}
uint64_t avalanche(uint64_t h) {
    h ^= h >> 37;
    h *= MX1;
    return h ^ (h >> 32);
}
uint64_t rrmxmx(uint64_t h, uint64_t len) {
    h ^= rotl(h, 49) ^ rotl(h, 24);
    h *= MX2;
    h ^= (h >> 35) + len;
    h *= MX2;
    return h ^ (h >> 28);
}
uint64_t mix16(const uint8_t *in, const uint8_t *secret) {
    return mul_fold(le64(in) ^ le64(secret), le64(in + 8) ^ le64(secret + 8));
}

uint64_t upto16(const uint8_t *in, size_t len) {
    if (len > 8) {
        const uint64_t lo = le64(in) ^ (le64(SECRET + 24) ^ le64(SECRET + 32));
        const uint64_t hi = le64(in + len - 8) ^ (le64(SECRET + 40) ^ le64(SECRET + 48));
        return avalanche(len + swap64(lo) + hi + mul_fold(lo, hi));
    }
    if (len >= 4) {
        const uint64_t joined = uint64_t(le32(in + len - 4)) + (uint64_t(le32(in)) << 32);
        return rrmxmx(joined ^ (le64(SECRET + 8) ^ le64(SECRET + 16)), len);
    }
    if (len > 0) {
        const uint32_t joined = uint32_t(in[0]) << 16 | uint32_t(in[len >> 1]) << 24 | uint32_t(in[len - 1]) | uint32_t(len) << 8;
        return xxh64_avalanche(uint64_t(joined ^ (le32(SECRET) ^ le32(SECRET + 4))));
    }
    return xxh64_avalanche(le64(SECRET + 56) ^ le64(SECRET + 64));
}

uint64_t upto128(const uint8_t *in, size_t len) {
    uint64_t acc = len * P64_1;
    if (len > 32) {
        if (len > 64) {
            if (len > 96) {
                acc += mix16(in + 48, SECRET + 96);
                acc += mix16(in + len - 64, SECRET + 112);
            }
            acc += mix16(in + 32, SECRET + 64);
            acc += mix16(in + len - 48, SECRET + 80);
        }
        acc += mix16(in + 16, SECRET + 32);
        acc += mix16(in + len - 32, SECRET + 48);
    }
    acc += mix16(in, SECRET);
    acc += mix16(in + len - 16, SECRET + 16);
    return avalanche(acc);
}

uint64_t upto240(const uint8_t *in, size_t len) {
    uint64_t acc = len * P64_1;
    const size_t rounds = len / 16;
    for (size_t i = 0; i < 8; i++) acc += mix16(in + 16 * i, SECRET + 16 * i);
    acc = avalanche(acc);
    // The later rounds restart the secret 3 bytes in; the last 16 bytes use it 17 bytes before the minimum secret's end (136).
    for (size_t i = 8; i < rounds; i++) acc += mix16(in + 16 * i, SECRET + 16 * (i - 8) + 3);
    acc += mix16(in + len - 16, SECRET + 136 - 17);
    return avalanche(acc);
}

void accumulate_stripe(uint64_t acc[8], const uint8_t *in, const uint8_t *secret) {
    for (int i = 0; i < 8; i++) {
        const uint64_t value = le64(in + 8 * i);
        const uint64_t keyed = value ^ le64(secret + 8 * i);
        acc[i ^ 1] += value;
        acc[i] += (keyed & 0xFFFFFFFFULL) * (keyed >> 32);
    }
}

void scramble(uint64_t acc[8], const uint8_t *secret) {
    for (int i = 0; i < 8; i++) {
        uint64_t a = acc[i];
        a ^= a >> 47;
        a ^= le64(secret + 8 * i);
        acc[i] = a * P32_1;
    }
}

uint64_t long_input(const uint8_t *in, size_t len) {
    uint64_t acc[8] = {P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1};
    constexpr size_t STRIPE = 64, STRIPES_PER_BLOCK = (sizeof(SECRET) - STRIPE) / 8, BLOCK = STRIPE * STRIPES_PER_BLOCK;
    const size_t blocks = (len - 1) / BLOCK;
    for (size_t b = 0; b < blocks; b++) {
        for (size_t s = 0; s < STRIPES_PER_BLOCK; s++) accumulate_stripe(acc, in + b * BLOCK + s * STRIPE, SECRET + s * 8);
        scramble(acc, SECRET + sizeof(SECRET) - STRIPE);
    }
    const size_t last_stripes = ((len - 1) - BLOCK * blocks) / STRIPE;
    for (size_t s = 0; s < last_stripes; s++) accumulate_stripe(acc, in + blocks * BLOCK + s * STRIPE, SECRET + s * 8);
    accumulate_stripe(acc, in + len - STRIPE, SECRET + sizeof(SECRET) - STRIPE - 7);
    uint64_t result = len * P64_1;
    for (int i = 0; i < 4; i++) result += mul_fold(acc[2 * i] ^ le64(SECRET + 11 + 16 * i), acc[2 * i + 1] ^ le64(SECRET + 11 + 16 * i + 8));
    return avalanche(result);
}

}  // namespace

/** Declared in fake_internal.hpp. */
uint64_t xxh3_64(const uint8_t *data, size_t size) {
    if (size <= 16) return upto16(data, size);
    if (size <= 128) return upto128(data, size);
    if (size <= 240) return upto240(data, size);
    return long_input(data, size);
}

}  // namespace fake
}  // namespace hailort

// The fake's own test hook (not a HailoRT symbol): lets a test hash bytes with the fake's XXH3.
extern "C" __attribute__((visibility("default"))) uint64_t fake_hailort_xxh3_64(const uint8_t *data, size_t size) {
    return hailort::fake::xxh3_64(data, size);
}
