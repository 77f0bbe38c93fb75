// Shape (ShapeParam start/end), Size, ConstantOfShape (shape; ConstantParam.value), Range.
#include <math.h>
#include "ShapeDataOps.hpp"

namespace MNN {

namespace DataOps {
void shapeOpRange(const Schema::Op* op, int rank, int* start, int* end) {
    auto p = op->param_as_ShapeParam();
    int64_t s = p ? p->start() : 0;
    int64_t e = p ? p->end() : rank;
    if (s < 0) {
        s += rank;
    }
    if (e < 0) {
        e += rank;
    }
    s = s < 0 ? 0 : (s > rank ? rank : s);
    e = e < 0 ? 0 : (e > rank ? rank : e);
    *start = (int)s;
    *end = (int)(e > s ? e : s);
}
} // namespace DataOps

static ErrorCode shapeShape(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                            const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output");
    }
    int s = 0, e = 0;
    DataOps::shapeOpRange(op, inputs[0]->dimensions(), &s, &e);
    ShapeUtils::setOutput(outputs[0], {e - s}, halide_type_of<int64_t>());
    return NO_ERROR;
}

static ErrorCode shapeSize(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                           const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output");
    }
    ShapeUtils::setOutput(outputs[0], {}, halide_type_of<int64_t>());
    return NO_ERROR;
}

static ErrorCode shapeConstantOfShape(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                      const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs a shape input and 1 output");
    }
    auto s = inputs[0];
    if (!DataOps::isIntegerType(s->getType()) || s->dimensions() > 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "shape input %s must be a 1-D int64 tensor, got %s %s",
                                 TensorUtils::describe(s)->name.c_str(), TensorUtils::typeName(s->getType()),
                                 TensorUtils::shapeString(s).c_str());
    }
    auto values = ShapeUtils::readInts(s);
    if (values.size() > MNN_MAX_TENSOR_DIM) {
        return ShapeUtils::error(op, INVALID_VALUE, "rank %d over the limit", (int)values.size());
    }
    std::vector<int> dims;
    for (auto v : values) {
        int d = 0;
        if (!ShapeUtils::toDim(v, &d)) {
            return ShapeUtils::error(op, INVALID_VALUE, "shape value %lld is invalid", (long long)v);
        }
        dims.push_back(d);
    }
    halide_type_t type = halide_type_of<float>();
    auto p = op->param_as_ConstantParam();
    if (p && p->value()) {
        auto v = p->value();
        type = TensorUtils::typeOf(v->dataType());
        if (type.code == halide_type_handle || v->dataType() == Schema::DataType::DT_FLOAT16 ||
            v->dataType() == Schema::DataType::DT_BFLOAT16) {
            return ShapeUtils::error(op, NOT_SUPPORT, "value type %s is not supported",
                                     Schema::EnumNameDataType(v->dataType()));
        }
        if (!v->raw() || (int)v->raw()->size() < type.bytes()) {
            return ShapeUtils::error(op, INVALID_VALUE, "value holds %d bytes, needs %d",
                                     v->raw() ? (int)v->raw()->size() : 0, type.bytes());
        }
    }
    ShapeUtils::setOutput(outputs[0], dims, type);
    return NO_ERROR;
}

namespace DataOps {
/** number of Range elements; "" or an error message */
std::string rangeCount(const Tensor* start, const Tensor* limit, const Tensor* delta, int64_t* count) {
    auto type = start->getType();
    if (type.code == halide_type_float) {
        double s = type.bits == 64 ? start->host<double>()[0] : start->host<float>()[0];
        double l = type.bits == 64 ? limit->host<double>()[0] : limit->host<float>()[0];
        double d = type.bits == 64 ? delta->host<double>()[0] : delta->host<float>()[0];
        if (d == 0 || !isfinite(s) || !isfinite(l) || !isfinite(d)) {
            return "delta is 0 or a value is not finite";
        }
        double n = ceil((l - s) / d);
        if (n > 2147483647.0) {
            return "too many elements";
        }
        *count = n > 0 ? (int64_t)n : 0;
        return "";
    }
    // one value each, read in place (the kernel calls this at execute, which allocates nothing)
    auto one = [](const Tensor* t) { return TensorUtils::elementCount(t) == 1 && t->host<void>() != nullptr; };
    if (!one(start) || !one(limit) || !one(delta) || ShapeUtils::readInt(delta, 0) == 0) {
        return "delta is 0";
    }
    const int64_t s[1] = {ShapeUtils::readInt(start, 0)};
    const int64_t l[1] = {ShapeUtils::readInt(limit, 0)};
    const int64_t d[1] = {ShapeUtils::readInt(delta, 0)};
    // exact ceil division in 128-bit-safe form: differences of int64 can overflow, use long double bound
    __int128 diff = (__int128)l[0] - (__int128)s[0];
    __int128 step = d[0];
    __int128 n = 0;
    if ((diff > 0 && step > 0) || (diff < 0 && step < 0)) {
        if (step > 0) {
            n = (diff + step - 1) / step;
        } else {
            n = (diff + step + 1) / step;
        }
    }
    if (n > 2147483647) {
        return "too many elements";
    }
    *count = (int64_t)n;
    return "";
}
} // namespace DataOps

static ErrorCode shapeRange(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                            const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || !ShapeUtils::has(inputs, 2) ||
        outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs start, limit, delta and 1 output");
    }
    auto type = inputs[0]->getType();
    for (int i = 0; i < 3; ++i) {
        if (inputs[i]->getType() != type || TensorUtils::elementCount(inputs[i]) != 1) {
            return ShapeUtils::error(op, INVALID_VALUE, "input %s must be a single %s value, got %s %s",
                                     TensorUtils::describe(inputs[i])->name.c_str(), TensorUtils::typeName(type),
                                     TensorUtils::typeName(inputs[i]->getType()),
                                     TensorUtils::shapeString(inputs[i]).c_str());
        }
    }
    if (!(type.code == halide_type_float && (type.bits == 32 || type.bits == 64)) &&
        !DataOps::isIntegerType(type)) {
        return ShapeUtils::error(op, NOT_SUPPORT, "type %s is not supported", TensorUtils::typeName(type));
    }
    int64_t n = 0;
    auto msg = DataOps::rangeCount(inputs[0], inputs[1], inputs[2], &n);
    if (!msg.empty()) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s", msg.c_str());
    }
    ShapeUtils::setOutput(outputs[0], {(int)n}, type);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(Shape, ShapeEntry{shapeShape, nullptr, 0, false, true})
MNN_REGISTER_SHAPE(Size, ShapeEntry{shapeSize, nullptr, 0, false, true})
MNN_REGISTER_SHAPE(ConstantOfShape, ShapeEntry{shapeConstantOfShape, nullptr, 0x1u})
MNN_REGISTER_SHAPE(Range, ShapeEntry{shapeRange, nullptr, 0x7u})
