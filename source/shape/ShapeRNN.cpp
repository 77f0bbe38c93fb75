// LSTM(X, W, R, B?, sequence_lens?, initial_h?, initial_c?, P?), GRU / RNN(X, W, R, B?, sequence_lens?,
// initial_h?): outputs Y, Y_h (and Y_c for LSTM), each optional from the back.
// layout 0: X [seq, batch, in], Y [seq, dirs, batch, H], Y_h [dirs, batch, H];
// layout 1: X [batch, seq, in], Y [batch, seq, dirs, H], Y_h [batch, dirs, H].
#include "RnnCommon.hpp"

namespace MNN {

static ErrorCode shapeRnnCommon(RnnKind kind, const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                const std::vector<Tensor*>& outputs) {
    const int maxOut = kind == RnnKind::LSTM ? 3 : 2;
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || !ShapeUtils::has(inputs, 2)) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs inputs X, W and R");
    }
    const size_t maxIn = kind == RnnKind::LSTM ? 8 : 6;
    if (inputs.size() > maxIn || outputs.empty() || (int)outputs.size() > maxOut) {
        return ShapeUtils::error(op, INVALID_VALUE, "has %d inputs and %d outputs, expected at most %d and 1..%d",
                                 (int)inputs.size(), (int)outputs.size(), (int)maxIn, maxOut);
    }
    auto p = op->param_as_RnnParam();
    if (!p) {
        return ShapeUtils::error(op, INVALID_VALUE, "missing RnnParam");
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (!inputs[i] || i == 4) {
            continue;
        }
        if (inputs[i]->getType() != halide_type_of<float>()) {
            return ShapeUtils::error(op, NOT_SUPPORT, "input %d has type %s, only float32 is supported", (int)i,
                                     TensorUtils::typeName(inputs[i]->getType()));
        }
    }
    const int layout = p->layout();
    if (layout != 0 && layout != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "layout %d is not 0 or 1", layout);
    }
    if ((int)p->direction() > (int)Schema::RnnDirection::BIDIRECTIONAL) {
        return ShapeUtils::error(op, INVALID_VALUE, "unknown direction %d", (int)p->direction());
    }
    const int numDir = p->direction() == Schema::RnnDirection::BIDIRECTIONAL ? 2 : 1;
    const int G = rnnGateCount(kind);
    auto X = TensorUtils::shape(inputs[0]);
    auto W = TensorUtils::shape(inputs[1]);
    auto R = TensorUtils::shape(inputs[2]);
    if (X.size() != 3 || W.size() != 3 || R.size() != 3) {
        return ShapeUtils::error(op, INVALID_VALUE, "X %s, W %s and R %s must all be 3-D",
                                 TensorUtils::shapeString(X).c_str(), TensorUtils::shapeString(W).c_str(),
                                 TensorUtils::shapeString(R).c_str());
    }
    const int seq = layout == 0 ? X[0] : X[1];
    const int batch = layout == 0 ? X[1] : X[0];
    const int in = X[2];
    int H = p->hiddenSize();
    if (H < 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "hiddenSize %d is negative", H);
    }
    if (H == 0) {
        H = R[2];
    }
    if (W[0] != numDir || W[1] != G * H || W[2] != in) {
        return ShapeUtils::error(op, INVALID_VALUE, "W is %s, expected %dx%dx%d", TensorUtils::shapeString(W).c_str(),
                                 numDir, G * H, in);
    }
    if (R[0] != numDir || R[1] != G * H || R[2] != H) {
        return ShapeUtils::error(op, INVALID_VALUE, "R is %s, expected %dx%dx%d", TensorUtils::shapeString(R).c_str(),
                                 numDir, G * H, H);
    }
    if (ShapeUtils::has(inputs, 3)) {
        auto B = TensorUtils::shape(inputs[3]);
        if (B.size() != 2 || B[0] != numDir || B[1] != 2 * G * H) {
            return ShapeUtils::error(op, INVALID_VALUE, "B is %s, expected %dx%d", TensorUtils::shapeString(B).c_str(),
                                     numDir, 2 * G * H);
        }
    }
    if (ShapeUtils::has(inputs, 4)) {
        auto S = TensorUtils::shape(inputs[4]);
        auto t = inputs[4]->getType();
        if (t.code != halide_type_int || (t.bits != 32 && t.bits != 64)) {
            return ShapeUtils::error(op, NOT_SUPPORT, "sequence_lens has type %s, expected int32 or int64",
                                     TensorUtils::typeName(t));
        }
        if (S.size() != 1 || S[0] != batch) {
            return ShapeUtils::error(op, INVALID_VALUE, "sequence_lens is %s, expected [%d]",
                                     TensorUtils::shapeString(S).c_str(), batch);
        }
    }
    std::vector<int> stateDims = layout == 0 ? std::vector<int>{numDir, batch, H} : std::vector<int>{batch, numDir, H};
    for (int i : {5, 6}) {
        if (i == 6 && kind != RnnKind::LSTM) {
            continue;
        }
        if (ShapeUtils::has(inputs, i) && TensorUtils::shape(inputs[i]) != stateDims) {
            return ShapeUtils::error(op, INVALID_VALUE, "%s is %s, expected %s", i == 5 ? "initial_h" : "initial_c",
                                     TensorUtils::shapeString(inputs[i]).c_str(),
                                     TensorUtils::shapeString(stateDims).c_str());
        }
    }
    if (kind == RnnKind::LSTM && ShapeUtils::has(inputs, 7)) {
        auto P = TensorUtils::shape(inputs[7]);
        if (P.size() != 2 || P[0] != numDir || P[1] != 3 * H) {
            return ShapeUtils::error(op, INVALID_VALUE, "P is %s, expected %dx%d", TensorUtils::shapeString(P).c_str(),
                                     numDir, 3 * H);
        }
    }
    if (p->clip() < 0.0f) {
        return ShapeUtils::error(op, INVALID_VALUE, "clip %g is negative", (double)p->clip());
    }
    std::vector<RnnAct> acts;
    std::string err;
    if (!rnnParseActivations(p, kind, numDir, &acts, &err)) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s", err.c_str());
    }
    auto f = halide_type_of<float>();
    std::vector<int> yDims = layout == 0 ? std::vector<int>{seq, numDir, batch, H} : std::vector<int>{batch, seq, numDir, H};
    ShapeUtils::setOutput(outputs[0], yDims, f);
    for (size_t i = 1; i < outputs.size(); ++i) {
        ShapeUtils::setOutput(outputs[i], stateDims, f);
    }
    return NO_ERROR;
}

static double flopsRnn(RnnKind kind, const std::vector<Tensor*>& inputs) {
    auto W = TensorUtils::shape(inputs[1]);
    auto R = TensorUtils::shape(inputs[2]);
    auto X = TensorUtils::shape(inputs[0]);
    if (W.size() != 3 || R.size() != 3 || X.size() != 3) {
        return 0.0;
    }
    (void)kind;
    double steps = (double)X[0] * X[1];
    return 2.0 * steps * W[0] * ((double)W[1] * W[2] + (double)R[1] * R[2]);
}

static ErrorCode shapeLSTM(const Schema::Op* op, const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
    return shapeRnnCommon(RnnKind::LSTM, op, inputs, outputs);
}
static ErrorCode shapeGRU(const Schema::Op* op, const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
    return shapeRnnCommon(RnnKind::GRU, op, inputs, outputs);
}
static ErrorCode shapeRNN(const Schema::Op* op, const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
    return shapeRnnCommon(RnnKind::RNN, op, inputs, outputs);
}
static double flopsLSTM(const Schema::Op*, const std::vector<Tensor*>& inputs, const std::vector<Tensor*>&) {
    return flopsRnn(RnnKind::LSTM, inputs);
}
static double flopsGRU(const Schema::Op*, const std::vector<Tensor*>& inputs, const std::vector<Tensor*>&) {
    return flopsRnn(RnnKind::GRU, inputs);
}
static double flopsRNN(const Schema::Op*, const std::vector<Tensor*>& inputs, const std::vector<Tensor*>&) {
    return flopsRnn(RnnKind::RNN, inputs);
}
} // namespace MNN

MNN_REGISTER_SHAPE(LSTM, ShapeEntry{shapeLSTM, flopsLSTM, 0})
MNN_REGISTER_SHAPE(GRU, ShapeEntry{shapeGRU, flopsGRU, 0})
MNN_REGISTER_SHAPE(RNN, ShapeEntry{shapeRNN, flopsRNN, 0})
