// Npy: a small reader / writer for NumPy's .npy files (format versions 1.0, 2.0 and 3.0).
// No dependencies beyond the C++ standard library; little-endian, C order only.
//
//   MNN::Npy::Array a;
//   std::string err;
//   if (!MNN::Npy::read("x.npy", &a, &err)) { ... }
//   if (a.is<float>()) { const float* p = a.data<float>(); ... }
//   MNN::Npy::write("y.npy", MNN::Npy::Array::of<float>({2, 3}, values), &err);
#ifndef MNN_TOOLS_COMMON_NPY_HPP
#define MNN_TOOLS_COMMON_NPY_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace MNN {
namespace Npy {

/** element kinds a .npy file can hold here */
enum class Kind { Float, Int, UInt, Bool };

/** NumPy's type string ("<f4", "|u1", "|b1"...) for a C++ element type */
template <typename T>
const char* descrOf();
template <> inline const char* descrOf<float>() { return "<f4"; }
template <> inline const char* descrOf<double>() { return "<f8"; }
template <> inline const char* descrOf<int8_t>() { return "|i1"; }
template <> inline const char* descrOf<int16_t>() { return "<i2"; }
template <> inline const char* descrOf<int32_t>() { return "<i4"; }
template <> inline const char* descrOf<int64_t>() { return "<i8"; }
template <> inline const char* descrOf<uint8_t>() { return "|u1"; }
template <> inline const char* descrOf<uint16_t>() { return "<u2"; }
template <> inline const char* descrOf<uint32_t>() { return "<u4"; }
template <> inline const char* descrOf<uint64_t>() { return "<u8"; }
template <> inline const char* descrOf<bool>() { return "|b1"; }

struct Array {
    Kind kind = Kind::Float;
    int bytes = 4;                 // bytes per element
    std::vector<int64_t> shape;    // empty = rank 0 (one element)
    std::vector<uint8_t> raw;      // count() * bytes, little-endian, C order

    int64_t count() const {
        int64_t n = 1;
        for (auto d : shape) {
            n *= d;
        }
        return n;
    }
    /** the canonical NumPy type string of this array ("<f4", "|u1", "|b1"...) */
    std::string descr() const;

    template <typename T>
    bool is() const {
        return descr() == descrOf<T>();
    }
    template <typename T>
    const T* data() const {
        return reinterpret_cast<const T*>(raw.data());
    }
    template <typename T>
    T* data() {
        return reinterpret_cast<T*>(raw.data());
    }
    /** every element converted to double (any kind) */
    std::vector<double> toDouble() const;

    template <typename T>
    static Array of(const std::vector<int64_t>& shape, const T* values) {
        Array a;
        parseDescr(descrOf<T>(), &a, nullptr);
        a.shape = shape;
        a.raw.resize((size_t)a.count() * sizeof(T));
        if (!a.raw.empty()) {
            std::memcpy(a.raw.data(), values, a.raw.size());
        }
        return a;
    }
    /** sets kind and bytes from a type string; false (and *error) when not supported */
    static bool parseDescr(const std::string& descr, Array* a, std::string* error);
};

/** reads a .npy file; false and a one-line *error when the file is missing or not a supported .npy */
bool read(const std::string& path, Array* out, std::string* error);
/** parses .npy bytes held in memory */
bool readBuffer(const void* data, size_t size, Array* out, std::string* error);
/** writes a version 1.0 .npy file (2.0 when the header needs it) */
bool write(const std::string& path, const Array& array, std::string* error);
/** the .npy bytes of an array */
std::vector<uint8_t> serialize(const Array& array);

} // namespace Npy
} // namespace MNN

#endif
