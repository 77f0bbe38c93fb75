// Elementwise unary math and activations -> UnaryOp.
#include <map>
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
struct UnaryDef {
    Schema::UnaryOpType type;
    const char* alphaAttr;
    float alpha;
    const char* betaAttr;
    float beta;
    const char* gammaAttr;
    float gamma;
};

const std::map<std::string, UnaryDef>& unaryTable() {
    using U = Schema::UnaryOpType;
    static const std::map<std::string, UnaryDef> t = {
        {"Abs", {U::ABS, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Neg", {U::NEG, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Exp", {U::EXP, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Log", {U::LOG, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Sqrt", {U::SQRT, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Reciprocal", {U::RECIPROCAL, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Sin", {U::SIN, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Cos", {U::COS, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Tan", {U::TAN, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Asin", {U::ASIN, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Acos", {U::ACOS, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Atan", {U::ATAN, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Sinh", {U::SINH, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Cosh", {U::COSH, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Asinh", {U::ASINH, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Acosh", {U::ACOSH, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Atanh", {U::ATANH, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Erf", {U::ERF, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Floor", {U::FLOOR, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Ceil", {U::CEIL, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Round", {U::ROUND, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Sign", {U::SIGN, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Not", {U::NOT, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"BitwiseNot", {U::BITWISE_NOT, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Relu", {U::RELU, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"LeakyRelu", {U::LEAKY_RELU, "alpha", 0.01f, nullptr, 0, nullptr, 0}},
        {"Sigmoid", {U::SIGMOID, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"HardSigmoid", {U::HARD_SIGMOID, "alpha", 0.2f, "beta", 0.5f, nullptr, 0}},
        {"HardSwish", {U::HARD_SWISH, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Tanh", {U::TANH, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Elu", {U::ELU, "alpha", 1.0f, nullptr, 0, nullptr, 0}},
        {"Selu", {U::SELU, "alpha", 1.67326319217681884765625f, nullptr, 0, "gamma", 1.05070102214813232421875f}},
        {"Celu", {U::CELU, "alpha", 1.0f, nullptr, 0, nullptr, 0}},
        {"ThresholdedRelu", {U::THRESHOLDED_RELU, "alpha", 1.0f, nullptr, 0, nullptr, 0}},
        {"Shrink", {U::SHRINK, "bias", 0.0f, "lambd", 0.5f, nullptr, 0}},
        {"Softplus", {U::SOFTPLUS, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Softsign", {U::SOFTSIGN, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"Mish", {U::MISH, nullptr, 0, nullptr, 0, nullptr, 0}},
        {"IsNaN", {U::ISNAN, nullptr, 0, nullptr, 0, nullptr, 0}},
    };
    return t;
}

void mapUnary(OnnxNode& node) {
    auto it = unaryTable().find(node.opType());
    if (it == unaryTable().end()) {
        node.unsupported("not a unary op");
    }
    auto& d = it->second;
    auto op = node.addOp(Schema::OpType::UnaryOp, {node.input(0)}, {node.output(0)});
    auto p = setParam<Schema::UnaryParamT>(op);
    p->type = d.type;
    if (d.alphaAttr) {
        p->alpha = node.attrFloat(d.alphaAttr, d.alpha);
    }
    if (d.betaAttr) {
        p->beta = node.attrFloat(d.betaAttr, d.beta);
    }
    if (d.gammaAttr) {
        p->gamma = node.attrFloat(d.gammaAttr, d.gamma);
    }
}

void mapGelu(OnnxNode& node) {
    auto approx = node.attrString("approximate", "none");
    auto op = node.addOp(Schema::OpType::UnaryOp, {node.input(0)}, {node.output(0)});
    auto p = setParam<Schema::UnaryParamT>(op);
    if (approx == "none") {
        p->type = Schema::UnaryOpType::GELU;
    } else if (approx == "tanh") {
        p->type = Schema::UnaryOpType::GELU_TANH;
    } else {
        node.invalid("unknown approximate '" + approx + "'");
    }
}

void mapIsInf(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::UnaryOp, {node.input(0)}, {node.output(0)});
    auto p = setParam<Schema::UnaryParamT>(op);
    p->type = Schema::UnaryOpType::ISINF;
    p->detectPositive = node.attrInt("detect_positive", 1) != 0;
    p->detectNegative = node.attrInt("detect_negative", 1) != 0;
}

void mapSwish(OnnxNode& node) {
    if (node.attrFloat("alpha", 1.0f) != 1.0f) {
        node.unsupported("Swish with alpha != 1");
    }
    auto op = node.addOp(Schema::OpType::UnaryOp, {node.input(0)}, {node.output(0)});
    setParam<Schema::UnaryParamT>(op)->type = Schema::UnaryOpType::SILU;
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(Unary, MNN::Convert::mapUnary, "Abs", "Neg", "Exp", "Log", "Sqrt", "Reciprocal", "Sin", "Cos", "Tan",
                  "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "Erf", "Floor", "Ceil", "Round",
                  "Sign", "Not", "BitwiseNot", "Relu", "LeakyRelu", "Sigmoid", "HardSigmoid", "HardSwish", "Tanh",
                  "Elu", "Selu", "Celu", "ThresholdedRelu", "Shrink", "Softplus", "Softsign", "Mish", "IsNaN")
MNN_REGISTER_ONNX(Gelu, MNN::Convert::mapGelu, "Gelu")
MNN_REGISTER_ONNX(IsInf, MNN::Convert::mapIsInf, "IsInf")
MNN_REGISTER_ONNX(Swish, MNN::Convert::mapSwish, "Swish")
