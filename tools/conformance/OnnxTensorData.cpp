// OnnxTensorData: see OnnxTensorData.hpp.
#include "OnnxTensorData.hpp"

#include <onnx/onnx_pb.h>
#include <cstring>
#include <fstream>
#include <sstream>

namespace MNN {
namespace Conformance {

int64_t HostData::count() const {
    int64_t n = 1;
    for (auto d : dims) {
        n *= d;
    }
    return n;
}

const char* onnxTypeName(int t) {
    switch (t) {
        case onnx::TensorProto::FLOAT: return "float";
        case onnx::TensorProto::UINT8: return "uint8";
        case onnx::TensorProto::INT8: return "int8";
        case onnx::TensorProto::UINT16: return "uint16";
        case onnx::TensorProto::INT16: return "int16";
        case onnx::TensorProto::INT32: return "int32";
        case onnx::TensorProto::INT64: return "int64";
        case onnx::TensorProto::STRING: return "string";
        case onnx::TensorProto::BOOL: return "bool";
        case onnx::TensorProto::FLOAT16: return "float16";
        case onnx::TensorProto::DOUBLE: return "double";
        case onnx::TensorProto::UINT32: return "uint32";
        case onnx::TensorProto::UINT64: return "uint64";
        case onnx::TensorProto::COMPLEX64: return "complex64";
        case onnx::TensorProto::COMPLEX128: return "complex128";
        case onnx::TensorProto::BFLOAT16: return "bfloat16";
        case 17: return "float8e4m3fn";
        case 18: return "float8e4m3fnuz";
        case 19: return "float8e5m2";
        case 20: return "float8e5m2fnuz";
        case 21: return "uint4";
        case 22: return "int4";
        case 23: return "float4e2m1";
        default: return "undefined";
    }
}

bool engineType(int t, halide_type_t* type, int* bytes) {
    switch (t) {
        case onnx::TensorProto::FLOAT: *type = halide_type_t(halide_type_float, 32); *bytes = 4; return true;
        case onnx::TensorProto::DOUBLE: *type = halide_type_t(halide_type_float, 64); *bytes = 8; return true;
        case onnx::TensorProto::INT8: *type = halide_type_t(halide_type_int, 8); *bytes = 1; return true;
        case onnx::TensorProto::INT16: *type = halide_type_t(halide_type_int, 16); *bytes = 2; return true;
        case onnx::TensorProto::INT32: *type = halide_type_t(halide_type_int, 32); *bytes = 4; return true;
        case onnx::TensorProto::INT64: *type = halide_type_t(halide_type_int, 64); *bytes = 8; return true;
        case onnx::TensorProto::UINT8:
        case onnx::TensorProto::BOOL: *type = halide_type_t(halide_type_uint, 8); *bytes = 1; return true;
        case onnx::TensorProto::UINT16: *type = halide_type_t(halide_type_uint, 16); *bytes = 2; return true;
        case onnx::TensorProto::UINT32: *type = halide_type_t(halide_type_uint, 32); *bytes = 4; return true;
        case onnx::TensorProto::UINT64: *type = halide_type_t(halide_type_uint, 64); *bytes = 8; return true;
        default: return false;
    }
}

std::string notTensorReason(const onnx::TypeProto& type) {
    switch (type.value_case()) {
        case onnx::TypeProto::kTensorType: {
            halide_type_t h;
            int b;
            int et = type.tensor_type().elem_type();
            if (!engineType(et, &h, &b)) {
                return std::string(onnxTypeName(et)) + " tensor";
            }
            return "";
        }
        case onnx::TypeProto::kSequenceType: return "sequence";
        case onnx::TypeProto::kMapType: return "map";
        case onnx::TypeProto::kOptionalType: return "optional";
        case onnx::TypeProto::kSparseTensorType: return "sparse tensor";
        default: return "value of unknown type";
    }
}

template <typename Src, typename Dst>
static void castInto(const Src* src, int64_t n, std::vector<uint8_t>* bytes) {
    bytes->resize((size_t)n * sizeof(Dst));
    Dst* d = reinterpret_cast<Dst*>(bytes->data());
    for (int64_t i = 0; i < n; ++i) {
        d[i] = (Dst)src[i];
    }
}

bool decodeTensor(const onnx::TensorProto& t, HostData* out, std::string* error) {
    out->onnxType = t.data_type();
    out->dims.assign(t.dims().begin(), t.dims().end());
    for (auto d : out->dims) {
        if (d < 0) {
            *error = "tensor '" + t.name() + "' has a negative dim";
            return false;
        }
    }
    halide_type_t ht;
    int bytes = 0;
    if (!engineType(out->onnxType, &ht, &bytes)) {
        *error = std::string("tensor '") + t.name() + "' has type " + onnxTypeName(out->onnxType);
        return false;
    }
    if (t.data_location() == onnx::TensorProto::EXTERNAL) {
        *error = "tensor '" + t.name() + "' has external data";
        return false;
    }
    int64_t n = out->count();
    if (t.has_raw_data()) {
        if ((int64_t)t.raw_data().size() != n * bytes) {
            *error = "tensor '" + t.name() + "': raw_data has " + std::to_string(t.raw_data().size()) +
                     " bytes, shape needs " + std::to_string(n * bytes);
            return false;
        }
        out->bytes.assign(t.raw_data().begin(), t.raw_data().end());
        return true;
    }
    int64_t have = 0;
    switch (out->onnxType) {
        case onnx::TensorProto::FLOAT: have = t.float_data_size(); break;
        case onnx::TensorProto::DOUBLE: have = t.double_data_size(); break;
        case onnx::TensorProto::INT64: have = t.int64_data_size(); break;
        case onnx::TensorProto::UINT32:
        case onnx::TensorProto::UINT64: have = t.uint64_data_size(); break;
        default: have = t.int32_data_size(); break;
    }
    if (have != n) {
        *error = "tensor '" + t.name() + "' holds " + std::to_string(have) + " values, shape needs " +
                 std::to_string(n);
        return false;
    }
    switch (out->onnxType) {
        case onnx::TensorProto::FLOAT: castInto<float, float>(t.float_data().data(), n, &out->bytes); break;
        case onnx::TensorProto::DOUBLE: castInto<double, double>(t.double_data().data(), n, &out->bytes); break;
        case onnx::TensorProto::INT64: castInto<int64_t, int64_t>(t.int64_data().data(), n, &out->bytes); break;
        case onnx::TensorProto::UINT32: castInto<uint64_t, uint32_t>(t.uint64_data().data(), n, &out->bytes); break;
        case onnx::TensorProto::UINT64: castInto<uint64_t, uint64_t>(t.uint64_data().data(), n, &out->bytes); break;
        case onnx::TensorProto::INT32: castInto<int32_t, int32_t>(t.int32_data().data(), n, &out->bytes); break;
        case onnx::TensorProto::INT16: castInto<int32_t, int16_t>(t.int32_data().data(), n, &out->bytes); break;
        case onnx::TensorProto::INT8: castInto<int32_t, int8_t>(t.int32_data().data(), n, &out->bytes); break;
        case onnx::TensorProto::UINT16: castInto<int32_t, uint16_t>(t.int32_data().data(), n, &out->bytes); break;
        case onnx::TensorProto::UINT8: castInto<int32_t, uint8_t>(t.int32_data().data(), n, &out->bytes); break;
        case onnx::TensorProto::BOOL: {
            out->bytes.resize((size_t)n);
            for (int64_t i = 0; i < n; ++i) {
                out->bytes[(size_t)i] = t.int32_data((int)i) != 0 ? 1 : 0;
            }
            break;
        }
        default:
            *error = "unhandled type";
            return false;
    }
    return true;
}

bool readTensorFile(const std::string& path, HostData* out, std::string* error) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        *error = "cannot open " + path;
        return false;
    }
    std::stringstream ss;
    ss << f.rdbuf();
    onnx::TensorProto t;
    if (!t.ParseFromString(ss.str())) {
        *error = "not a TensorProto: " + path;
        return false;
    }
    return decodeTensor(t, out, error);
}

double elementAsDouble(const HostData& d, int64_t i) {
    const uint8_t* p = d.bytes.data();
    switch (d.onnxType) {
        case onnx::TensorProto::FLOAT: { float v; std::memcpy(&v, p + i * 4, 4); return v; }
        case onnx::TensorProto::DOUBLE: { double v; std::memcpy(&v, p + i * 8, 8); return v; }
        case onnx::TensorProto::INT8: return (double)reinterpret_cast<const int8_t*>(p)[i];
        case onnx::TensorProto::INT16: { int16_t v; std::memcpy(&v, p + i * 2, 2); return v; }
        case onnx::TensorProto::INT32: { int32_t v; std::memcpy(&v, p + i * 4, 4); return v; }
        case onnx::TensorProto::INT64: { int64_t v; std::memcpy(&v, p + i * 8, 8); return (double)v; }
        case onnx::TensorProto::UINT8:
        case onnx::TensorProto::BOOL: return p[i];
        case onnx::TensorProto::UINT16: { uint16_t v; std::memcpy(&v, p + i * 2, 2); return v; }
        case onnx::TensorProto::UINT32: { uint32_t v; std::memcpy(&v, p + i * 4, 4); return v; }
        case onnx::TensorProto::UINT64: { uint64_t v; std::memcpy(&v, p + i * 8, 8); return (double)v; }
        default: return 0;
    }
}

} // namespace Conformance
} // namespace MNN
