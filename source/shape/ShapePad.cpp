// Pad (data, pads, constant_value?, axes?), Tile (input, repeats), Expand (input, shape).
#include "ShapeDataOps.hpp"

namespace MNN {

static ErrorCode checkIntInput(const Schema::Op* op, const std::vector<Tensor*>& inputs, size_t i) {
    if (!ShapeUtils::has(inputs, i)) {
        return NO_ERROR;
    }
    auto t = inputs[i];
    if (!DataOps::isIntegerType(t->getType()) || t->dimensions() > 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "input %d (%s) must be a 1-D int32/int64 tensor, got %s %s",
                                 (int)i, TensorUtils::describe(t)->name.c_str(), TensorUtils::typeName(t->getType()),
                                 TensorUtils::shapeString(t).c_str());
    }
    return NO_ERROR;
}

namespace DataOps {
std::vector<int64_t> padsOf(const Schema::Op* op, const std::vector<Tensor*>& inputs) {
    if (ShapeUtils::has(inputs, 1)) {
        return ShapeUtils::readInts(inputs[1]);
    }
    auto p = op->param_as_PadParam();
    if (p && p->pads()) {
        return std::vector<int64_t>(p->pads()->begin(), p->pads()->end());
    }
    return {};
}
} // namespace DataOps

static ErrorCode shapePad(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                          const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs data, pads and 1 output");
    }
    if (checkIntInput(op, inputs, 1) != NO_ERROR || checkIntInput(op, inputs, 3) != NO_ERROR) {
        return INVALID_VALUE;  // reported by checkIntInput
    }
    auto p = op->param_as_PadParam();
    int mode = p ? (int)p->mode() : 0;
    if (mode < 0 || mode > 3) {
        return ShapeUtils::error(op, INVALID_VALUE, "unknown mode %d", mode);
    }
    if (ShapeUtils::has(inputs, 2)) {
        auto v = inputs[2];
        if (v->getType() != inputs[0]->getType() || TensorUtils::elementCount(v) != 1) {
            return ShapeUtils::error(op, INVALID_VALUE, "constant_value %s must be one %s element, got %s %s",
                                     TensorUtils::describe(v)->name.c_str(),
                                     TensorUtils::typeName(inputs[0]->getType()), TensorUtils::typeName(v->getType()),
                                     TensorUtils::shapeString(v).c_str());
        }
    }
    DataOps::PadRange r;
    auto msg = DataOps::computePad(TensorUtils::shape(inputs[0]), DataOps::padsOf(op, inputs),
                                   DataOps::valuesOf(inputs, 3), mode, &r);
    if (!msg.empty()) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s", msg.c_str());
    }
    ShapeUtils::setOutput(outputs[0], r.outDims, inputs[0]->getType());
    return NO_ERROR;
}

static ErrorCode shapeTile(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                           const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs input, repeats and 1 output");
    }
    if (checkIntInput(op, inputs, 1) != NO_ERROR) {
        return INVALID_VALUE;  // reported by checkIntInput
    }
    auto in = TensorUtils::shape(inputs[0]);
    auto rep = ShapeUtils::readInts(inputs[1]);
    if (rep.size() != in.size()) {
        return ShapeUtils::error(op, INVALID_VALUE, "repeats has %d values for a rank-%d input", (int)rep.size(),
                                 (int)in.size());
    }
    std::vector<int> out(in.size());
    for (size_t i = 0; i < in.size(); ++i) {
        // range of the repeat first: the product of an unchecked one can overflow int64
        if (rep[i] < 0 || rep[i] > 0x7fffffff || rep[i] * (int64_t)in[i] > 0x7fffffff) {
            return ShapeUtils::error(op, INVALID_VALUE, "repeat %lld of axis %d is invalid", (long long)rep[i], (int)i);
        }
        const int64_t v = rep[i] * (int64_t)in[i];
        out[i] = (int)v;
    }
    ShapeUtils::setOutput(outputs[0], out, inputs[0]->getType());
    return NO_ERROR;
}

static ErrorCode shapeExpand(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                             const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs input, shape and 1 output");
    }
    if (checkIntInput(op, inputs, 1) != NO_ERROR) {
        return INVALID_VALUE;  // reported by checkIntInput
    }
    auto shape = ShapeUtils::readInts(inputs[1]);
    if (shape.size() > MNN_MAX_TENSOR_DIM) {
        return ShapeUtils::error(op, INVALID_VALUE, "shape rank %d over the limit", (int)shape.size());
    }
    std::vector<int> target;
    for (auto v : shape) {
        if (v < 0 || v > 0x7fffffff) {
            return ShapeUtils::error(op, INVALID_VALUE, "shape value %lld is invalid", (long long)v);
        }
        target.push_back((int)v);
    }
    auto in = TensorUtils::shape(inputs[0]);
    std::vector<int> out;
    if (!ShapeUtils::broadcast(in, target, out)) {
        return ShapeUtils::error(op, INVALID_VALUE, "input %s does not broadcast with shape %s",
                                 TensorUtils::shapeString(in).c_str(), TensorUtils::shapeString(target).c_str());
    }
    ShapeUtils::setOutput(outputs[0], out, inputs[0]->getType());
    return NO_ERROR;
}
namespace DataOps {
std::vector<int64_t> paramAxes(const Schema::Op* op) {
    auto p = op->param_as_AxisParam();
    if (p && p->axes()) {
        return std::vector<int64_t>(p->axes()->begin(), p->axes()->end());
    }
    return {};
}
} // namespace DataOps

static ErrorCode shapeCenterCropPad(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                    const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs input, shape and 1 output");
    }
    if (checkIntInput(op, inputs, 1) != NO_ERROR) {
        return INVALID_VALUE;  // reported by checkIntInput
    }
    auto in = TensorUtils::shape(inputs[0]);
    std::vector<int64_t> pads;
    auto msg = DataOps::centerCropPads(in, ShapeUtils::readInts(inputs[1]), DataOps::paramAxes(op), &pads);
    if (!msg.empty()) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s", msg.c_str());
    }
    DataOps::PadRange r;
    msg = DataOps::computePad(in, pads, {}, 0, &r);
    if (!msg.empty()) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s", msg.c_str());
    }
    ShapeUtils::setOutput(outputs[0], r.outDims, inputs[0]->getType());
    return NO_ERROR;
}

// ReverseSequence: AxisParam.axis = time_axis, AxisParam.batchDims = batch_axis (no AxisParam:
// ONNX defaults time 0, batch 1)
static ErrorCode shapeReverseSequence(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                      const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs input, sequence_lens and 1 output");
    }
    auto p = op->param_as_AxisParam();
    const int timeAxis = p ? p->axis() : 0;
    const int batchAxis = p ? p->batchDims() : 1;
    auto in = TensorUtils::shape(inputs[0]);
    if (in.size() < 2) {
        return ShapeUtils::error(op, INVALID_VALUE, "input must have rank >= 2, got %s",
                                 TensorUtils::shapeString(in).c_str());
    }
    if ((timeAxis != 0 && timeAxis != 1) || (batchAxis != 0 && batchAxis != 1) || timeAxis == batchAxis) {
        return ShapeUtils::error(op, INVALID_VALUE, "time_axis %d / batch_axis %d must be 0 and 1", timeAxis,
                                 batchAxis);
    }
    auto lens = inputs[1];
    auto lt = lens->getType();
    if (lt.code != halide_type_int || (lt.bits != 32 && lt.bits != 64) || lens->dimensions() != 1 ||
        lens->length(0) != in[batchAxis]) {
        return ShapeUtils::error(op, INVALID_VALUE, "sequence_lens %s must be int64 [%d], got %s %s",
                                 TensorUtils::describe(lens)->name.c_str(), in[batchAxis], TensorUtils::typeName(lt),
                                 TensorUtils::shapeString(lens).c_str());
    }
    ShapeUtils::setOutputLike(outputs[0], inputs[0]);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(CenterCropPad, ShapeEntry{shapeCenterCropPad, nullptr, 0x2u})
MNN_REGISTER_SHAPE(ReverseSequence, ShapeEntry{shapeReverseSequence, nullptr, 0})
MNN_REGISTER_SHAPE(Pad, ShapeEntry{shapePad, nullptr, 0xAu})
MNN_REGISTER_SHAPE(Tile, ShapeEntry{shapeTile, nullptr, 0x2u})
MNN_REGISTER_SHAPE(Expand, ShapeEntry{shapeExpand, nullptr, 0x2u})
