// Broadcasting binary ops -> BinaryOp; PRelu.
#include <map>
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
void mapBinary(OnnxNode& node) {
    using B = Schema::BinaryOpType;
    static const std::map<std::string, B> table = {
        {"Add", B::ADD},
        {"Sub", B::SUB},
        {"Mul", B::MUL},
        {"Div", B::DIV},
        {"Pow", B::POW},
        {"Equal", B::EQUAL},
        {"Less", B::LESS},
        {"LessOrEqual", B::LESS_EQUAL},
        {"Greater", B::GREATER},
        {"GreaterOrEqual", B::GREATER_EQUAL},
        {"And", B::AND},
        {"Or", B::OR},
        {"Xor", B::XOR},
        {"BitwiseAnd", B::BITWISE_AND},
        {"BitwiseOr", B::BITWISE_OR},
        {"BitwiseXor", B::BITWISE_XOR},
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
    if (node.input(0) < 0 || node.input(1) < 0) {
        node.invalid("needs two inputs");
    }
    int b = node.input(1);
    if (node.opset() < 7 && node.attrInt("broadcast", 0) != 0 && node.hasAttr("axis")) {
        // legacy broadcast: B's dims line up with A's starting at `axis`; numpy aligns from the
        // right, so B gets trailing 1s
        std::vector<int> ad, bd;
        if (!node.knownShape(node.input(0), &ad) || !node.knownShape(b, &bd)) {
            node.unsupported("opset < 7 broadcast with axis on inputs of unknown rank");
        }
        int axis = (int)node.attrInt("axis", 0);
        if (axis < 0) {
            axis += (int)ad.size();
        }
        int pad = (int)ad.size() - axis - (int)bd.size();
        if (axis < 0 || pad < 0) {
            node.invalid("broadcast axis does not fit the input ranks");
        }
        if (pad > 0) {
            std::vector<int64_t> axes;
            for (int i = 0; i < pad; ++i) {
                axes.push_back((int64_t)bd.size() + i);
            }
            int unsq = node.tmp("b_aligned");
            node.addOp(Schema::OpType::Unsqueeze, {b, node.constInt64("b_axes", {pad}, axes)}, {unsq}, "align");
            b = unsq;
        }
    }
    auto op = node.addOp(Schema::OpType::BinaryOp, {node.input(0), b}, {node.output(0)});
    setParam<Schema::BinaryParamT>(op)->type = type;
}

void mapPRelu(OnnxNode& node) {
    int slope = node.input(1);
    // PRelu-1/6: a 1-D slope of C values applies along the channel axis (later opsets broadcast
    // numpy-style from the right): reshape it to [C, 1, ...] for the latest form
    auto b = node.constInput(1);
    std::vector<int> xd;
    if (node.opset() < 7 && b && b->dims.size() == 1 && b->dims[0] > 1 && node.knownShape(node.input(0), &xd) &&
        xd.size() >= 3) {
        auto nb = cloneBlob(*b);
        nb->dims.assign(xd.size() - 1, 1);
        nb->dims[0] = b->dims[0];
        slope = node.graph().addConstant(node.name() + "/slope", std::move(nb));
    }
    node.addOp(Schema::OpType::PRelu, {node.input(0), slope}, {node.output(0)});
}

/** Sum / Mean / Max / Min with N inputs: one input -> Identity, two -> BinaryOp, more -> Mean (variadic) */
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
    // three or more: the variadic Mean op (BinaryParam ADD / MEAN / MAXIMUM / MINIMUM)
    auto op = node.addOp(Schema::OpType::Mean, ins, {node.output(0)});
    setParam<Schema::BinaryParamT>(op)->type =
        t == "Max" ? B::MAXIMUM : (t == "Min" ? B::MINIMUM : (t == "Mean" ? B::MEAN : B::ADD));
}

/** Clip: constant bounds -> UnaryOp CLIP (float) or MAXIMUM/MINIMUM (other types); else BinaryOps */
void mapClip(OnnxNode& node) {
    int x = node.input(0);
    if (x < 0) {
        node.invalid("input X is missing");
    }
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
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(Binary, MNN::Convert::mapBinary, "Add", "Sub", "Mul", "Div", "Pow", "Mod", "Equal", "Less",
                  "LessOrEqual", "Greater", "GreaterOrEqual", "And", "Or", "Xor", "BitShift", "BitwiseAnd", "BitwiseOr",
                  "BitwiseXor")
MNN_REGISTER_ONNX(PRelu, MNN::Convert::mapPRelu, "PRelu")
MNN_REGISTER_ONNX(Variadic, MNN::Convert::mapVariadic, "Sum", "Mean", "Max", "Min")
MNN_REGISTER_ONNX(Clip, MNN::Convert::mapClip, "Clip")
