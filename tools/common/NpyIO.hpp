// A small .npy reader / writer for the command-line tools and their tests.
// Supports C-order arrays of float32, float64, int32, int64, uint8 and bool (little-endian or
// byte-order-free), format versions 1.0, 2.0 and 3.0 on read; writes 1.0 (2.0 when the header
// does not fit). Fortran-order and big-endian files are rejected with a message.
#ifndef MNN_TOOLS_NPYIO_HPP
#define MNN_TOOLS_NPYIO_HPP

#include <stdint.h>
#include <string>
#include <vector>

namespace MNN {
namespace Tools {

enum class NpyType { Float32, Float64, Int32, Int64, UInt8, Bool };

struct NpyArray {
    NpyType type = NpyType::Float32;
    std::vector<int64_t> shape;  // empty = rank 0 (one element)
    std::vector<uint8_t> data;   // C order, little-endian

    int64_t elementCount() const;
    /** the value of element i converted to double */
    double at(int64_t i) const;
};

int npyItemSize(NpyType type);
/** numpy's dtype name: "float32", "int64", "bool"... */
const char* npyTypeName(NpyType type);
/** "2x3" ("scalar" for rank 0) */
std::string npyShapeString(const std::vector<int64_t>& shape);

/** false (and a message in *error) when the file is missing, truncated or of an unsupported kind */
bool readNpy(const std::string& path, NpyArray* out, std::string* error);
bool parseNpy(const uint8_t* bytes, size_t size, NpyArray* out, std::string* error);
bool writeNpy(const std::string& path, const NpyArray& array, std::string* error);
std::vector<uint8_t> encodeNpy(const NpyArray& array);

}  // namespace Tools
}  // namespace MNN
#endif
