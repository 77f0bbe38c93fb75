// Broadcasting binary ops -> BinaryOp; PRelu.
#include <map>
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
void mapBinary(OnnxNode& node) {
    using B = Schema::BinaryOpType;
    static const std::map<std::string, B> table = {
        {"Add", B::ADD},           {"Sub", B::SUB},
        {"Mul", B::MUL},           {"Div", B::DIV},
        {"Pow", B::POW},           {"Equal", B::EQUAL},
        {"Less", B::LESS},         {"LessOrEqual", B::LESS_EQUAL},
        {"Greater", B::GREATER},   {"GreaterOrEqual", B::GREATER_EQUAL},
        {"And", B::AND},           {"Or", B::OR},
        {"Xor", B::XOR},           {"BitwiseAnd", B::BITWISE_AND},
        {"BitwiseOr", B::BITWISE_OR}, {"BitwiseXor", B::BITWISE_XOR},
    };
    B type;
    if (node.opType() == "Mod") {
        type = node.attrInt("fmod", 0) ? B::FMOD : B::MOD;
    } else if (node.opType() == "BitShift") {
        auto dir = node.attrString("direction", "");
        if (dir == "LEFT") {
            type = B::BITSHIFT_LEFT;
        } else if (dir == "RIGHT") {
            type = B::BITSHIFT_RIGHT;
        } else {
            node.invalid("BitShift direction must be LEFT or RIGHT, got '" + dir + "'");
        }
    } else {
        auto it = table.find(node.opType());
        if (it == table.end()) {
            node.unsupported("not a binary op");
        }
        type = it->second;
    }
    if (node.opset() < 7 && node.hasAttr("broadcast") && node.hasAttr("axis")) {
        node.unsupported("opset < 7 broadcast with axis");
    }
    if (node.input(0) < 0 || node.input(1) < 0) {
        node.invalid("needs two inputs");
    }
    auto op = node.addOp(Schema::OpType::BinaryOp, {node.input(0), node.input(1)}, {node.output(0)});
    setParam<Schema::BinaryParamT>(op)->type = type;
}

void mapPRelu(OnnxNode& node) {
    node.addOp(Schema::OpType::PRelu, {node.input(0), node.input(1)}, {node.output(0)});
}

/** Sum / Mean / Max / Min with N inputs: one input -> Identity, else a chain of BinaryOps */
void mapVariadic(OnnxNode& node) {
    using B = Schema::BinaryOpType;
    auto ins = node.inputs();
    for (auto i : ins) {
        if (i < 0) {
            node.invalid("empty input name");
        }
    }
    if (ins.empty()) {
        node.invalid("needs at least one input");
    }
    const auto& t = node.opType();
    if (ins.size() == 1) {
        node.addOp(Schema::OpType::Identity, {ins[0]}, {node.output(0)});
        return;
    }
    if (t == "Mean" && ins.size() == 2) {
        auto op = node.addOp(Schema::OpType::BinaryOp, {ins[0], ins[1]}, {node.output(0)});
        setParam<Schema::BinaryParamT>(op)->type = B::MEAN;
        return;
    }
    B type = t == "Max" ? B::MAXIMUM : (t == "Min" ? B::MINIMUM : B::ADD);
    int acc = ins[0];
    for (size_t i = 1; i < ins.size(); ++i) {
        bool last = i + 1 == ins.size() && t != "Mean";
        int out = last ? node.output(0) : node.tmp("acc" + std::to_string(i));
        auto op = node.addOp(Schema::OpType::BinaryOp, {acc, ins[i]}, {out}, "step" + std::to_string(i));
        setParam<Schema::BinaryParamT>(op)->type = type;
        acc = out;
    }
    if (t == "Mean") {
        Schema::DataType dt = Schema::DataType::DT_FLOAT;
        node.knownType(ins[0], &dt);
        int n;
        float count = (float)ins.size();
        if (dt == Schema::DataType::DT_DOUBLE) {
            double c = (double)ins.size();
            n = node.graph().addConstant(node.name() + "/count", makeBlob(dt, {}, &c, 8));
        } else if (dt == Schema::DataType::DT_FLOAT16) {
            uint16_t h = floatToHalf(count);
            n = node.graph().addConstant(node.name() + "/count", makeBlob(dt, {}, &h, 2));
        } else {
            n = node.constFloat("count", {}, {count});
        }
        auto op = node.addOp(Schema::OpType::BinaryOp, {acc, n}, {node.output(0)}, "div");
        setParam<Schema::BinaryParamT>(op)->type = B::DIV;
    }
}

/** Clip: constant bounds -> UnaryOp CLIP (float) or MAXIMUM/MINIMUM (other types); else BinaryOps */
void mapClip(OnnxNode& node) {
    int x = node.input(0);
    int minT = -1, maxT = -1;
    bool haveMin, haveMax;
    float lo = -std::numeric_limits<float>::infinity(), hi = std::numeric_limits<float>::infinity();
    bool constBounds = true;
    if (node.opset() < 11) {
        haveMin = node.hasAttr("min");
        haveMax = node.hasAttr("max");
        lo = node.attrFloat("min", lo);
        hi = node.attrFloat("max", hi);
    } else {
        minT = node.input(1);
        maxT = node.input(2);
        haveMin = minT >= 0;
        haveMax = maxT >= 0;
        std::vector<float> v;
        if (haveMin) {
            auto b = node.constInput(1);
            if (b && b->dataType == Schema::DataType::DT_FLOAT && blobFloats(*b, &v) && v.size() == 1) {
                lo = v[0];
            } else {
                constBounds = false;
            }
        }
        if (haveMax) {
            auto b = node.constInput(2);
            if (b && b->dataType == Schema::DataType::DT_FLOAT && blobFloats(*b, &v) && v.size() == 1) {
                hi = v[0];
            } else {
                constBounds = false;
            }
        }
    }
    Schema::DataType xt = Schema::DataType::DT_FLOAT;
    bool typeKnown = node.knownType(x, &xt);
    if (constBounds && (xt == Schema::DataType::DT_FLOAT || !typeKnown)) {
        auto op = node.addOp(Schema::OpType::UnaryOp, {x}, {node.output(0)});
        auto p = setParam<Schema::UnaryParamT>(op);
        p->type = Schema::UnaryOpType::CLIP;
        p->alpha = lo;
        p->beta = hi;
        return;
    }
    if (node.opset() < 11) {
        // attribute bounds on a non-float tensor: cannot happen (opset < 11 Clip is float only)
        node.unsupported("Clip attributes on a non-float tensor");
    }
    int cur = x;
    if (haveMin) {
        int out = haveMax ? node.tmp("lower") : node.output(0);
        auto op = node.addOp(Schema::OpType::BinaryOp, {cur, minT}, {out}, "max");
        setParam<Schema::BinaryParamT>(op)->type = Schema::BinaryOpType::MAXIMUM;
        cur = out;
    }
    if (haveMax) {
        auto op = node.addOp(Schema::OpType::BinaryOp, {cur, maxT}, {node.output(0)}, "min");
        setParam<Schema::BinaryParamT>(op)->type = Schema::BinaryOpType::MINIMUM;
        cur = node.output(0);
    }
    if (!haveMin && !haveMax) {
        node.addOp(Schema::OpType::Identity, {x}, {node.output(0)});
    }
}
} // namespace

} // namespace Convert
} // namespace MNN

MNN_REGISTER_ONNX(Binary, MNN::Convert::mapBinary, "Add", "Sub", "Mul", "Div", "Pow", "Mod", "Equal", "Less",
                  "LessOrEqual", "Greater", "GreaterOrEqual", "And", "Or", "Xor", "BitShift", "BitwiseAnd",
                  "BitwiseOr", "BitwiseXor")
MNN_REGISTER_ONNX(PRelu, MNN::Convert::mapPRelu, "PRelu")
MNN_REGISTER_ONNX(Variadic, MNN::Convert::mapVariadic, "Sum", "Mean", "Max", "Min")
MNN_REGISTER_ONNX(Clip, MNN::Convert::mapClip, "Clip")
