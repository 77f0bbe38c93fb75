// A minimal protobuf reader for ONNX's backend node-test data (model.onnx, input_N.pb, output_N.pb),
// so op tests can use ONNX's expected outputs as an oracle without linking protobuf or onnx.
#ifndef MNN_TEST_OPS_ONNXNODEDATA_HPP
#define MNN_TEST_OPS_ONNXNODEDATA_HPP

#include <stdint.h>
#include <string.h>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace MNN {
namespace Test {
namespace OnnxData {

/** one decoded protobuf message: field number -> raw values (varints as numbers, others as bytes) */
struct Message {
    std::map<int, std::vector<uint64_t>> ints;        // wire types 0, 1, 5
    std::map<int, std::vector<std::string>> bytes;    // wire type 2
    bool ok = true;

    static bool readVarint(const std::string& s, size_t& p, uint64_t* v) {
        *v = 0;
        for (int shift = 0; shift < 64 && p < s.size(); shift += 7) {
            uint8_t b = (uint8_t)s[p++];
            *v |= (uint64_t)(b & 0x7f) << shift;
            if (!(b & 0x80)) {
                return true;
            }
        }
        return false;
    }
    static Message parse(const std::string& s) {
        Message m;
        size_t p = 0;
        while (p < s.size()) {
            uint64_t key;
            if (!readVarint(s, p, &key)) {
                m.ok = false;
                return m;
            }
            int field = (int)(key >> 3), wire = (int)(key & 7);
            uint64_t v = 0;
            if (wire == 0) {
                if (!readVarint(s, p, &v)) {
                    m.ok = false;
                    return m;
                }
                m.ints[field].push_back(v);
            } else if (wire == 1 || wire == 5) {
                size_t n = wire == 1 ? 8 : 4;
                if (p + n > s.size()) {
                    m.ok = false;
                    return m;
                }
                memcpy(&v, s.data() + p, n);
                p += n;
                m.ints[field].push_back(v);
            } else if (wire == 2) {
                if (!readVarint(s, p, &v) || p + v > s.size()) {
                    m.ok = false;
                    return m;
                }
                m.bytes[field].push_back(s.substr(p, (size_t)v));
                p += (size_t)v;
            } else {
                m.ok = false;
                return m;
            }
        }
        return m;
    }
    /** repeated varint field, packed or not */
    std::vector<int64_t> varints(int field) const {
        std::vector<int64_t> r;
        auto it = ints.find(field);
        if (it != ints.end()) {
            for (auto v : it->second) {
                r.push_back((int64_t)v);
            }
        }
        auto bt = bytes.find(field);
        if (bt != bytes.end()) {
            for (auto& b : bt->second) {
                size_t p = 0;
                uint64_t v;
                while (p < b.size() && readVarint(b, p, &v)) {
                    r.push_back((int64_t)v);
                }
            }
        }
        return r;
    }
    /** repeated fixed-width field (float 4 / double 8), packed or not */
    template <typename T>
    std::vector<T> fixed(int field) const {
        std::vector<T> r;
        auto it = ints.find(field);
        if (it != ints.end()) {
            for (auto v : it->second) {
                T t;
                memcpy(&t, &v, sizeof(T));
                r.push_back(t);
            }
        }
        auto bt = bytes.find(field);
        if (bt != bytes.end()) {
            for (auto& b : bt->second) {
                for (size_t p = 0; p + sizeof(T) <= b.size(); p += sizeof(T)) {
                    T t;
                    memcpy(&t, b.data() + p, sizeof(T));
                    r.push_back(t);
                }
            }
        }
        return r;
    }
    std::string str(int field, size_t i = 0) const {
        auto it = bytes.find(field);
        return (it == bytes.end() || it->second.size() <= i) ? std::string() : it->second[i];
    }
    std::vector<Message> messages(int field) const {
        std::vector<Message> r;
        auto it = bytes.find(field);
        if (it != bytes.end()) {
            for (auto& b : it->second) {
                r.push_back(parse(b));
            }
        }
        return r;
    }
    std::vector<std::string> strings(int field) const {
        auto it = bytes.find(field);
        return it == bytes.end() ? std::vector<std::string>() : it->second;
    }
};

inline bool readFile(const std::string& path, std::string* out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        return false;
    }
    std::stringstream ss;
    ss << f.rdbuf();
    *out = ss.str();
    return true;
}

// ONNX TensorProto.DataType values
enum OnnxType {
    FLOAT = 1, UINT8 = 2, INT8 = 3, UINT16 = 4, INT16 = 5, INT32 = 6, INT64 = 7, STRING = 8, BOOL = 9,
    FLOAT16 = 10, DOUBLE = 11, UINT32 = 12, UINT64 = 13, BFLOAT16 = 16
};

/** a decoded tensor: values widened to double (exact for every type but the widest int64) and int64 */
struct TensorData {
    std::string name;
    std::vector<int> dims;
    int type = 0;
    std::vector<double> values;
    std::vector<int64_t> ints;  // exact values for integer types
    bool ok = false;
};

float halfToFloat(uint16_t h);
float bf16ToFloatValue(uint16_t h);

inline TensorData decodeTensor(const Message& m) {
    TensorData t;
    t.name = m.str(8);
    for (auto d : m.varints(1)) {
        t.dims.push_back((int)d);
    }
    auto dt = m.varints(2);
    t.type = dt.empty() ? 0 : (int)dt[0];
    size_t count = 1;
    for (auto d : t.dims) {
        count *= (size_t)d;
    }
    const std::string raw = m.str(9);
    auto push = [&](double v, int64_t i) {
        t.values.push_back(v);
        t.ints.push_back(i);
    };
    const bool hasRaw = m.bytes.count(9) > 0;
    switch (t.type) {
        case FLOAT: {
            std::vector<float> v;
            if (hasRaw) {
                v.resize(raw.size() / 4);
                memcpy(v.data(), raw.data(), v.size() * 4);
            } else {
                v = m.fixed<float>(4);
            }
            for (auto x : v) push(x, (int64_t)0);
            break;
        }
        case DOUBLE: {
            std::vector<double> v;
            if (hasRaw) {
                v.resize(raw.size() / 8);
                memcpy(v.data(), raw.data(), v.size() * 8);
            } else {
                v = m.fixed<double>(10);
            }
            for (auto x : v) push(x, (int64_t)0);
            break;
        }
        case INT64:
        case UINT64:
        case UINT32: {
            if (hasRaw) {
                size_t w = t.type == UINT32 ? 4 : 8;
                for (size_t p = 0; p + w <= raw.size(); p += w) {
                    uint64_t u = 0;
                    memcpy(&u, raw.data() + p, w);
                    int64_t i = t.type == INT64 ? (int64_t)u : (int64_t)u;
                    push(t.type == UINT64 ? (double)u : (double)i, i);
                }
            } else {
                for (auto i : m.varints(t.type == INT64 ? 7 : 11)) push(t.type == UINT64 ? (double)(uint64_t)i : (double)i, i);
            }
            break;
        }
        case INT32: case INT16: case INT8: case UINT16: case UINT8: case BOOL: case FLOAT16: case BFLOAT16: {
            std::vector<int64_t> bitsV;
            size_t w = (t.type == INT32) ? 4 : (t.type == INT16 || t.type == UINT16 || t.type == FLOAT16 || t.type == BFLOAT16) ? 2 : 1;
            if (hasRaw) {
                for (size_t p = 0; p + w <= raw.size(); p += w) {
                    uint32_t u = 0;
                    memcpy(&u, raw.data() + p, w);
                    int64_t i = (int64_t)u;
                    if (t.type == INT32) i = (int32_t)u;
                    if (t.type == INT16) i = (int16_t)u;
                    if (t.type == INT8) i = (int8_t)u;
                    bitsV.push_back(i);
                }
            } else {
                for (auto i : m.varints(5)) {
                    int64_t v = i;
                    if (t.type == INT32) v = (int32_t)i;
                    bitsV.push_back(v);
                }
            }
            for (auto i : bitsV) {
                if (t.type == FLOAT16) push(halfToFloat((uint16_t)i), 0);
                else if (t.type == BFLOAT16) push(bf16ToFloatValue((uint16_t)i), 0);
                else push((double)i, i);
            }
            break;
        }
        default:
            return t;
    }
    t.ok = t.values.size() == count;
    return t;
}

inline float halfToFloat(uint16_t h) {
    uint32_t sign = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, mant = h & 0x3ff;
    float f;
    if (e == 0) {
        f = (float)mant * (1.0f / 16777216.0f);
        return sign ? -f : f;
    }
    uint32_t bits = sign | (e == 31 ? (0xffu << 23) | (mant << 13) : ((e + 112) << 23) | (mant << 13));
    memcpy(&f, &bits, 4);
    return f;
}
inline float bf16ToFloatValue(uint16_t h) {
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

} // namespace OnnxData
} // namespace Test
} // namespace MNN
#endif
