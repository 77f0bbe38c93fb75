// DynamicQuantizeLSTM (com.microsoft): X [seq, batch, in] float32, W [dirs, in, 4H] and
// R [dirs, H, 4H] int8 or uint8 (transposed against ONNX LSTM's, gate order i, o, f, c), B [dirs, 8H],
// sequence_lens [batch] int32 / int64, initial_h / initial_c [dirs, batch, H], P [dirs, 3H],
// W_scale / W_zero_point and R_scale / R_zero_point [dirs] (per tensor) or [dirs, 4H] (per column),
// zero points of their weight's type. Outputs Y [seq, dirs, batch, H], Y_h and Y_c [dirs, batch, H]
// (float32), each optional from the back. RnnParam as LSTM (layout 0 only).
#include "RnnCommon.hpp"

namespace MNN {

static bool isInt8Type(halide_type_t t) {
    return (t.code == halide_type_int || t.code == halide_type_uint) && t.bits == 8;
}

static ErrorCode shapeDynamicQuantizeLSTM(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                          const std::vector<Tensor*>& outputs) {
    const char* names[12] = {"X",         "W",           "R", "B",       "sequence_lens",
                             "initial_h", "initial_c",   "P", "W_scale", "W_zero_point",
                             "R_scale",   "R_zero_point"};
    if (inputs.size() != 12 || outputs.empty() || outputs.size() > 3) {
        return ShapeUtils::error(op, INVALID_VALUE,
                                 "needs 12 inputs (X ... R_zero_point) and 1 to 3 outputs, got %d and %d",
                                 (int)inputs.size(), (int)outputs.size());
    }
    for (int i : {0, 1, 2, 8, 9, 10, 11}) {
        if (!ShapeUtils::has(inputs, i)) {
            return ShapeUtils::error(op, INVALID_VALUE, "input %s is missing", names[i]);
        }
    }
    auto p = op->param_as_RnnParam();
    if (!p) {
        return ShapeUtils::error(op, INVALID_VALUE, "missing RnnParam");
    }
    const auto f = halide_type_of<float>();
    for (int i : {0, 3, 5, 6, 7, 8, 10}) {
        if (ShapeUtils::has(inputs, i) && !(inputs[i]->getType() == f)) {
            return ShapeUtils::error(op, NOT_SUPPORT, "%s %s has type %s; only float32 is supported", names[i],
                                     TensorUtils::describe(inputs[i])->name.c_str(),
                                     TensorUtils::typeName(inputs[i]->getType()));
        }
    }
    for (int i : {1, 2}) {
        const int z = i == 1 ? 9 : 11;
        auto t = inputs[i]->getType();
        if (!isInt8Type(t) || !(inputs[z]->getType() == t)) {
            return ShapeUtils::error(op, NOT_SUPPORT, "%s has type %s and %s %s; int8 or uint8 alike are supported",
                                     names[i], TensorUtils::typeName(t), names[z],
                                     TensorUtils::typeName(inputs[z]->getType()));
        }
    }
    if (p->layout() != 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "layout %d is not supported (0 only)", p->layout());
    }
    if ((int)p->direction() > (int)Schema::RnnDirection::BIDIRECTIONAL) {
        return ShapeUtils::error(op, INVALID_VALUE, "unknown direction %d", (int)p->direction());
    }
    const int numDir = p->direction() == Schema::RnnDirection::BIDIRECTIONAL ? 2 : 1;
    auto X = TensorUtils::shape(inputs[0]);
    auto W = TensorUtils::shape(inputs[1]);
    auto R = TensorUtils::shape(inputs[2]);
    if (X.size() != 3 || W.size() != 3 || R.size() != 3) {
        return ShapeUtils::error(op, INVALID_VALUE, "X %s, W %s and R %s must all be 3-D",
                                 TensorUtils::shapeString(X).c_str(), TensorUtils::shapeString(W).c_str(),
                                 TensorUtils::shapeString(R).c_str());
    }
    const int seq = X[0], batch = X[1], in = X[2];
    int H = p->hiddenSize();
    if (H <= 0) {
        H = R[1];
    }
    if (W[0] != numDir || W[1] != in || W[2] != 4 * H) {
        return ShapeUtils::error(op, INVALID_VALUE, "W is %s, expected %dx%dx%d", TensorUtils::shapeString(W).c_str(),
                                 numDir, in, 4 * H);
    }
    if (R[0] != numDir || R[1] != H || R[2] != 4 * H) {
        return ShapeUtils::error(op, INVALID_VALUE, "R is %s, expected %dx%dx%d", TensorUtils::shapeString(R).c_str(),
                                 numDir, H, 4 * H);
    }
    for (int i : {8, 9, 10, 11}) {
        auto s = TensorUtils::shape(inputs[i]);
        const bool ok = (s.size() == 1 && s[0] == numDir) || (s.size() == 2 && s[0] == numDir && s[1] == 4 * H);
        if (!ok || (i % 2 == 1 && s != TensorUtils::shape(inputs[i - 1]))) {
            return ShapeUtils::error(op, INVALID_VALUE, "%s is %s, expected [%d] or [%d, %d] (as its scale)", names[i],
                                     TensorUtils::shapeString(s).c_str(), numDir, numDir, 4 * H);
        }
    }
    if (ShapeUtils::has(inputs, 3) && TensorUtils::shape(inputs[3]) != std::vector<int>{numDir, 8 * H}) {
        return ShapeUtils::error(op, INVALID_VALUE, "B is %s, expected %dx%d",
                                 TensorUtils::shapeString(inputs[3]).c_str(), numDir, 8 * H);
    }
    if (ShapeUtils::has(inputs, 4)) {
        auto t = inputs[4]->getType();
        if (t.code != halide_type_int || (t.bits != 32 && t.bits != 64) ||
            TensorUtils::shape(inputs[4]) != std::vector<int>{batch}) {
            return ShapeUtils::error(op, INVALID_VALUE, "sequence_lens is %s %s, expected int32 [%d]",
                                     TensorUtils::typeName(t), TensorUtils::shapeString(inputs[4]).c_str(), batch);
        }
    }
    const std::vector<int> stateDims = {numDir, batch, H};
    for (int i : {5, 6}) {
        if (ShapeUtils::has(inputs, i) && TensorUtils::shape(inputs[i]) != stateDims) {
            return ShapeUtils::error(op, INVALID_VALUE, "%s is %s, expected %s", names[i],
                                     TensorUtils::shapeString(inputs[i]).c_str(),
                                     TensorUtils::shapeString(stateDims).c_str());
        }
    }
    if (ShapeUtils::has(inputs, 7) && TensorUtils::shape(inputs[7]) != std::vector<int>{numDir, 3 * H}) {
        return ShapeUtils::error(op, INVALID_VALUE, "P is %s, expected %dx%d",
                                 TensorUtils::shapeString(inputs[7]).c_str(), numDir, 3 * H);
    }
    if (p->clip() < 0.0f) {
        return ShapeUtils::error(op, INVALID_VALUE, "clip %g is negative", (double)p->clip());
    }
    std::vector<RnnAct> acts;
    std::string err;
    if (!rnnParseActivations(p, RnnKind::LSTM, numDir, &acts, &err)) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s", err.c_str());
    }
    ShapeUtils::setOutput(outputs[0], {seq, numDir, batch, H}, f);
    for (size_t i = 1; i < outputs.size(); ++i) {
        ShapeUtils::setOutput(outputs[i], stateDims, f);
    }
    return NO_ERROR;
}

static double flopsDynamicQuantizeLSTM(const Schema::Op*, const std::vector<Tensor*>& inputs,
                                       const std::vector<Tensor*>&) {
    auto X = TensorUtils::shape(inputs[0]);
    auto W = TensorUtils::shape(inputs[1]);
    auto R = TensorUtils::shape(inputs[2]);
    if (X.size() != 3 || W.size() != 3 || R.size() != 3) {
        return 0.0;
    }
    return 2.0 * (double)X[0] * X[1] * W[0] * ((double)W[1] * W[2] + (double)R[1] * R[2]);
}

}  // namespace MNN

MNN_REGISTER_SHAPE(DynamicQuantizeLSTM, ShapeEntry{shapeDynamicQuantizeLSTM, flopsDynamicQuantizeLSTM, 0})
