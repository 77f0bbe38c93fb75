// MiniJson: a small JSON reader for the model corpus manifest (objects, arrays, strings, numbers,
// true/false/null). Throws std::runtime_error on malformed text (test code may use exceptions).
#ifndef MNN_TEST_MODELS_MINIJSON_HPP
#define MNN_TEST_MODELS_MINIJSON_HPP

#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace MiniJson {

struct Value {
    enum Type { Null, Bool, Number, String, Array, Object } type = Null;
    bool b = false;
    double num = 0;
    std::string str;
    std::vector<Value> arr;
    std::map<std::string, Value> obj;

    const Value& operator[](const std::string& key) const {
        static const Value none;
        auto it = obj.find(key);
        return it == obj.end() ? none : it->second;
    }
    bool has(const std::string& key) const {
        return type == Object && obj.count(key) > 0;
    }
};

class Parser {
public:
    explicit Parser(const std::string& text) : s(text) {
    }
    Value parse() {
        Value v = value();
        ws();
        if (i != s.size()) {
            fail("trailing characters");
        }
        return v;
    }

private:
    const std::string& s;
    size_t i = 0;

    [[noreturn]] void fail(const std::string& what) {
        throw std::runtime_error("json: " + what + " at offset " + std::to_string(i));
    }
    void ws() {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) {
            i++;
        }
    }
    bool literal(const char* word) {
        size_t n = std::char_traits<char>::length(word);
        if (s.compare(i, n, word) == 0) {
            i += n;
            return true;
        }
        return false;
    }
    static void appendUtf8(std::string& out, unsigned cp) {
        if (cp < 0x80) {
            out += (char)cp;
        } else if (cp < 0x800) {
            out += (char)(0xC0 | (cp >> 6));
            out += (char)(0x80 | (cp & 0x3F));
        } else {
            out += (char)(0xE0 | (cp >> 12));
            out += (char)(0x80 | ((cp >> 6) & 0x3F));
            out += (char)(0x80 | (cp & 0x3F));
        }
    }
    std::string string() {
        if (s[i] != '"') {
            fail("expected a string");
        }
        i++;
        std::string out;
        while (i < s.size() && s[i] != '"') {
            char c = s[i++];
            if (c != '\\') {
                out += c;
                continue;
            }
            if (i >= s.size()) {
                fail("bad escape");
            }
            char e = s[i++];
            switch (e) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'u': {
                    if (i + 4 > s.size()) {
                        fail("bad \\u escape");
                    }
                    appendUtf8(out, (unsigned)std::strtoul(s.substr(i, 4).c_str(), nullptr, 16));
                    i += 4;
                    break;
                }
                default: out += e; break;
            }
        }
        if (i >= s.size()) {
            fail("unterminated string");
        }
        i++;
        return out;
    }
    Value value() {
        ws();
        if (i >= s.size()) {
            fail("unexpected end");
        }
        Value v;
        char c = s[i];
        if (c == '{') {
            v.type = Value::Object;
            i++;
            ws();
            if (i < s.size() && s[i] == '}') {
                i++;
                return v;
            }
            while (true) {
                ws();
                std::string key = string();
                ws();
                if (i >= s.size() || s[i] != ':') {
                    fail("expected ':'");
                }
                i++;
                v.obj[key] = value();
                ws();
                if (i < s.size() && s[i] == ',') {
                    i++;
                    continue;
                }
                if (i < s.size() && s[i] == '}') {
                    i++;
                    return v;
                }
                fail("expected ',' or '}'");
            }
        }
        if (c == '[') {
            v.type = Value::Array;
            i++;
            ws();
            if (i < s.size() && s[i] == ']') {
                i++;
                return v;
            }
            while (true) {
                v.arr.push_back(value());
                ws();
                if (i < s.size() && s[i] == ',') {
                    i++;
                    continue;
                }
                if (i < s.size() && s[i] == ']') {
                    i++;
                    return v;
                }
                fail("expected ',' or ']'");
            }
        }
        if (c == '"') {
            v.type = Value::String;
            v.str = string();
            return v;
        }
        if (literal("true")) {
            v.type = Value::Bool;
            v.b = true;
            return v;
        }
        if (literal("false")) {
            v.type = Value::Bool;
            return v;
        }
        if (literal("null")) {
            return v;
        }
        if (literal("NaN") || literal("Infinity") || literal("-Infinity")) {
            v.type = Value::Number;  // Python's json writes these; the manifest values we read never are
            return v;
        }
        const char* start = s.c_str() + i;
        char* end = nullptr;
        v.num = std::strtod(start, &end);
        if (end == start) {
            fail("unexpected character");
        }
        v.type = Value::Number;
        i += (size_t)(end - start);
        return v;
    }
};

inline Value parse(const std::string& text) {
    return Parser(text).parse();
}

} // namespace MiniJson

#endif
