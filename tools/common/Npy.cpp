// Npy: .npy reader / writer. See Npy.hpp.
#include "Npy.hpp"

#include <cstdio>
#include <cstdlib>
#include <limits>

namespace MNN {
namespace Npy {

static void setError(std::string* error, const std::string& msg) {
    if (error) {
        *error = msg;
    }
}

std::string Array::descr() const {
    std::string s;
    s += bytes == 1 ? '|' : '<';
    s += kind == Kind::Float ? 'f' : kind == Kind::Int ? 'i' : kind == Kind::UInt ? 'u' : 'b';
    s += std::to_string(bytes);
    return s;
}

bool Array::parseDescr(const std::string& descr, Array* a, std::string* error) {
    if (descr.size() < 3) {
        setError(error, "npy: bad type string '" + descr + "'");
        return false;
    }
    char order = descr[0];
    char k = descr[1];
    int n = std::atoi(descr.c_str() + 2);
    bool oneByte = n == 1;
    if (order == '>' && !oneByte) {
        setError(error, "npy: big-endian type '" + descr + "' is not supported");
        return false;
    }
    if (order != '<' && order != '|' && order != '=' && order != '>') {
        setError(error, "npy: bad type string '" + descr + "'");
        return false;
    }
    Kind kind;
    bool ok = false;
    switch (k) {
        case 'f':
            kind = Kind::Float;
            ok = n == 4 || n == 8;
            break;
        case 'i':
            kind = Kind::Int;
            ok = n == 1 || n == 2 || n == 4 || n == 8;
            break;
        case 'u':
            kind = Kind::UInt;
            ok = n == 1 || n == 2 || n == 4 || n == 8;
            break;
        case 'b':
            kind = Kind::Bool;
            ok = n == 1;
            break;
        default:
            break;
    }
    if (!ok) {
        setError(error, "npy: element type '" + descr + "' is not supported");
        return false;
    }
    a->kind = kind;
    a->bytes = n;
    return true;
}

std::vector<double> Array::toDouble() const {
    int64_t n = count();
    std::vector<double> v((size_t)n);
    for (int64_t i = 0; i < n; ++i) {
        const uint8_t* p = raw.data() + i * bytes;
        double x = 0;
        switch (kind) {
            case Kind::Float:
                if (bytes == 4) {
                    float f;
                    std::memcpy(&f, p, 4);
                    x = f;
                } else {
                    std::memcpy(&x, p, 8);
                }
                break;
            case Kind::Int: {
                int64_t t = 0;
                if (bytes == 1) { int8_t q; std::memcpy(&q, p, 1); t = q; }
                if (bytes == 2) { int16_t q; std::memcpy(&q, p, 2); t = q; }
                if (bytes == 4) { int32_t q; std::memcpy(&q, p, 4); t = q; }
                if (bytes == 8) { std::memcpy(&t, p, 8); }
                x = (double)t;
                break;
            }
            case Kind::UInt:
            case Kind::Bool: {
                uint64_t t = 0;
                std::memcpy(&t, p, bytes);  // little-endian host
                x = (double)t;
                break;
            }
        }
        v[(size_t)i] = x;
    }
    return v;
}

// ---- header parsing: {'descr': '<f4', 'fortran_order': False, 'shape': (1, 3), }
static bool findValue(const std::string& h, const std::string& key, size_t* pos) {
    size_t k = h.find("'" + key + "'");
    if (k == std::string::npos) {
        k = h.find("\"" + key + "\"");
    }
    if (k == std::string::npos) {
        return false;
    }
    size_t c = h.find(':', k);
    if (c == std::string::npos) {
        return false;
    }
    c++;
    while (c < h.size() && h[c] == ' ') {
        c++;
    }
    *pos = c;
    return c < h.size();
}

bool readBuffer(const void* data, size_t size, Array* out, std::string* error) {
    const uint8_t* b = static_cast<const uint8_t*>(data);
    static const uint8_t magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    if (size < 10 || std::memcmp(b, magic, 6) != 0) {
        setError(error, "npy: not a .npy file (bad magic)");
        return false;
    }
    int major = b[6];
    size_t headerLen = 0;
    size_t offset = 0;
    if (major == 1) {
        headerLen = (size_t)b[8] | ((size_t)b[9] << 8);
        offset = 10;
    } else if (major == 2 || major == 3) {
        if (size < 12) {
            setError(error, "npy: truncated header");
            return false;
        }
        headerLen = (size_t)b[8] | ((size_t)b[9] << 8) | ((size_t)b[10] << 16) | ((size_t)b[11] << 24);
        offset = 12;
    } else {
        setError(error, "npy: unsupported format version " + std::to_string(major));
        return false;
    }
    if (headerLen > size - offset) {
        setError(error, "npy: truncated header");
        return false;
    }
    std::string h(reinterpret_cast<const char*>(b + offset), headerLen);
    size_t p = 0;
    if (!findValue(h, "descr", &p) || (h[p] != '\'' && h[p] != '"')) {
        setError(error, "npy: header has no 'descr'");
        return false;
    }
    size_t e = h.find(h[p], p + 1);
    if (e == std::string::npos) {
        setError(error, "npy: bad 'descr'");
        return false;
    }
    Array a;
    if (!Array::parseDescr(h.substr(p + 1, e - p - 1), &a, error)) {
        return false;
    }
    if (findValue(h, "fortran_order", &p) && h.compare(p, 4, "True") == 0) {
        setError(error, "npy: Fortran-order arrays are not supported");
        return false;
    }
    if (!findValue(h, "shape", &p) || h[p] != '(') {
        setError(error, "npy: header has no 'shape'");
        return false;
    }
    size_t close = h.find(')', p);
    if (close == std::string::npos) {
        setError(error, "npy: bad 'shape'");
        return false;
    }
    std::string dims = h.substr(p + 1, close - p - 1);
    size_t i = 0;
    int64_t count = 1;
    while (i < dims.size()) {
        while (i < dims.size() && (dims[i] == ' ' || dims[i] == ',')) {
            i++;
        }
        if (i >= dims.size()) {
            break;
        }
        if (dims[i] < '0' || dims[i] > '9') {
            setError(error, "npy: bad 'shape'");
            return false;
        }
        int64_t d = 0;
        while (i < dims.size() && dims[i] >= '0' && dims[i] <= '9') {
            d = d * 10 + (dims[i] - '0');
            if (d > ((int64_t)1 << 40)) {
                setError(error, "npy: shape too large");
                return false;
            }
            i++;
        }
        a.shape.push_back(d);
        if (d != 0 && count > std::numeric_limits<int64_t>::max() / d / 8) {
            setError(error, "npy: shape too large");
            return false;
        }
        count *= d;
    }
    size_t need = (size_t)count * (size_t)a.bytes;
    size_t dataOffset = offset + headerLen;
    if (size - dataOffset < need) {
        setError(error, "npy: data truncated (" + std::to_string(size - dataOffset) + " bytes, expected " +
                            std::to_string(need) + ")");
        return false;
    }
    a.raw.assign(b + dataOffset, b + dataOffset + need);
    *out = std::move(a);
    return true;
}

bool read(const std::string& path, Array* out, std::string* error) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        setError(error, "npy: cannot open " + path);
        return false;
    }
    std::vector<uint8_t> bytes;
    uint8_t buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) {
        bytes.insert(bytes.end(), buf, buf + n);
    }
    std::fclose(f);
    if (!readBuffer(bytes.data(), bytes.size(), out, error)) {
        if (error) {
            *error += " (" + path + ")";
        }
        return false;
    }
    return true;
}

std::vector<uint8_t> serialize(const Array& array) {
    std::string h = "{'descr': '" + array.descr() + "', 'fortran_order': False, 'shape': (";
    for (size_t i = 0; i < array.shape.size(); ++i) {
        h += std::to_string(array.shape[i]);
        if (array.shape.size() == 1 || i + 1 < array.shape.size()) {
            h += ",";
        }
        if (i + 1 < array.shape.size()) {
            h += " ";
        }
    }
    h += "), }";
    // pad with spaces so that the data starts on a 64-byte boundary, end with '\n'
    bool v2 = h.size() + 11 > 65535;
    size_t pre = v2 ? 12 : 10;
    size_t total = pre + h.size() + 1;
    size_t pad = (64 - total % 64) % 64;
    h.append(pad, ' ');
    h += '\n';
    std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', (uint8_t)(v2 ? 2 : 1), 0};
    size_t len = h.size();
    out.push_back((uint8_t)(len & 0xff));
    out.push_back((uint8_t)((len >> 8) & 0xff));
    if (v2) {
        out.push_back((uint8_t)((len >> 16) & 0xff));
        out.push_back((uint8_t)((len >> 24) & 0xff));
    }
    out.insert(out.end(), h.begin(), h.end());
    out.insert(out.end(), array.raw.begin(), array.raw.end());
    return out;
}

bool write(const std::string& path, const Array& array, std::string* error) {
    if ((int64_t)array.raw.size() != array.count() * array.bytes) {
        setError(error, "npy: array data size does not match its shape");
        return false;
    }
    auto bytes = serialize(array);
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) {
        setError(error, "npy: cannot create " + path);
        return false;
    }
    bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    ok = (std::fclose(f) == 0) && ok;
    if (!ok) {
        setError(error, "npy: write failed: " + path);
    }
    return ok;
}

} // namespace Npy
} // namespace MNN
