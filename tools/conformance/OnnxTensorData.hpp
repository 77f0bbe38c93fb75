// OnnxTensorData: ONNX TensorProto <-> plain bytes, and the ONNX element types the engine can hold.
#ifndef MNN_TOOLS_CONFORMANCE_ONNXTENSORDATA_HPP
#define MNN_TOOLS_CONFORMANCE_ONNXTENSORDATA_HPP

#include <MNN/HalideRuntime.h>
#include <cstdint>
#include <string>
#include <vector>

namespace onnx {
class TensorProto;
class TypeProto;
}

namespace MNN {
namespace Conformance {

/** a decoded tensor: ONNX element type, dims and little-endian bytes (bool as one byte 0/1) */
struct HostData {
    int onnxType = 0;
    std::vector<int64_t> dims;
    std::vector<uint8_t> bytes;
    int64_t count() const;
};

/** the ONNX element type name ("float", "int64", "float16"...) */
const char* onnxTypeName(int onnxType);

/** the engine's type for an ONNX element type; false when the engine cannot hold it */
bool engineType(int onnxType, halide_type_t* type, int* bytes);

/**
 * why a graph value cannot be fed to or read from the engine ("sequence", "map", "optional",
 * "sparse tensor", "string", "float16"...); empty when it is a tensor of a type the engine holds
 */
std::string notTensorReason(const onnx::TypeProto& type);

/** decodes raw_data or the typed fields; false and *error when the data is inconsistent */
bool decodeTensor(const onnx::TensorProto& t, HostData* out, std::string* error);

/** reads a file holding a serialized TensorProto */
bool readTensorFile(const std::string& path, HostData* out, std::string* error);

/** element i as a double (float types, and integers for messages) */
double elementAsDouble(const HostData& d, int64_t i);

} // namespace Conformance
} // namespace MNN

#endif
