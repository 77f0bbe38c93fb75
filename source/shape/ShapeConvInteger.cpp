// ConvInteger and QLinearConv (ONNX), ConvParam geometry as Convolution (any spatial rank, groups,
// dilations, pads, auto_pad).
// ConvInteger: X, W, [x_zero_point], [w_zero_point] -> int32 [N, M, out...]. X and W uint8 or int8;
// x_zero_point per tensor (X's type), w_zero_point per tensor or per output channel [M] (W's type).
// QLinearConv: x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point, [B] -> y
// of y_zero_point's type (uint8 / int8). x / y scale and zero point per tensor; w_scale and
// w_zero_point per tensor or [M]; B int32 [M]. Scales float32.
#include <algorithm>
#include "ShapeUtils.hpp"
#include "WindowGeometry.hpp"

namespace MNN {

static bool isInt8Type(halide_type_t t) {
    return (t.code == halide_type_int || t.code == halide_type_uint) && t.bits == 8;
}

/** a per-tensor value (rank 0 or one element) or, when perChannel > 0, also a 1-D [perChannel] */
static bool fitsQuantParam(const Tensor* t, int perChannel) {
    const int64_t n = TensorUtils::elementCount(t);
    if (t->dimensions() == 0 || (t->dimensions() == 1 && n == 1)) {
        return true;
    }
    return perChannel > 0 && t->dimensions() == 1 && n == perChannel;
}

static ErrorCode checkParam(const Schema::Op* op, const std::vector<Tensor*>& inputs, int i, const char* what,
                            halide_type_t type, int perChannel) {
    if (!ShapeUtils::has(inputs, i)) {
        return NO_ERROR;
    }
    auto t = inputs[i];
    if (!(t->getType() == type)) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s %s has type %s, expected %s", what,
                                 TensorUtils::describe(t)->name.c_str(), TensorUtils::typeName(t->getType()),
                                 TensorUtils::typeName(type));
    }
    if (!fitsQuantParam(t, perChannel)) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s %s has shape %s, expected a scalar%s", what,
                                 TensorUtils::describe(t)->name.c_str(), TensorUtils::shapeString(t).c_str(),
                                 perChannel > 0 ? (" or [" + std::to_string(perChannel) + "]").c_str() : "");
    }
    return NO_ERROR;
}

static ErrorCode resolveGeometry(const Schema::Op* op, const Tensor* x, const Tensor* w, std::vector<int>* out,
                                 int* m) {
    for (auto t : {x, w}) {
        if (!isInt8Type(t->getType())) {
            return ShapeUtils::error(op, NOT_SUPPORT, "%s %s has type %s; uint8 and int8 are supported",
                                     t == x ? "X" : "W", TensorUtils::describe(t)->name.c_str(),
                                     TensorUtils::typeName(t->getType()));
        }
    }
    ConvAttrs attrs;
    attrs.load(op->param_as_ConvParam());
    if (attrs.activation != Schema::FusedActivation::NONE) {
        return ShapeUtils::error(op, NOT_SUPPORT, "a fused activation is not supported");
    }
    auto xd = TensorUtils::shape(x);
    WindowGeometry g;
    std::string err;
    if (!resolveConv(attrs, false, xd, TensorUtils::shape(w), nullptr, &g, m, &err)) {
        return ShapeUtils::error(op, INVALID_VALUE, "X %s, W %s: %s", TensorUtils::shapeString(x).c_str(),
                                 TensorUtils::shapeString(w).c_str(), err.c_str());
    }
    *out = {xd[0], *m};
    out->insert(out->end(), g.output.begin(), g.output.end());
    return NO_ERROR;
}

static ErrorCode shapeConvInteger(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                  const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || inputs.size() > 4 || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs inputs X, W, [x_zero_point], [w_zero_point] and 1 output");
    }
    std::vector<int> out;
    int m = 0;
    auto code = resolveGeometry(op, inputs[0], inputs[1], &out, &m);
    if (code == NO_ERROR) {
        code = checkParam(op, inputs, 2, "x_zero_point", inputs[0]->getType(), 0);
    }
    if (code == NO_ERROR) {
        code = checkParam(op, inputs, 3, "w_zero_point", inputs[1]->getType(), m);
    }
    if (code != NO_ERROR) {
        return code;
    }
    ShapeUtils::setOutput(outputs[0], out, halide_type_of<int32_t>());
    return NO_ERROR;
}

static ErrorCode shapeQLinearConv(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                  const std::vector<Tensor*>& outputs) {
    if (inputs.size() < 8 || inputs.size() > 9 || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE,
                                 "needs inputs x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, "
                                 "y_zero_point, [B] and 1 output, got %d inputs",
                                 (int)inputs.size());
    }
    for (int i : {0, 1, 3, 4, 6, 7}) {
        if (!ShapeUtils::has(inputs, i)) {
            return ShapeUtils::error(op, INVALID_VALUE, "input %d is missing", i);
        }
    }
    std::vector<int> out;
    int m = 0;
    auto code = resolveGeometry(op, inputs[0], inputs[3], &out, &m);
    const auto f = halide_type_of<float>();
    const halide_type_t yt = inputs[7]->getType();
    if (code == NO_ERROR && !isInt8Type(yt)) {
        code = ShapeUtils::error(op, NOT_SUPPORT, "y_zero_point has type %s; uint8 and int8 are supported",
                                 TensorUtils::typeName(yt));
    }
    if (code == NO_ERROR) {
        code = checkParam(op, inputs, 1, "x_scale", f, 0);
    }
    if (code == NO_ERROR) {
        code = checkParam(op, inputs, 2, "x_zero_point", inputs[0]->getType(), 0);
    }
    if (code == NO_ERROR) {
        code = checkParam(op, inputs, 4, "w_scale", f, m);
    }
    if (code == NO_ERROR) {
        code = checkParam(op, inputs, 5, "w_zero_point", inputs[3]->getType(), m);
    }
    if (code == NO_ERROR) {
        code = checkParam(op, inputs, 6, "y_scale", f, 0);
    }
    if (code == NO_ERROR) {
        code = checkParam(op, inputs, 7, "y_zero_point", yt, 0);
    }
    if (code == NO_ERROR && ShapeUtils::has(inputs, 8)) {
        auto b = inputs[8];
        if (!(b->getType() == halide_type_of<int32_t>()) || b->dimensions() != 1 || b->length(0) != m) {
            code = ShapeUtils::error(op, INVALID_VALUE, "B %s is %s %s, expected int32 [%d]",
                                     TensorUtils::describe(b)->name.c_str(), TensorUtils::typeName(b->getType()),
                                     TensorUtils::shapeString(b).c_str(), m);
        }
    }
    if (code != NO_ERROR) {
        return code;
    }
    ShapeUtils::setOutput(outputs[0], out, yt);
    return NO_ERROR;
}

static double flopsConvInteger(const Schema::Op*, const std::vector<Tensor*>& inputs,
                               const std::vector<Tensor*>& outputs, int w) {
    // 2 ops per multiply-add: output elements x (W elements / M)
    const double perOut = (double)TensorUtils::elementCount(inputs[w]) / (double)std::max(1, inputs[w]->length(0));
    return 2.0 * (double)TensorUtils::elementCount(outputs[0]) * perOut;
}
static double flopsConvIntegerOp(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                 const std::vector<Tensor*>& outputs) {
    return flopsConvInteger(op, inputs, outputs, 1);
}
static double flopsQLinearConv(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                               const std::vector<Tensor*>& outputs) {
    return flopsConvInteger(op, inputs, outputs, 3);
}

}  // namespace MNN

MNN_REGISTER_SHAPE(ConvInteger, ShapeEntry{shapeConvInteger, flopsConvIntegerOp, 0})
MNN_REGISTER_SHAPE(QLinearConv, ShapeEntry{shapeQLinearConv, flopsQLinearConv, 0})
