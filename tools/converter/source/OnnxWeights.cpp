// ONNX TensorProto (raw, typed fields or external data) -> Blob.
#include <onnx/onnx_pb.h>
#include <string.h>
#include <climits>
#include <fstream>
#include "Graph.hpp"
#include "OnnxNode.hpp"

namespace MNN {
namespace Convert {

static std::vector<uint8_t> readExternal(const onnx::TensorProto& t, const std::string& baseDir, size_t need) {
    std::string location;
    int64_t offset = 0, length = -1;
    for (auto& kv : t.external_data()) {
        if (kv.key() == "location") {
            location = kv.value();
        } else if (kv.key() == "offset") {
            offset = std::stoll(kv.value());
        } else if (kv.key() == "length") {
            length = std::stoll(kv.value());
        }
    }
    if (location.empty()) {
        throw ConvertError("tensor '" + t.name() + "': external data without a location");
    }
    if (location[0] == '/' || location.find("..") != std::string::npos) {
        throw ConvertError("tensor '" + t.name() + "': external data location '" + location +
                           "' must be a relative path inside the model folder");
    }
    std::string path = baseDir.empty() ? location : baseDir + "/" + location;
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        throw ConvertError("tensor '" + t.name() + "': cannot open external data file " + path);
    }
    f.seekg(0, std::ios::end);
    int64_t fileSize = (int64_t)f.tellg();
    if (length < 0) {
        length = (int64_t)need;
    }
    if (offset < 0 || length != (int64_t)need || offset + length > fileSize) {
        throw ConvertError("tensor '" + t.name() + "': external data in " + path + " at offset " +
                           std::to_string(offset) + " holds " + std::to_string(fileSize - offset) +
                           " bytes, the tensor needs " + std::to_string(need));
    }
    std::vector<uint8_t> bytes(need);
    f.seekg(offset);
    if (need && !f.read((char*)bytes.data(), (std::streamsize)need)) {
        throw ConvertError("tensor '" + t.name() + "': reading external data from " + path + " failed");
    }
    return bytes;
}

std::unique_ptr<Schema::BlobT> onnxTensorToBlob(const onnx::TensorProto& t, const std::string& baseDir) {
    auto type = OnnxNode::dataType(t.data_type());
    if (type == Schema::DataType::DT_INVALID || type == Schema::DataType::DT_STRING) {
        throw UnsupportedError("tensor '" + t.name() + "' has unsupported data type " + std::to_string(t.data_type()));
    }
    std::vector<int> dims;
    for (auto d : t.dims()) {
        if (d < 0 || d > INT_MAX) {
            throw ConvertError("tensor '" + t.name() + "' has invalid dim " + std::to_string(d));
        }
        dims.push_back((int)d);
    }
    int64_t count = 1;
    for (auto d : dims) {
        count *= d;
        if (count > ((int64_t)1 << 40)) {
            throw ConvertError("tensor '" + t.name() + "' is too large");
        }
    }
    size_t elem = (size_t)dataTypeBytes(type);
    size_t need = (size_t)count * elem;
    std::unique_ptr<Schema::BlobT> b(new Schema::BlobT);
    b->dataType = type;
    b->dims = dims;
    if (t.data_location() == onnx::TensorProto::EXTERNAL) {
        b->raw = readExternal(t, baseDir, need);
        return b;
    }
    if (t.has_raw_data()) {
        if (t.raw_data().size() != need) {
            throw ConvertError("tensor '" + t.name() + "' has " + std::to_string(t.raw_data().size()) +
                               " raw bytes, its shape needs " + std::to_string(need));
        }
        b->raw.assign(t.raw_data().begin(), t.raw_data().end());
        return b;
    }
    b->raw.resize(need);
    auto mismatch = [&](int have) {
        throw ConvertError("tensor '" + t.name() + "' has " + std::to_string(have) + " values, its shape needs " +
                           std::to_string(count));
    };
    uint8_t* dst = b->raw.data();
    using D = Schema::DataType;
    switch (type) {
        case D::DT_FLOAT:
            if (t.float_data_size() != count)
                mismatch(t.float_data_size());
            if (count)
                ::memcpy(dst, t.float_data().data(), need);
            break;
        case D::DT_DOUBLE:
            if (t.double_data_size() != count)
                mismatch(t.double_data_size());
            if (count)
                ::memcpy(dst, t.double_data().data(), need);
            break;
        case D::DT_INT64:
            if (t.int64_data_size() != count)
                mismatch(t.int64_data_size());
            if (count)
                ::memcpy(dst, t.int64_data().data(), need);
            break;
        case D::DT_UINT32:
        case D::DT_UINT64:
            if (t.uint64_data_size() != count)
                mismatch(t.uint64_data_size());
            for (int64_t i = 0; i < count; ++i) {
                uint64_t v = t.uint64_data((int)i);
                ::memcpy(dst + i * elem, &v, elem);  // little-endian: low bytes first
            }
            break;
        default:  // int32, int16, int8, uint16, uint8, bool, float16, bfloat16: int32_data
            if (t.int32_data_size() != count)
                mismatch(t.int32_data_size());
            for (int64_t i = 0; i < count; ++i) {
                int32_t v = t.int32_data((int)i);
                ::memcpy(dst + i * elem, &v, elem);
            }
            break;
    }
    return b;
}

}  // namespace Convert
}  // namespace MNN
