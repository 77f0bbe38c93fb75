// MatMulInteger and QLinearMatMul (ONNX): numpy matmul (1-D operands promoted, batch dims
// broadcast) of uint8 / int8 A and B shifted by their zero points.
// MatMulInteger: A, B, [a_zero_point], [b_zero_point] -> int32. a_zero_point per tensor, per row
// ([M], or A's shape with K replaced by 1); b_zero_point per tensor, per column ([N], or B's shape
// with K replaced by 1). Zero points have their operand's type.
// QLinearMatMul: a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point -> y of
// y_zero_point's type; a and y scale / zero point per tensor or per row [M], b's per tensor or per
// column [N]; scales float32.
#include "ShapeUtils.hpp"

namespace MNN {

static bool isInt8Type(halide_type_t t) {
    return (t.code == halide_type_int || t.code == halide_type_uint) && t.bits == 8;
}

struct MatMulDims {
    std::vector<int> a2, b2, out;
    int m = 1, k = 1, n = 1;
};

static ErrorCode resolveMatMul(const Schema::Op* op, const Tensor* a, const Tensor* b, MatMulDims* d) {
    for (auto t : {a, b}) {
        if (!isInt8Type(t->getType())) {
            return ShapeUtils::error(op, NOT_SUPPORT, "%s %s has type %s; uint8 and int8 are supported",
                                     t == a ? "A" : "B", TensorUtils::describe(t)->name.c_str(),
                                     TensorUtils::typeName(t->getType()));
        }
    }
    auto ad = TensorUtils::shape(a);
    auto bd = TensorUtils::shape(b);
    if (ad.empty() || bd.empty()) {
        return ShapeUtils::error(op, INVALID_VALUE, "A %s and B %s must have rank >= 1",
                                 TensorUtils::shapeString(ad).c_str(), TensorUtils::shapeString(bd).c_str());
    }
    d->a2 = ad.size() == 1 ? std::vector<int>{1, ad[0]} : ad;
    d->b2 = bd.size() == 1 ? std::vector<int>{bd[0], 1} : bd;
    d->m = d->a2[d->a2.size() - 2];
    d->k = d->a2.back();
    d->n = d->b2.back();
    if (d->b2[d->b2.size() - 2] != d->k) {
        return ShapeUtils::error(op, INVALID_VALUE, "A %s and B %s: inner dims %d and %d differ",
                                 TensorUtils::shapeString(ad).c_str(), TensorUtils::shapeString(bd).c_str(), d->k,
                                 d->b2[d->b2.size() - 2]);
    }
    std::vector<int> batchA(d->a2.begin(), d->a2.end() - 2), batchB(d->b2.begin(), d->b2.end() - 2);
    if (!ShapeUtils::broadcast(batchA, batchB, d->out)) {
        return ShapeUtils::error(op, INVALID_VALUE, "batch dims of A %s and B %s do not broadcast",
                                 TensorUtils::shapeString(ad).c_str(), TensorUtils::shapeString(bd).c_str());
    }
    if (ad.size() > 1) {
        d->out.push_back(d->m);
    }
    if (bd.size() > 1) {
        d->out.push_back(d->n);
    }
    return NO_ERROR;
}

/**
 * a quantization parameter of an operand: per tensor, 1-D [count] (per row of A / per column of B),
 * or (fullDims non-empty) the operand's own shape with its K dim set to 1
 */
static ErrorCode checkParam(const Schema::Op* op, const std::vector<Tensor*>& inputs, int i, const char* what,
                            halide_type_t type, int count, const std::vector<int>& fullDims) {
    if (!ShapeUtils::has(inputs, i)) {
        return NO_ERROR;
    }
    auto t = inputs[i];
    if (!(t->getType() == type)) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s %s has type %s, expected %s", what,
                                 TensorUtils::describe(t)->name.c_str(), TensorUtils::typeName(t->getType()),
                                 TensorUtils::typeName(type));
    }
    const int64_t n = TensorUtils::elementCount(t);
    auto dims = TensorUtils::shape(t);
    const bool ok =
        dims.empty() || (dims.size() == 1 && (n == 1 || n == count)) || (!fullDims.empty() && dims == fullDims);
    if (!ok) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s %s has shape %s, expected a scalar or [%d]%s%s", what,
                                 TensorUtils::describe(t)->name.c_str(), TensorUtils::shapeString(t).c_str(), count,
                                 fullDims.empty() ? "" : " or ",
                                 fullDims.empty() ? "" : TensorUtils::shapeString(fullDims).c_str());
    }
    return NO_ERROR;
}

static ErrorCode shapeMatMulInteger(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                    const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || inputs.size() > 4 || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs inputs A, B, [a_zero_point], [b_zero_point] and 1 output");
    }
    MatMulDims d;
    auto code = resolveMatMul(op, inputs[0], inputs[1], &d);
    if (code != NO_ERROR) {
        return code;
    }
    std::vector<int> aFull, bFull;
    if (inputs[0]->dimensions() >= 2) {
        aFull = TensorUtils::shape(inputs[0]);
        aFull.back() = 1;
    }
    if (inputs[1]->dimensions() >= 2) {
        bFull = TensorUtils::shape(inputs[1]);
        bFull[bFull.size() - 2] = 1;
    }
    code = checkParam(op, inputs, 2, "a_zero_point", inputs[0]->getType(), d.m, aFull);
    if (code == NO_ERROR) {
        code = checkParam(op, inputs, 3, "b_zero_point", inputs[1]->getType(), d.n, bFull);
    }
    if (code != NO_ERROR) {
        return code;
    }
    ShapeUtils::setOutput(outputs[0], d.out, halide_type_of<int32_t>());
    return NO_ERROR;
}

static ErrorCode shapeQLinearMatMul(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                    const std::vector<Tensor*>& outputs) {
    if (inputs.size() != 8 || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE,
                                 "needs inputs a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, "
                                 "y_zero_point and 1 output, got %d inputs",
                                 (int)inputs.size());
    }
    for (int i : {0, 1, 3, 4, 6, 7}) {
        if (!ShapeUtils::has(inputs, i)) {
            return ShapeUtils::error(op, INVALID_VALUE, "input %d is missing", i);
        }
    }
    MatMulDims d;
    auto code = resolveMatMul(op, inputs[0], inputs[3], &d);
    if (code != NO_ERROR) {
        return code;
    }
    const auto f = halide_type_of<float>();
    const halide_type_t yt = inputs[7]->getType();
    if (!isInt8Type(yt)) {
        return ShapeUtils::error(op, NOT_SUPPORT, "y_zero_point has type %s; uint8 and int8 are supported",
                                 TensorUtils::typeName(yt));
    }
    const std::vector<int> none;
    struct {
        int i;
        const char* what;
        halide_type_t type;
        int count;
    } params[] = {{1, "a_scale", f, d.m}, {2, "a_zero_point", inputs[0]->getType(), d.m},
                  {4, "b_scale", f, d.n}, {5, "b_zero_point", inputs[3]->getType(), d.n},
                  {6, "y_scale", f, d.m}, {7, "y_zero_point", yt, d.m}};
    for (auto& p : params) {
        code = checkParam(op, inputs, p.i, p.what, p.type, p.count, none);
        if (code != NO_ERROR) {
            return code;
        }
    }
    ShapeUtils::setOutput(outputs[0], d.out, yt);
    return NO_ERROR;
}

static double flopsMatMulInteger(const Schema::Op*, const std::vector<Tensor*>& inputs,
                                 const std::vector<Tensor*>& outputs) {
    const Tensor* a = inputs[0];
    return 2.0 * (double)TensorUtils::elementCount(outputs[0]) * (double)a->length(a->dimensions() - 1);
}

}  // namespace MNN

MNN_REGISTER_SHAPE(MatMulInteger, ShapeEntry{shapeMatMulInteger, flopsMatMulInteger, 0})
MNN_REGISTER_SHAPE(QLinearMatMul, ShapeEntry{shapeQLinearMatMul, flopsMatMulInteger, 0})
