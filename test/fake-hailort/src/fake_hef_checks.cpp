// The fake's Hef::create: HailoRT's own checks on the HEF bytes, in HailoRT's order, for the version
// the fake is built as (HAILORT_MAJOR/MINOR/REVISION_VERSION) — written from hef.cpp of v4.18.0-v5.2.0 and
// held to what a real libhailort 5.2.0 answered (../shared/corpus/hef/libhailort-5.2.0, test
// test/device/fake-hef-checks.test.ts). It decides with its own header, hash and protobuf walk,
// never with the project's HEF reader. Test-only; no HailoRT code.
//
// File mode (Hef::create(path)) reads like HailoRT's FileReader: a header cut short is 14. Buffer
// mode (Hef::create(MemoryView)) first demands sizeof(hef__header_t) (56 bytes from 4.21; 91). Header
// versions: 4.21+ read 0-3, 4.20 0-2, 4.18-4.19 0-1 (and read any other as 1). Then, per container version: V0 MD5,
// V1 CRC32, V2 XXH3 over everything after the header (magic 92, length 91, hash 91); V3 the same,
// except that 5.1+ with a non-zero proto hash checks only the body's XXH3. Then the body must
// parse (91), each core op's operations need a trigger (26) and actions with a case (8), boundary
// edge layers exactly one buffer_indices entry (none: HailoRT dereferences a missing element, and
// so does the fake — SIGSEGV), intermediate edges a connected context (26); last the extensions
// (unknown to this version, or, from 4.21, no PERIPH_CALCULATION_IN_HAILORT: 92). Before 4.21 every
// 91/92 is 26 (hef_status). A multi-layout HEF (Hailo-8L, Hailo-15M) without partial core ops
// crashes, as libhailort does. XXH3 is the fake's own (fake_xxh3.cpp).
#include "fake_internal.hpp"

#include <csignal>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace hailort {
namespace fake {
// 91/92/93 exist since 4.21; before, hef.cpp answered every refused HEF with 26 (v4.18.0-v4.20.0).
hailo_status hef_status(int since_4_21) {
    return FAKE_HAILORT_VERSION_AT_LEAST(4, 21, 0) ? static_cast<hailo_status>(since_4_21) : HAILO_INVALID_HEF;
}

namespace {

// ------------------------------------------------------------------ hashes
uint32_t crc32_of(const uint8_t *p, size_t n) {
    static uint32_t table[256];
    static bool ready = false;
    if (!ready) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
        ready = true;
    }
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

// MD5 (RFC 1321).
void md5_of(const uint8_t *msg, size_t len, uint8_t out[16]) {
    static const uint32_t K[64] = {
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1,
        0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453,
        0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942,
        0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05,
        0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d,
        0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
    static const uint32_t R[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                                   4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
    uint32_t h[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    const uint64_t bits = static_cast<uint64_t>(len) * 8;
    size_t padded = ((len + 8) / 64 + 1) * 64;
    std::vector<uint8_t> buf(padded, 0);
    if (len) std::memcpy(buf.data(), msg, len);
    buf[len] = 0x80;
    for (int i = 0; i < 8; i++) buf[padded - 8 + i] = static_cast<uint8_t>(bits >> (8 * i));
    for (size_t off = 0; off < padded; off += 64) {
        uint32_t w[16];
        for (int i = 0; i < 16; i++)
            w[i] = buf[off + 4 * i] | (buf[off + 4 * i + 1] << 8) | (buf[off + 4 * i + 2] << 16) | (static_cast<uint32_t>(buf[off + 4 * i + 3]) << 24);
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
        for (uint32_t i = 0; i < 64; i++) {
            uint32_t f, g;
            if (i < 16) { f = (b & c) | (~b & d); g = i; }
            else if (i < 32) { f = (d & b) | (~d & c); g = (5 * i + 1) % 16; }
            else if (i < 48) { f = b ^ c ^ d; g = (3 * i + 5) % 16; }
            else { f = c ^ (b | ~d); g = (7 * i) % 16; }
            const uint32_t t = d;
            d = c;
            c = b;
            const uint32_t x = a + f + K[i] + w[g];
            b = b + ((x << R[i]) | (x >> (32 - R[i])));
            a = t;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d;
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) out[4 * i + j] = static_cast<uint8_t>(h[i] >> (8 * j));
}

uint32_t be32(const uint8_t *p) { return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3]; }
uint64_t be64(const uint8_t *p) { return (uint64_t(be32(p)) << 32) | be32(p + 4); }

// ------------------------------------------------------------------ protobuf wire walk
// Only the messages whose content HailoRT's Hef::create looks at are descended into; anything
// else is skipped like an unknown field (a real protobuf would also parse known nested messages
// there — an accepted gap: no fixture damages them).
struct Field {
    uint32_t number = 0;
    uint32_t wire = 0;
    uint64_t varint = 0;
    const uint8_t *data = nullptr;
    size_t size = 0;
};

bool read_varint(const uint8_t *&p, const uint8_t *end, uint64_t &v) {
    v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (p >= end) return false;
        const uint8_t b = *p++;
        v |= uint64_t(b & 0x7F) << shift;
        if (!(b & 0x80)) return true;
    }
    return false;  // more than 10 bytes
}

bool skip_group(const uint8_t *&p, const uint8_t *end, uint32_t number, int depth);

bool next_field(const uint8_t *&p, const uint8_t *end, Field &f, int depth = 0) {
    uint64_t key;
    if (!read_varint(p, end, key)) return false;
    f.number = static_cast<uint32_t>(key >> 3);
    f.wire = static_cast<uint32_t>(key & 7);
    if (f.number == 0) return false;
    switch (f.wire) {
    case 0: return read_varint(p, end, f.varint);
    case 1: if (end - p < 8) return false; f.data = p; f.size = 8; p += 8; return true;
    case 5: if (end - p < 4) return false; f.data = p; f.size = 4; p += 4; return true;
    case 2: {
        uint64_t len;
        if (!read_varint(p, end, len) || len > static_cast<uint64_t>(end - p)) return false;
        f.data = p; f.size = static_cast<size_t>(len); p += len;
        return true;
    }
    case 3: return depth < 64 && skip_group(p, end, f.number, depth + 1);
    default: return false;  // 4 (an end-group without a start) and 6/7 are invalid
    }
}

bool skip_group(const uint8_t *&p, const uint8_t *end, uint32_t number, int depth) {
    while (p < end) {
        const uint8_t *save = p;
        uint64_t key;
        if (!read_varint(p, end, key)) return false;
        if ((key & 7) == 4) return (key >> 3) == number;
        p = save;
        Field f;
        if (!next_field(p, end, f, depth)) return false;
    }
    return false;
}

/** All fields of one message; false when its bytes are not a valid message. */
bool fields_of(const uint8_t *data, size_t size, std::vector<Field> &out) {
    out.clear();
    const uint8_t *p = data, *end = data + size;
    while (p < end) {
        Field f;
        if (!next_field(p, end, f)) return false;
        out.push_back(f);
    }
    return true;
}

struct Msg {
    std::vector<Field> fields;
    bool ok = true;
    Msg() = default;
    Msg(const uint8_t *d, size_t n) { ok = fields_of(d, n, fields); }
    explicit Msg(const Field &f) : Msg(f.data, f.wire == 2 ? f.size : 0) { ok = ok && f.wire == 2; }
    std::vector<Field> all(uint32_t n, uint32_t wire = 2) const {
        std::vector<Field> r;
        for (const auto &f : fields) if (f.number == n && f.wire == wire) r.push_back(f);
        return r;
    }
    bool has(uint32_t n, uint32_t wire = 2) const {
        for (const auto &f : fields) if (f.number == n && f.wire == wire) return true;
        return false;
    }
    /** The last occurrence wins (protobuf merges messages; for the fields read here, last is enough). */
    Msg sub(uint32_t n) const {
        Msg m;
        for (const auto &f : fields) if (f.number == n && f.wire == 2) m = Msg(f);
        return m;
    }
    uint64_t num(uint32_t n) const {
        uint64_t v = 0;
        for (const auto &f : fields) if (f.number == n && f.wire == 0) v = f.varint;
        return v;
    }
    std::string str(uint32_t n) const {
        std::string v;
        for (const auto &f : fields) if (f.number == n && f.wire == 2) v.assign(reinterpret_cast<const char *>(f.data), f.size);
        return v;
    }
};

// ------------------------------------------------------------------ the checks
struct Walk {
    uint32_t container_version = 0;
    /** OUTPUT_SCALE_PER_FEATURE (extension 25) is on: fill_layer_info reads the per-feature lists. */
    bool scale_by_feature = false;
    HefCheck result;
    bool done = false;
    void refuse(hailo_status s, const std::string &why) {
        if (done) return;
        result.status = s;
        result.message = why;
        done = true;
    }
    void crash(const std::string &why) {
        if (done) return;
        result.crash = true;
        result.message = why;
        done = true;
    }
};

bool parse_all(const Msg &m, Walk &w, const char *what) {
    if (!m.ok) w.refuse(hef_status(91), std::string("Failed parsing HEF file (") + what + ")");
    return m.ok;
}

// ProtoHEFOperation: trigger=1 (oneof 2..7), actions=2 (ProtoHEFAction oneof 2..18).
void operations(const std::vector<Field> &ops, Walk &w, const std::string &where) {
    for (const auto &opf : ops) {
        Msg op(opf);
        if (!parse_all(op, w, "operation")) return;
        Msg trigger = op.sub(1);
        if (!parse_all(trigger, w, "trigger")) return;
        int trigger_case = 0;
        for (uint32_t n = 2; n <= 7; n++) if (trigger.has(n)) trigger_case = n;
        if (trigger_case == 0) return w.refuse(HAILO_INVALID_HEF, "Unsupported trigger given 0 (" + where + ")");
        if (trigger_case == 5) return w.refuse(HAILO_NOT_IMPLEMENTED, "kTriggerAllDataWasReceived trigger is not supported");
        for (const auto &af : op.all(2)) {
            Msg action(af);
            if (!parse_all(action, w, "action")) return;
            int action_case = 0;
            for (uint32_t n = 2; n <= 18; n++) if (action.has(n)) action_case = n;
            if (action_case == 3 && w.container_version != 0) return w.refuse(HAILO_INVALID_HEF, "WriteDataCcw action is not supported for hef version 1");
            if (action_case == 16 && w.container_version == 0) return w.refuse(HAILO_INVALID_HEF, "kWriteDataCcwPtr action is not supported for hef version 0");
            // parse_action learned debug (12) in 4.19.0, allow_config_channels (17) / disable_data_channels (18) in 5.0.1.
            const bool unparsed = action_case == 0 || action_case == 2 || action_case == 4 || (action_case == 12 && !FAKE_HAILORT_VERSION_AT_LEAST(4, 19, 0)) ||
                                  ((action_case == 17 || action_case == 18) && !FAKE_HAILORT_VERSION_AT_LEAST(5, 0, 1));
            if (unparsed) return w.refuse(HAILO_INTERNAL_FAILURE, "Action " + std::to_string(action_case) + " not implemented");
        }
    }
}

// parse_nn_stream_config on ProtoHEFEdgeLayerBase: core_bytes_per_buffer=9 and core_buffers_per_frame=10
// fit 16 bits, padded_width=4 * padded_features=6 * padded_height=2 * data_bytes=12 fits 32 (else 26).
bool nn_stream_config(const Msg &base, Walk &w) {
    if (base.num(9) > 0xFFFF) { w.refuse(HAILO_INVALID_HEF, "core_bytes_per_buffer is too big"); return false; }
    if (base.num(10) > 0xFFFF) { w.refuse(HAILO_INVALID_HEF, "core_buffers_per_frame is too big"); return false; }
    const unsigned __int128 padded = static_cast<unsigned __int128>(base.num(4)) * base.num(6) * base.num(2) * base.num(12);
    if (padded > 0xFFFFFFFFu) { w.refuse(HAILO_INVALID_HEF, "padded shape too big"); return false; }
    // fill_layer_info_with_base_info, right after: sys_index=8 is the 8-bit stream index.
    if (base.num(8) > 0xFF) { w.refuse(HAILO_INVALID_HEF, "Failed to parse HEF. Invalid sys_index: " + std::to_string(base.num(8))); return false; }
    return true;
}

// ProtoHEFEdgeLayerInfo.edge_layer_base=2 → its stream config, then buffer_indices=13.
void buffer_indices(const Msg &layer_info, Walk &w, const std::string &where) {
    Msg base = layer_info.sub(2);
    if (!nn_stream_config(base, w)) return;
    if (base.all(13).empty()) w.crash("boundary edge layer without buffer_indices (" + where + "): libhailort reads element 0 of an empty list");
}

// fill_layer_info before 5.0.0, with per-feature scales on: the list sizes are checked for outputs only,
// then qp_zps()[i] / qp_scales()[i] are read per feature for inputs too — an input whose numeric_info=3
// has an empty qp_zps=5 or qp_scales=6 is read through a null pointer. The real libhailort 4.23.0 dies
// so (../shared/corpus/hef/libhailort-4.23.0/README.md); 5.0.0 on takes the single value.
void input_quant(const Msg &layer_info, Walk &w, const std::string &where) {
    if (!w.scale_by_feature || FAKE_HAILORT_VERSION_AT_LEAST(5, 0, 0)) return;
    const Msg numeric = layer_info.sub(3);
    const bool zps = numeric.has(5) || numeric.has(5, 1), scales = numeric.has(6) || numeric.has(6, 1);
    if (!zps || !scales) w.crash("input layer with per-feature scales on and an empty qp_zps/qp_scales (" + where + "): libhailort reads element 0 of an empty list");
}

void mux_indices(const Msg &mux, Walk &w, const std::string &where, bool input) {
    buffer_indices(mux, w, where);
    for (const auto &pf : mux.all(5)) {  // predecessors: ProtoHefEdge {layer_info=1, layer_mux=2}
        Msg pred(pf);
        if (pred.has(2)) mux_indices(pred.sub(2), w, where, input);
        else {
            buffer_indices(pred.sub(1), w, where);
            if (input) input_quant(pred.sub(1), w, where);
        }
    }
}

void core_op(const Msg &core, Walk &w, const std::string &group) {
    operations(core.sub(2).all(1), w, group + ": preliminary config");
    int c = 0;
    for (const auto &cf : core.all(3)) {
        if (w.done) return;
        Msg ctx(cf);
        if (!parse_all(ctx, w, "context")) return;
        const std::string where = group + ", context " + std::to_string(c++);
        operations(ctx.all(2), w, where);
        Msg meta = ctx.sub(3);
        for (const auto &ef : meta.all(2)) {
            if (w.done) return;
            Msg el(ef);
            Msg csi = el.sub(5);
            const uint64_t connection = csi.num(3);
            const uint64_t type = el.num(2);
            if (connection == 0) {
                const bool input = el.num(1) == 0;  // direction: 0 host-to-device
                if (type == 0) {
                    buffer_indices(el.sub(3), w, where);
                    if (input) input_quant(el.sub(3), w, where);
                } else if (type == 1) mux_indices(el.sub(4), w, where, input);
                else if (type == 2)
                    for (const auto &pl : el.sub(8).all(3)) {
                        buffer_indices(Msg(pl).sub(1), w, where);
                        if (input) input_quant(Msg(pl).sub(1), w, where);
                    }
            } else if (connection == 1) {
                if (type != 0) return w.refuse(HAILO_INVALID_HEF, "Inter-context layer can't be mux.");
                if (!nn_stream_config(el.sub(3).sub(2), w)) return;
                if (csi.all(8).empty()) return w.refuse(HAILO_INVALID_HEF, "Inter context layer info must contain connected_context");
            } else if (connection > 3) {
                return w.refuse(HAILO_INVALID_HEF, "Unsupported edge connection type given " + std::to_string(connection));
            }
        }
    }
}

std::set<uint32_t> supported_extensions() {
    std::set<uint32_t> s = {0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29};
    // hef_internal.hpp of each tag: 4.21.0 adds 30-32, 5.0.0 adds 35, 5.0.1 adds 33-34.
    if (FAKE_HAILORT_VERSION_AT_LEAST(4, 21, 0)) s.insert({30, 31, 32});
    if (FAKE_HAILORT_VERSION_AT_LEAST(5, 0, 0)) s.insert(35);
    if (FAKE_HAILORT_VERSION_AT_LEAST(5, 0, 1)) s.insert({33, 34});
    return s;
}

void body(const uint8_t *proto, size_t size, Walk &w) {
    Msg hef(proto, size);
    if (!parse_all(hef, w, "ProtoHEFHef")) return;
    Msg header = hef.sub(1);
    if (!parse_all(header, w, "header")) return;
    const uint64_t proto_version = header.num(4);
    const uint64_t arch = header.num(1);
    std::vector<uint32_t> extensions;
    for (const auto &ef : hef.all(5)) {
        Msg e(ef);
        if (!parse_all(e, w, "extension")) return;
        extensions.push_back(static_cast<uint32_t>(e.num(1)));
    }
    auto has_ext = [&](uint32_t id) {
        if (proto_version == 0) return false;  // then only included_features count; none of them is periph
        for (auto e : extensions) if (e == id) return true;
        return false;
    };
    // hailo_device_architecture_t: HAILO8_A0 0, HAILO8 1, HAILO8L 2, HAILO15H 3, HAILO15L 4, HAILO15M 5, HAILO10H 6, HAILO12L 7.
    switch (arch) {
    case 0: case 1: case 2: case 101: case 102: w.result.archs = {1}; break;
    case 100: w.result.archs = {0}; break;
    case 3: w.result.archs = {2, 1}; break;
    case 103: case 104: case 105: w.result.archs = {3, 6}; break;
    case 106: case 6: w.result.archs = {4}; break;
    case 4: w.result.archs = {5, 3, 6}; break;
    case 108: w.result.archs = {7}; break;
    default: break;
    }
    const bool net_flow = has_ext(13);
    w.scale_by_feature = has_ext(25);
    const bool multi_layout = arch == 3 || arch == 4;
    int g = 0;
    for (const auto &gf : hef.all(2)) {
        Msg ng(gf);
        if (!parse_all(ng, w, "network group")) return;
        const std::string name = ng.sub(1).str(1);
        w.result.groups.push_back(name.empty() ? "network_group_" + std::to_string(g) : name);
        const std::string where = "network group '" + w.result.groups.back() + "'";
        g++;
        std::vector<Msg> cores;
        if (net_flow) {
            for (const auto &of : ng.all(8)) {
                Msg op(of);
                if (op.has(4)) {
                    Msg core = op.sub(4);
                    if (multi_layout) for (const auto &pf : core.all(7)) cores.push_back(Msg(pf).sub(1));
                    else cores.push_back(core);
                    break;
                }
            }
        } else if (multi_layout) {
            for (const auto &pf : ng.all(7)) cores.push_back(Msg(pf).sub(1));
        } else {
            cores.push_back(ng);
        }
        for (const auto &core : cores) core_op(core, w, where);
        if (w.done) return;
        // Multi-layout: metadata comes only from the partials; with none in the first group
        // CoreOpMetadataPerArch::get_metadata reads the first entry of an empty map (SIGSEGV).
        if (multi_layout && g == 1 && cores.empty()) return w.crash("multi-layout HEF without partial core ops (" + where + ")");
        // Net-flow files look the group's post-process ops up under the partial's name (map::at, uncaught).
        if (multi_layout && net_flow && !cores.empty()) {
            const Msg legacy = ng.all(7).empty() ? ng : Msg(ng.all(7)[0]).sub(1);
            const std::string lookup = legacy.sub(1).str(1);
            bool named = false;
            for (const auto &core : cores) named = named || core.sub(1).str(1) == lookup;
            if (!named) return w.crash("partial core ops named differently from the group (" + where + "): std::out_of_range");
        }
    }
    // HEFs from DFC 3.34 on need HailoRT 4.24 on the 4.x line: older 4.x answered HAILO_INVALID_HEF (a
    // user's deploy note; which check refuses is not public — the project's verdict.ts places it here too).
    // ProtoHEFHeader.sdk_version=5 {major=1, minor=2}.
    if (HAILORT_MAJOR_VERSION == 4 && !FAKE_HAILORT_VERSION_AT_LEAST(4, 24, 0)) {
        const Msg sdk = header.sub(5);
        if (sdk.num(1) == 3 && sdk.num(2) >= 34) return w.refuse(HAILO_INVALID_HEF, "HEF from DFC 3.34 or newer needs HailoRT 4.24");
    }
    // validate_hef_extensions, after the networks.
    const auto supported = supported_extensions();
    for (auto e : extensions) {
        if (!supported.count(e)) return w.refuse(hef_status(92), "Failed opening non-compatible HEF with the following unsupported extensions: " + std::to_string(e));
    }
    // The outdated-HEF refusal came with 4.21.0.
    if (FAKE_HAILORT_VERSION_AT_LEAST(4, 21, 0) && !has_ext(26))
        return w.refuse(hef_status(92), "Hef has periph_calculation_in_hailort feature disabled - this HEF is outdated and no longer supported. Please update HEF");
}

}  // namespace

HefCheck check_hef(const uint8_t *data, size_t size, bool from_file) {
    Walk w;
    auto refuse = [&](hailo_status s, const std::string &why) { w.refuse(s, why); return w.result; };
    // Hef::create(MemoryView) first wants sizeof(hef__header_t): 32 bytes before 4.20, 44 in 4.20, 56 from 4.21.
    const size_t header_struct = FAKE_HAILORT_VERSION_AT_LEAST(4, 21, 0) ? 56 : FAKE_HAILORT_VERSION_AT_LEAST(4, 20, 0) ? 44 : 32;
    if (!from_file && size < header_struct) return refuse(hef_status(91), "Invalid HEF header");
    if (size < 12) return refuse(HAILO_FILE_OPERATION_FAILURE, "reading the HEF header failed");
    const uint32_t magic = be32(data), version = be32(data + 4), proto_size = be32(data + 8);
    static const size_t HEADER_SIZES[4] = {32, 28, 44, 56};
#if FAKE_HAILORT_VERSION_AT_LEAST(4, 21, 0)
    if (version > 3) return refuse(hef_status(92), "Unsupported hef version " + std::to_string(version));
#elif FAKE_HAILORT_VERSION_AT_LEAST(4, 20, 0)
    // 4.20 reads header versions 0-2 (calc_hef_residue_size): 3 (DFC 5.x) and up are refused.
    if (version > 2) return refuse(HAILO_INVALID_HEF, "Unsupported hef version " + std::to_string(version));
#else
    // 4.18-4.19 read 0 and 1; any other version is read as 1 (its 28-byte header), and validate_hef_header
    // checks the magic (26), then the version (8).
    if (version > 1) {
        if (size < HEADER_SIZES[1]) return refuse(HAILO_FILE_OPERATION_FAILURE, "reading the HEF header failed");
        if (magic != 0x01484546u) return refuse(HAILO_INVALID_HEF, "HEF magic does not match");
        return refuse(HAILO_INTERNAL_FAILURE, "HEF version does not match. Should be 1 but detected " + std::to_string(version));
    }
#endif
    const size_t hs = HEADER_SIZES[version];
    if (size < hs) return refuse(HAILO_FILE_OPERATION_FAILURE, "reading the HEF header failed");
    w.container_version = version;
    const uint8_t *rest = data + hs;
    const size_t residue = size - hs;
    bool magic_checked = true;
    uint64_t expected_residue = proto_size;
    bool hash_ok = true;
    const char *hash_word = "xxhash";
    switch (version) {
    case 0: {
        uint8_t md5[16];
        md5_of(rest, residue, md5);
        hash_ok = std::memcmp(md5, data + 16, 16) == 0;
        hash_word = "md5";
        break;
    }
    case 1:
        expected_residue += be64(data + 16);
        hash_ok = crc32_of(rest, residue) == be32(data + 12);
        hash_word = "crc";
        break;
    case 2:
        expected_residue += be64(data + 20);
        hash_ok = xxh3_64(rest, residue) == be64(data + 12);
        break;
    case 3: {
        const uint64_t ccws_with_padding = be64(data + 20), padding = be32(data + 28), additional = be64(data + 32), proto_hash = be64(data + 40);
        if (!from_file && ccws_with_padding < padding) return refuse(hef_status(91), "Invalid HEF - ccws size is smaller than padding size");
        const bool proto_hash_only = (HAILORT_MAJOR_VERSION * 100 + HAILORT_MINOR_VERSION) >= 501 && proto_hash != 0;
        if (proto_hash_only) {
            // "check only it, and let the rest of the HEF be validated later (CCW - on FW, ...)"
            if (proto_size > residue) {
                return from_file ? refuse(HAILO_FILE_OPERATION_FAILURE, "reading the HEF proto for its hash failed")
                                 : refuse(hef_status(91), "HEF proto xxhash does not match");
            }
            if (xxh3_64(rest, proto_size) != proto_hash) return refuse(hef_status(91), "HEF proto xxhash does not match");
            magic_checked = false;
            expected_residue = residue;
        } else {
            expected_residue += ccws_with_padding + additional;
            hash_ok = xxh3_64(rest, residue) == be64(data + 12);
        }
        break;
    }
    }
    if (magic_checked) {
        if (magic != 0x01484546u) return refuse(hef_status(92), "HEF magic does not match");
        if (residue != expected_residue) return refuse(hef_status(91), "HEF file length does not match");
        if (!hash_ok) return refuse(hef_status(91), std::string("HEF ") + hash_word + " does not match");
    }
    body(rest, proto_size, w);
    if (w.done) return w.result;
    w.result.status = HAILO_SUCCESS;
    return w.result;
}

}  // namespace fake
}  // namespace hailort
