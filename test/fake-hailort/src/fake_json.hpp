// Fake libhailort: a small JSON reader for the GenAI translation units (fake_genai.cpp: messages and
// hailo-config.json; fake_speech2text.cpp: the speech model's config). Test-only; not a HailoRT header.
#ifndef FAKE_HAILORT_JSON_HPP
#define FAKE_HAILORT_JSON_HPP

#include <cctype>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace hailort {
namespace fake {

struct Json {
    enum Type { Null, Bool, Number, String, Array, Object } type = Null;
    bool boolean = false;
    double number = 0;
    std::string text;
    std::vector<Json> items;
    std::vector<std::pair<std::string, Json>> members;
    const Json *get(const std::string &key) const {
        if (type != Object) return nullptr;
        for (const auto &m : members) if (m.first == key) return &m.second;
        return nullptr;
    }
};

class JsonParser {
public:
    explicit JsonParser(const std::string &s) : m_s(s) {}
    bool parse(Json &out) {
        if (!value(out, 0)) return false;
        space();
        return m_i == m_s.size();
    }

private:
    void space() { while (m_i < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_i]))) m_i++; }
    bool literal(const char *word) {
        const size_t n = std::strlen(word);
        if (m_s.compare(m_i, n, word) != 0) return false;
        m_i += n;
        return true;
    }
    bool string(std::string &out) {
        if (m_i >= m_s.size() || m_s[m_i] != '"') return false;
        m_i++;
        while (m_i < m_s.size()) {
            const char c = m_s[m_i++];
            if (c == '"') return true;
            if (c != '\\') { out += c; continue; }
            if (m_i >= m_s.size()) return false;
            const char e = m_s[m_i++];
            switch (e) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                if (m_i + 4 > m_s.size()) return false;
                unsigned cp = std::stoul(m_s.substr(m_i, 4), nullptr, 16);
                m_i += 4;
                if (cp >= 0xD800 && cp < 0xDC00 && m_i + 6 <= m_s.size() && m_s[m_i] == '\\' && m_s[m_i + 1] == 'u') {
                    const unsigned lo = std::stoul(m_s.substr(m_i + 2, 4), nullptr, 16);
                    m_i += 6;
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                }
                if (cp < 0x80) out += static_cast<char>(cp);
                else if (cp < 0x800) { out += static_cast<char>(0xC0 | (cp >> 6)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
                else if (cp < 0x10000) { out += static_cast<char>(0xE0 | (cp >> 12)); out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
                else { out += static_cast<char>(0xF0 | (cp >> 18)); out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F)); out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
                break;
            }
            default: return false;
            }
        }
        return false;
    }
    bool value(Json &out, int depth) {
        if (depth > 64) return false;
        space();
        if (m_i >= m_s.size()) return false;
        const char c = m_s[m_i];
        if (c == '{') {
            out.type = Json::Object;
            m_i++;
            space();
            if (m_i < m_s.size() && m_s[m_i] == '}') { m_i++; return true; }
            for (;;) {
                space();
                std::string key;
                if (!string(key)) return false;
                space();
                if (m_i >= m_s.size() || m_s[m_i++] != ':') return false;
                Json v;
                if (!value(v, depth + 1)) return false;
                out.members.emplace_back(std::move(key), std::move(v));
                space();
                if (m_i < m_s.size() && m_s[m_i] == ',') { m_i++; continue; }
                if (m_i < m_s.size() && m_s[m_i] == '}') { m_i++; return true; }
                return false;
            }
        }
        if (c == '[') {
            out.type = Json::Array;
            m_i++;
            space();
            if (m_i < m_s.size() && m_s[m_i] == ']') { m_i++; return true; }
            for (;;) {
                Json v;
                if (!value(v, depth + 1)) return false;
                out.items.push_back(std::move(v));
                space();
                if (m_i < m_s.size() && m_s[m_i] == ',') { m_i++; continue; }
                if (m_i < m_s.size() && m_s[m_i] == ']') { m_i++; return true; }
                return false;
            }
        }
        if (c == '"') { out.type = Json::String; return string(out.text); }
        if (literal("true")) { out.type = Json::Bool; out.boolean = true; return true; }
        if (literal("false")) { out.type = Json::Bool; return true; }
        if (literal("null")) { out.type = Json::Null; return true; }
        const char *start = m_s.c_str() + m_i;
        char *end = nullptr;
        out.number = std::strtod(start, &end);
        if (end == start) return false;
        out.type = Json::Number;
        m_i += static_cast<size_t>(end - start);
        return true;
    }

    const std::string &m_s;
    size_t m_i = 0;
};

inline bool parse_json(const std::string &text, Json &out) {
    try {
        return JsonParser(text).parse(out);
    } catch (...) {
        return false;
    }
}

}  // namespace fake
}  // namespace hailort

#endif
