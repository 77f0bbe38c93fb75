#include "NpyIO.hpp"
#include <string.h>
#include <fstream>
#include <iterator>
#include <sstream>

namespace MNN {
namespace Tools {

int npyItemSize(NpyType type) {
    switch (type) {
        case NpyType::Float32:
            return 4;
        case NpyType::Float64:
            return 8;
        case NpyType::Int32:
            return 4;
        case NpyType::Int64:
            return 8;
        case NpyType::UInt8:
            return 1;
        case NpyType::Bool:
            return 1;
    }
    return 1;
}

const char* npyTypeName(NpyType type) {
    switch (type) {
        case NpyType::Float32:
            return "float32";
        case NpyType::Float64:
            return "float64";
        case NpyType::Int32:
            return "int32";
        case NpyType::Int64:
            return "int64";
        case NpyType::UInt8:
            return "uint8";
        case NpyType::Bool:
            return "bool";
    }
    return "?";
}

static const char* descrOf(NpyType type) {
    switch (type) {
        case NpyType::Float32:
            return "<f4";
        case NpyType::Float64:
            return "<f8";
        case NpyType::Int32:
            return "<i4";
        case NpyType::Int64:
            return "<i8";
        case NpyType::UInt8:
            return "|u1";
        case NpyType::Bool:
            return "|b1";
    }
    return "";
}

std::string npyShapeString(const std::vector<int64_t>& shape) {
    if (shape.empty()) {
        return "scalar";
    }
    std::string s;
    for (size_t i = 0; i < shape.size(); ++i) {
        s += (i ? "x" : "") + std::to_string(shape[i]);
    }
    return s;
}

int64_t NpyArray::elementCount() const {
    int64_t n = 1;
    for (auto d : shape) {
        n *= d;
    }
    return n;
}

double NpyArray::at(int64_t i) const {
    const uint8_t* p = data.data() + i * npyItemSize(type);
    switch (type) {
        case NpyType::Float32: {
            float v;
            memcpy(&v, p, 4);
            return v;
        }
        case NpyType::Float64: {
            double v;
            memcpy(&v, p, 8);
            return v;
        }
        case NpyType::Int32: {
            int32_t v;
            memcpy(&v, p, 4);
            return v;
        }
        case NpyType::Int64: {
            int64_t v;
            memcpy(&v, p, 8);
            return (double)v;
        }
        case NpyType::UInt8:
            return *p;
        case NpyType::Bool:
            return *p ? 1.0 : 0.0;
    }
    return 0;
}

// Finds the value text after 'key': in the header dict.
static bool findValue(const std::string& header, const std::string& key, size_t* pos) {
    for (const char* q : {"'", "\""}) {
        auto k = header.find(q + key + q);
        if (k != std::string::npos) {
            auto colon = header.find(':', k + key.size() + 2);
            if (colon == std::string::npos) {
                return false;
            }
            *pos = colon + 1;
            while (*pos < header.size() && header[*pos] == ' ') {
                ++*pos;
            }
            return true;
        }
    }
    return false;
}

bool parseNpy(const uint8_t* bytes, size_t size, NpyArray* out, std::string* error) {
    auto fail = [&](const std::string& m) {
        if (error) {
            *error = m;
        }
        return false;
    };
    if (size < 10 || memcmp(bytes, "\x93NUMPY", 6) != 0) {
        return fail("not an .npy file (bad magic)");
    }
    int major = bytes[6];
    size_t headerLen = 0, offset = 0;
    if (major == 1) {
        headerLen = (size_t)bytes[8] | ((size_t)bytes[9] << 8);
        offset = 10;
    } else if (major == 2 || major == 3) {
        if (size < 12) {
            return fail("truncated .npy header");
        }
        headerLen = (size_t)bytes[8] | ((size_t)bytes[9] << 8) | ((size_t)bytes[10] << 16) | ((size_t)bytes[11] << 24);
        offset = 12;
    } else {
        return fail("unsupported .npy format version " + std::to_string(major));
    }
    if (headerLen > size - offset) {
        return fail("truncated .npy header");
    }
    std::string header((const char*)bytes + offset, headerLen);
    size_t pos = 0;
    if (!findValue(header, "descr", &pos) || pos >= header.size()) {
        return fail("the .npy header has no descr");
    }
    char quote = header[pos];
    auto end = header.find(quote, pos + 1);
    if ((quote != '\'' && quote != '"') || end == std::string::npos) {
        return fail("the .npy descr is not a simple dtype (structured arrays are not supported)");
    }
    std::string descr = header.substr(pos + 1, end - pos - 1);
    if (descr.size() < 2) {
        return fail("bad .npy descr '" + descr + "'");
    }
    char order = descr[0];
    std::string kind = descr.substr(1);
    if (order == '>' && kind != "u1" && kind != "b1" && kind != "i1") {
        return fail("big-endian .npy data ('" + descr + "') is not supported");
    }
    if (order != '<' && order != '|' && order != '=' && order != '>') {
        kind = descr;
    }
    if (kind == "f4") {
        out->type = NpyType::Float32;
    } else if (kind == "f8") {
        out->type = NpyType::Float64;
    } else if (kind == "i4") {
        out->type = NpyType::Int32;
    } else if (kind == "i8") {
        out->type = NpyType::Int64;
    } else if (kind == "u1") {
        out->type = NpyType::UInt8;
    } else if (kind == "b1" || kind == "?") {
        out->type = NpyType::Bool;
    } else {
        return fail("unsupported .npy dtype '" + descr + "' (float32/float64/int32/int64/uint8/bool are)");
    }
    if (!findValue(header, "fortran_order", &pos)) {
        return fail("the .npy header has no fortran_order");
    }
    if (header.compare(pos, 4, "True") == 0) {
        return fail("Fortran-order .npy arrays are not supported (save with C order)");
    }
    if (!findValue(header, "shape", &pos) || pos >= header.size() || header[pos] != '(') {
        return fail("the .npy header has no shape");
    }
    auto close = header.find(')', pos);
    if (close == std::string::npos) {
        return fail("bad .npy shape");
    }
    out->shape.clear();
    std::string dims = header.substr(pos + 1, close - pos - 1);
    size_t i = 0;
    while (i < dims.size()) {
        while (i < dims.size() && (dims[i] == ' ' || dims[i] == ',')) {
            ++i;
        }
        if (i >= dims.size()) {
            break;
        }
        size_t j = i;
        while (j < dims.size() && dims[j] >= '0' && dims[j] <= '9') {
            ++j;
        }
        if (j == i || j - i > 15) {
            return fail("bad .npy shape '(" + dims + ")'");
        }
        out->shape.push_back(std::stoll(dims.substr(i, j - i)));
        i = j;
    }
    int64_t count = 1;
    for (auto d : out->shape) {
        if (d != 0 && count > ((int64_t)1 << 40) / d) {
            return fail("the .npy shape is too large");
        }
        count *= d;
    }
    size_t need = (size_t)count * npyItemSize(out->type);
    size_t dataStart = offset + headerLen;
    if (size - dataStart < need) {
        return fail("truncated .npy data: " + std::to_string(size - dataStart) + " bytes for " + std::to_string(need));
    }
    out->data.assign(bytes + dataStart, bytes + dataStart + need);
    return true;
}

bool readNpy(const std::string& path, NpyArray* out, std::string* error) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        if (error) {
            *error = "cannot open " + path;
        }
        return false;
    }
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::string e;
    if (!parseNpy(bytes.data(), bytes.size(), out, &e)) {
        if (error) {
            *error = path + ": " + e;
        }
        return false;
    }
    return true;
}

std::vector<uint8_t> encodeNpy(const NpyArray& array) {
    std::ostringstream h;
    h << "{'descr': '" << descrOf(array.type) << "', 'fortran_order': False, 'shape': (";
    for (size_t i = 0; i < array.shape.size(); ++i) {
        h << array.shape[i] << (array.shape.size() == 1 ? "," : (i + 1 < array.shape.size() ? ", " : ""));
    }
    h << "), }";
    std::string header = h.str();
    // pad with spaces and a newline so that the data starts on a 64-byte boundary
    size_t prefix = header.size() + 1 + 64 > 65535 ? 12 : 10;  // version 2.0 when 1.0's 16-bit length overflows
    size_t total = prefix + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header.push_back('\n');
    std::vector<uint8_t> out;
    out.insert(out.end(), {0x93, 'N', 'U', 'M', 'P', 'Y'});
    size_t len = header.size();
    if (prefix == 10) {
        out.insert(out.end(), {1, 0, (uint8_t)(len & 0xff), (uint8_t)(len >> 8)});
    } else {
        out.insert(out.end(),
                   {2, 0, (uint8_t)(len & 0xff), (uint8_t)(len >> 8), (uint8_t)(len >> 16), (uint8_t)(len >> 24)});
    }
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), array.data.begin(), array.data.end());
    return out;
}

bool writeNpy(const std::string& path, const NpyArray& array, std::string* error) {
    auto bytes = encodeNpy(array);
    std::ofstream f(path, std::ios::binary);
    if (!f || !f.write((const char*)bytes.data(), (std::streamsize)bytes.size())) {
        if (error) {
            *error = "cannot write " + path;
        }
        return false;
    }
    return true;
}

}  // namespace Tools
}  // namespace MNN
