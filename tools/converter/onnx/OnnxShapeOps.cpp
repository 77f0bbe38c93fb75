// Shape-manipulating ops: Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat, Split, Slice, Pad,
// Tile, Expand, DepthToSpace, SpaceToDepth. Older-opset attributes become constant inputs.
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
void mapReshape(OnnxNode& node) {
    int shape = node.opset() < 5 ? inputOrConst(node, 1, "shape", true) : node.input(1);
    if (shape < 0) {
        node.invalid("needs a shape");
    }
    auto op = node.addOp(Schema::OpType::Reshape, {node.input(0), shape}, {node.output(0)});
    setParam<Schema::ReshapeParamT>(op)->allowZero = node.attrInt("allowzero", 0) != 0;
}

void mapFlatten(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::Flatten, {node.input(0)}, {node.output(0)});
    setParam<Schema::AxisParamT>(op)->axis = (int)node.attrInt("axis", 1);
}

void mapSqueeze(OnnxNode& node) {
    bool unsq = node.opType() == "Unsqueeze";
    int axes = inputOrConst(node, 1, "axes", node.opset() < 13);
    if (unsq && axes < 0) {
        node.invalid("Unsqueeze needs axes");
    }
    std::vector<int> in = {node.input(0)};
    if (axes >= 0) {
        in.push_back(axes);
    }
    node.addOp(unsq ? Schema::OpType::Unsqueeze : Schema::OpType::Squeeze, in, {node.output(0)});
}

void mapTranspose(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::Transpose, {node.input(0)}, {node.output(0)});
    setParam<Schema::TransposeParamT>(op)->perm = node.toInts(node.attrInts("perm"));
}

void mapConcat(OnnxNode& node) {
    if (!node.hasAttr("axis") && node.opset() >= 4) {
        node.invalid("axis is required");
    }
    auto ins = node.inputs();
    auto op = node.addOp(Schema::OpType::Concat, ins, {node.output(0)});
    setParam<Schema::AxisParamT>(op)->axis = (int)node.attrInt("axis", 1);
}

void mapSplit(OnnxNode& node) {
    int split = -1;
    if (node.opset() < 13) {
        split = node.hasAttr("split") ? inputOrConst(node, 1, "split", true) : node.input(1);
    } else {
        split = node.input(1);
    }
    std::vector<int> in = {node.input(0)};
    if (split >= 0) {
        in.push_back(split);
    }
    auto op = node.addOp(Schema::OpType::Split, in, node.outputs());
    auto p = setParam<Schema::AxisParamT>(op);
    p->axis = (int)node.attrInt("axis", 0);
    if (node.hasAttr("num_outputs") && node.attrInt("num_outputs", 0) != node.outputCount()) {
        node.invalid("num_outputs differs from the number of outputs");
    }
    p->numOutputs = split >= 0 ? 0 : node.outputCount();
}

void mapSlice(OnnxNode& node) {
    std::vector<int> in = {node.input(0)};
    if (node.opset() < 10) {
        in.push_back(inputOrConst(node, 1, "starts", true));
        in.push_back(inputOrConst(node, 2, "ends", true));
        int axes = inputOrConst(node, 3, "axes", true);
        if (axes >= 0) {
            in.push_back(axes);
        }
        if (in[1] < 0 || in[2] < 0) {
            node.invalid("starts and ends are required");
        }
    } else {
        auto rest = node.inputs();
        for (size_t i = 1; i < rest.size(); ++i) {
            in.push_back(rest[i]);
        }
    }
    node.addOp(Schema::OpType::Slice, in, {node.output(0)});
}

void mapPad(OnnxNode& node) {
    std::vector<int> in = {node.input(0)};
    if (node.opset() < 11) {
        auto pads = node.attrInts(node.hasAttr("pads") ? "pads" : "paddings");
        in.push_back(node.constInt64("pads", {(int)pads.size()}, pads));
        float v = node.attrFloat("value", 0.0f);
        if (v != 0.0f) {
            in.push_back(node.constFloat("value", {}, {v}));
        }
    } else {
        auto rest = node.inputs();
        for (size_t i = 1; i < rest.size(); ++i) {
            in.push_back(rest[i]);
        }
    }
    auto op = node.addOp(Schema::OpType::Pad, in, {node.output(0)});
    auto mode = node.attrString("mode", "constant");
    auto p = setParam<Schema::PadParamT>(op);
    if (mode == "constant") {
        p->mode = Schema::PadType::CONSTANT;
    } else if (mode == "reflect") {
        p->mode = Schema::PadType::REFLECT;
    } else if (mode == "edge") {
        p->mode = Schema::PadType::EDGE;
    } else if (mode == "wrap") {
        p->mode = Schema::PadType::WRAP;
    } else {
        node.invalid("unknown mode '" + mode + "'");
    }
}

void mapTile(OnnxNode& node) {
    if (node.opset() < 6) {
        node.unsupported("Tile-1 (tiles / axis inputs)");
    }
    node.addOp(Schema::OpType::Tile, {node.input(0), node.input(1)}, {node.output(0)});
}

void mapExpand(OnnxNode& node) {
    node.addOp(Schema::OpType::Expand, {node.input(0), node.input(1)}, {node.output(0)});
}

void mapSpaceDepth(OnnxNode& node) {
    bool d2s = node.opType() == "DepthToSpace";
    auto op = node.addOp(d2s ? Schema::OpType::DepthToSpace : Schema::OpType::SpaceToDepth, {node.input(0)},
                         {node.output(0)});
    auto p = setParam<Schema::SpaceDepthParamT>(op);
    if (!node.hasAttr("blocksize")) {
        node.invalid("blocksize is required");
    }
    p->blockSize = (int)node.attrInt("blocksize", 1);
    auto mode = node.attrString("mode", "DCR");
    if (mode != "DCR" && mode != "CRD") {
        node.invalid("unknown mode '" + mode + "'");
    }
    p->mode = mode == "CRD" ? 1 : 0;
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(Reshape, MNN::Convert::mapReshape, "Reshape")
MNN_REGISTER_ONNX(Flatten, MNN::Convert::mapFlatten, "Flatten")
MNN_REGISTER_ONNX(Squeeze, MNN::Convert::mapSqueeze, "Squeeze", "Unsqueeze")
MNN_REGISTER_ONNX(Transpose, MNN::Convert::mapTranspose, "Transpose")
MNN_REGISTER_ONNX(Concat, MNN::Convert::mapConcat, "Concat")
MNN_REGISTER_ONNX(Split, MNN::Convert::mapSplit, "Split")
MNN_REGISTER_ONNX(Slice, MNN::Convert::mapSlice, "Slice")
MNN_REGISTER_ONNX(Pad, MNN::Convert::mapPad, "Pad")
MNN_REGISTER_ONNX(Tile, MNN::Convert::mapTile, "Tile")
MNN_REGISTER_ONNX(Expand, MNN::Convert::mapExpand, "Expand")
MNN_REGISTER_ONNX(SpaceDepth, MNN::Convert::mapSpaceDepth, "DepthToSpace", "SpaceToDepth")
