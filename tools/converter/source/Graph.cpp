#include "Graph.hpp"
#include <string.h>
#include <cmath>

namespace MNN {
namespace Convert {

int Graph::find(const std::string& n) const {
    auto it = mIndex.find(n);
    return it == mIndex.end() ? -1 : it->second;
}

int Graph::tensor(const std::string& n) {
    auto it = mIndex.find(n);
    if (it != mIndex.end()) {
        return it->second;
    }
    int idx = (int)names.size();
    names.push_back(n);
    mIndex[n] = idx;
    return idx;
}

int Graph::newTensor(const std::string& base) {
    std::string n = base;
    while (mIndex.count(n)) {
        n = base + "_" + std::to_string(++mCounter);
    }
    return tensor(n);
}

std::string Graph::uniqueOpName(const std::string& base) {
    std::string n = base;
    while (mOpNames.count(n)) {
        n = base + "_" + std::to_string(++mCounter);
    }
    mOpNames.insert(n);
    return n;
}

Schema::BlobT* Graph::constant(int t) const {
    auto it = constants.find(t);
    return it == constants.end() ? nullptr : it->second.get();
}

void Graph::setConstant(int t, std::unique_ptr<Schema::BlobT> blob) {
    blob->tensorIndex = t;
    constants[t] = std::move(blob);
}

int Graph::addConstant(const std::string& base, std::unique_ptr<Schema::BlobT> blob) {
    int t = newTensor(base);
    setConstant(t, std::move(blob));
    return t;
}

bool Graph::isInput(int t) const {
    for (auto& d : inputs) {
        if (d->tensorIndex == t) {
            return true;
        }
    }
    return false;
}

bool Graph::isOutput(int t) const {
    for (auto o : outputs) {
        if (o == t) {
            return true;
        }
    }
    return false;
}

std::vector<int> Graph::producers() const {
    std::vector<int> p(names.size(), -1);
    for (size_t i = 0; i < ops.size(); ++i) {
        for (auto o : ops[i]->outputs) {
            if (o >= 0 && o < (int)p.size()) {
                p[o] = (int)i;
            }
        }
    }
    return p;
}

std::vector<std::vector<int>> Graph::consumers() const {
    std::vector<std::vector<int>> c(names.size());
    for (size_t i = 0; i < ops.size(); ++i) {
        for (auto t : ops[i]->inputs) {
            if (t >= 0 && t < (int)c.size()) {
                c[t].push_back((int)i);
            }
        }
    }
    return c;
}

void Graph::replaceUses(int from, int to) {
    for (auto& op : ops) {
        for (auto& t : op->inputs) {
            if (t == from) {
                t = to;
            }
        }
    }
}

void Graph::eraseOps(const std::vector<bool>& dead) {
    std::vector<std::unique_ptr<Schema::OpT>> kept;
    for (size_t i = 0; i < ops.size(); ++i) {
        if (i < dead.size() && dead[i]) {
            continue;
        }
        kept.emplace_back(std::move(ops[i]));
    }
    ops.swap(kept);
}

std::map<std::string, int> Graph::opCounts() const {
    std::map<std::string, int> c;
    for (auto& op : ops) {
        c[Schema::EnumNameOpType(op->type)]++;
    }
    return c;
}

Schema::OpT* Graph::addOp(Schema::OpType type, const std::string& opName, const std::vector<int>& in,
                          const std::vector<int>& out) {
    std::unique_ptr<Schema::OpT> op(new Schema::OpT);
    op->type = type;
    op->name = uniqueOpName(opName);
    op->inputs = in;
    op->outputs = out;
    auto r = op.get();
    ops.emplace_back(std::move(op));
    return r;
}

int64_t elementCount(const std::vector<int>& dims) {
    int64_t n = 1;
    for (auto d : dims) {
        n *= d;
    }
    return n;
}

int dataTypeBytes(Schema::DataType t) {
    switch (t) {
        case Schema::DataType::DT_FLOAT:
        case Schema::DataType::DT_INT32:
        case Schema::DataType::DT_UINT32:
            return 4;
        case Schema::DataType::DT_DOUBLE:
        case Schema::DataType::DT_INT64:
        case Schema::DataType::DT_UINT64:
            return 8;
        case Schema::DataType::DT_FLOAT16:
        case Schema::DataType::DT_BFLOAT16:
        case Schema::DataType::DT_INT16:
        case Schema::DataType::DT_UINT16:
            return 2;
        case Schema::DataType::DT_INT8:
        case Schema::DataType::DT_UINT8:
        case Schema::DataType::DT_BOOL:
            return 1;
        default:
            return 0;
    }
}

std::unique_ptr<Schema::BlobT> makeBlob(Schema::DataType type, const std::vector<int>& dims, const void* data,
                                        size_t bytes) {
    std::unique_ptr<Schema::BlobT> b(new Schema::BlobT);
    b->dataType = type;
    b->dims = dims;
    b->raw.resize(bytes);
    if (bytes) {
        ::memcpy(b->raw.data(), data, bytes);
    }
    return b;
}

std::unique_ptr<Schema::BlobT> int64Blob(const std::vector<int>& dims, const std::vector<int64_t>& values) {
    return makeBlob(Schema::DataType::DT_INT64, dims, values.data(), values.size() * 8);
}

std::unique_ptr<Schema::BlobT> floatBlob(const std::vector<int>& dims, const std::vector<float>& values) {
    return makeBlob(Schema::DataType::DT_FLOAT, dims, values.data(), values.size() * 4);
}

std::unique_ptr<Schema::BlobT> cloneBlob(const Schema::BlobT& b) {
    std::unique_ptr<Schema::BlobT> c(new Schema::BlobT);
    c->tensorIndex = b.tensorIndex;
    c->dims = b.dims;
    c->dataType = b.dataType;
    c->format = b.format;
    c->raw = b.raw;
    c->compression = b.compression;
    c->scales = b.scales;
    c->quantAxis = b.quantAxis;
    return c;
}

template <typename T>
static void readAs(const Schema::BlobT& b, std::vector<int64_t>* out) {
    size_t n = b.raw.size() / sizeof(T);
    out->resize(n);
    for (size_t i = 0; i < n; ++i) {
        T v;
        ::memcpy(&v, b.raw.data() + i * sizeof(T), sizeof(T));
        (*out)[i] = (int64_t)v;
    }
}

bool blobInts(const Schema::BlobT& b, std::vector<int64_t>* out) {
    if (b.compression != Schema::Compression::NONE) {
        return false;
    }
    switch (b.dataType) {
        case Schema::DataType::DT_INT64:
            readAs<int64_t>(b, out);
            return true;
        case Schema::DataType::DT_INT32:
            readAs<int32_t>(b, out);
            return true;
        case Schema::DataType::DT_INT16:
            readAs<int16_t>(b, out);
            return true;
        case Schema::DataType::DT_INT8:
            readAs<int8_t>(b, out);
            return true;
        case Schema::DataType::DT_UINT8:
        case Schema::DataType::DT_BOOL:
            readAs<uint8_t>(b, out);
            return true;
        case Schema::DataType::DT_UINT16:
            readAs<uint16_t>(b, out);
            return true;
        case Schema::DataType::DT_UINT32:
            readAs<uint32_t>(b, out);
            return true;
        case Schema::DataType::DT_UINT64:
            readAs<uint64_t>(b, out);
            return true;
        default:
            return false;
    }
}

float halfToFloat(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    int exp = (h >> 10) & 0x1f;
    uint32_t mant = h & 0x3ff;
    uint32_t bits;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else {
            float f = std::ldexp((float)mant, -24);
            ::memcpy(&bits, &f, 4);
            bits |= sign;
        }
    } else if (exp == 31) {
        bits = sign | 0x7f800000u | (mant << 13);
    } else {
        bits = sign | ((uint32_t)(exp - 15 + 127) << 23) | (mant << 13);
    }
    float f;
    ::memcpy(&f, &bits, 4);
    return f;
}

uint16_t floatToHalf(float f) {
    uint32_t x;
    ::memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) {  // inf / nan
        return sign | 0x7c00 | (absx > 0x7f800000u ? 0x200 : 0);
    }
    if (absx >= 0x477ff000u) {  // rounds to >= 65520: overflow to inf
        return sign | 0x7c00;
    }
    if (absx < 0x38800000u) {  // subnormal half (or zero): round to nearest even in units of 2^-24
        float a;
        ::memcpy(&a, &absx, 4);
        float scaled = a * 16777216.0f;  // 2^24
        uint32_t m = (uint32_t)std::nearbyint(scaled);
        return sign | (uint16_t)m;
    }
    uint32_t exp = ((absx >> 23) - 127 + 15);
    uint32_t mant = absx & 0x7fffffu;
    uint32_t h = (exp << 10) | (mant >> 13);
    uint32_t rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1))) {
        h += 1;  // may carry into the exponent, which is the correct rounding
    }
    return sign | (uint16_t)h;
}

bool blobFloats(const Schema::BlobT& b, std::vector<float>* out) {
    if (b.compression != Schema::Compression::NONE) {
        return false;
    }
    switch (b.dataType) {
        case Schema::DataType::DT_FLOAT: {
            out->resize(b.raw.size() / 4);
            if (!out->empty()) {
                ::memcpy(out->data(), b.raw.data(), out->size() * 4);
            }
            return true;
        }
        case Schema::DataType::DT_DOUBLE: {
            size_t n = b.raw.size() / 8;
            out->resize(n);
            for (size_t i = 0; i < n; ++i) {
                double d;
                ::memcpy(&d, b.raw.data() + 8 * i, 8);
                (*out)[i] = (float)d;
            }
            return true;
        }
        case Schema::DataType::DT_FLOAT16: {
            size_t n = b.raw.size() / 2;
            out->resize(n);
            for (size_t i = 0; i < n; ++i) {
                uint16_t h;
                ::memcpy(&h, b.raw.data() + 2 * i, 2);
                (*out)[i] = halfToFloat(h);
            }
            return true;
        }
        default: {
            std::vector<int64_t> v;
            if (!blobInts(b, &v)) {
                return false;
            }
            out->resize(v.size());
            for (size_t i = 0; i < v.size(); ++i) {
                (*out)[i] = (float)v[i];
            }
            return true;
        }
    }
}

}  // namespace Convert
}  // namespace MNN
