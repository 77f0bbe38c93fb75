#include "OnnxNode.hpp"
#include <climits>
#include <map>
#include <mutex>

namespace MNN {
void registerAllOnnx();  // generated
namespace Convert {

static std::map<std::string, OnnxMapper>& mapperTable() {
    static std::map<std::string, OnnxMapper> table;
    return table;
}

void registerOnnxMapper(std::initializer_list<const char*> opTypes, OnnxMapper mapper) {
    for (auto t : opTypes) {
        mapperTable()[t] = mapper;
    }
}

OnnxMapper findOnnxMapper(const std::string& opType) {
    auto& t = mapperTable();
    auto it = t.find(opType);
    return it == t.end() ? nullptr : it->second;
}

void registerOnnxMappers() {
    static std::once_flag flag;
    std::call_once(flag, [] { MNN::registerAllOnnx(); });
}

Schema::OpT* OnnxNode::addOp(Schema::OpType type, const std::vector<int>& in, const std::vector<int>& out,
                             const std::string& suffix) {
    return graph().addOp(type, suffix.empty() ? name() : name() + "/" + suffix, in, out);
}

int OnnxNode::tmp(const std::string& suffix) {
    return graph().newTensor(name() + "/" + suffix);
}

int OnnxNode::constInt64(const std::string& suffix, const std::vector<int>& dims, const std::vector<int64_t>& v) {
    return graph().addConstant(name() + "/" + suffix, int64Blob(dims, v));
}

int OnnxNode::constFloat(const std::string& suffix, const std::vector<int>& dims, const std::vector<float>& v) {
    return graph().addConstant(name() + "/" + suffix, floatBlob(dims, v));
}

const Schema::BlobT* OnnxNode::constInput(int i) {
    int t = input(i);
    return t < 0 ? nullptr : graph().constant(t);
}

bool OnnxNode::constInts(int i, std::vector<int64_t>* out) {
    auto b = constInput(i);
    return b && blobInts(*b, out);
}

bool OnnxNode::constFloats(int i, std::vector<float>* out) {
    auto b = constInput(i);
    return b && blobFloats(*b, out);
}

std::vector<int> OnnxNode::inputs() {
    std::vector<int> v;
    for (int i = 0; i < inputCount(); ++i) {
        v.push_back(input(i));
    }
    while (!v.empty() && v.back() < 0) {
        v.pop_back();
    }
    return v;
}

std::vector<int> OnnxNode::outputs() {
    std::vector<int> v;
    for (int i = 0; i < outputCount(); ++i) {
        v.push_back(output(i));
    }
    return v;
}

std::vector<int> OnnxNode::usedOutputs() {
    int n = outputCount();
    while (n > 1 && !outputUsed(n - 1)) {
        --n;
    }
    std::vector<int> v;
    for (int i = 0; i < n; ++i) {
        v.push_back(output(i));
    }
    return v;
}

std::vector<int> OnnxNode::toInts(const std::vector<int64_t>& v) const {
    std::vector<int> r;
    for (auto x : v) {
        if (x > INT_MAX || x < INT_MIN) {
            invalid("value " + std::to_string(x) + " out of the int32 range");
        }
        r.push_back((int)x);
    }
    return r;
}

void OnnxNode::unsupported(const std::string& why) const {
    throw UnsupportedError(why);
}

void OnnxNode::invalid(const std::string& why) const {
    throw ConvertError("node '" + name() + "' (" + opType() + "): " + why);
}

Schema::DataType OnnxNode::dataType(int t) {
    using D = Schema::DataType;
    switch (t) {
        case 1:
            return D::DT_FLOAT;
        case 2:
            return D::DT_UINT8;
        case 3:
            return D::DT_INT8;
        case 4:
            return D::DT_UINT16;
        case 5:
            return D::DT_INT16;
        case 6:
            return D::DT_INT32;
        case 7:
            return D::DT_INT64;
        case 8:
            return D::DT_STRING;
        case 9:
            return D::DT_BOOL;
        case 10:
            return D::DT_FLOAT16;
        case 11:
            return D::DT_DOUBLE;
        case 12:
            return D::DT_UINT32;
        case 13:
            return D::DT_UINT64;
        case 16:
            return D::DT_BFLOAT16;
        default:
            return D::DT_INVALID;
    }
}

}  // namespace Convert
}  // namespace MNN
