// Data ops: Shape, Size, Identity, Dropout, Cast, CastLike, ConstantOfShape, Range, EyeLike, Trilu,
// Where, NonZero, OneHot, Compress, Unique, ReverseSequence, CenterCropPad, Einsum, Det, Col2Im.
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
void mapShape(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::Shape, {node.input(0)}, {node.output(0)});
    auto p = setParam<Schema::ShapeParamT>(op);
    int64_t s = node.attrInt("start", 0), e = node.attrInt("end", INT32_MAX);
    p->start = (int)std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, s));
    p->end = (int)std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, e));
}

void mapSize(OnnxNode& node) {
    node.addOp(Schema::OpType::Size, {node.input(0)}, {node.output(0)});
}

void mapIdentity(OnnxNode& node) {
    node.addOp(Schema::OpType::Identity, {node.input(0)}, {node.output(0)});
}

/**
 * Dropout: Identity when inference is certain (no training_mode input, or a constant false) and the
 * mask is unused; otherwise the Dropout op with all inputs (training_mode may be computed) and the
 * seed attribute in DropoutParam.
 */
void mapDropout(OnnxNode& node) {
    bool training = false;
    if (node.opset() >= 12 && node.input(2) >= 0) {
        std::vector<int64_t> v;
        training = !node.constInts(2, &v) || v.size() != 1 || v[0] != 0;
    }
    const bool mask = node.outputCount() > 1 && node.outputUsed(1);
    if (!training && !mask) {
        node.addOp(Schema::OpType::Identity, {node.input(0)}, {node.output(0)});
        return;
    }
    std::vector<int> outs = {node.output(0)};
    if (mask) {
        outs.push_back(node.output(1));
    }
    std::vector<int> ins = {node.input(0)};
    if (training) {
        ins.push_back(node.input(1));
        ins.push_back(node.input(2));
    }
    auto op = node.addOp(Schema::OpType::Dropout, ins, outs);
    if (node.hasAttr("seed")) {
        auto p = setParam<Schema::DropoutParamT>(op);
        p->seed = node.attrInt("seed", 0);
        p->hasSeed = true;
    }
}

void addCast(OnnxNode& node, Schema::DataType to) {
    if (to == Schema::DataType::DT_INVALID || to == Schema::DataType::DT_STRING) {
        node.unsupported("cast to an unsupported type");
    }
    auto op = node.addOp(Schema::OpType::Cast, {node.input(0)}, {node.output(0)});
    auto p = setParam<Schema::CastParamT>(op);
    p->to = to;
    p->saturate = node.attrInt("saturate", 1) != 0;
}

void mapCast(OnnxNode& node) {
    if (!node.hasAttr("to")) {
        node.invalid("attribute 'to' is required");
    }
    addCast(node, OnnxNode::dataType((int)node.attrInt("to", 0)));
}

void mapCastLike(OnnxNode& node) {
    Schema::DataType t;
    if (node.input(1) < 0 || !node.knownType(node.input(1), &t)) {
        node.unsupported("the type of target_type is not known at conversion time");
    }
    addCast(node, t);
}

void mapConstantOfShape(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::ConstantOfShape, {node.input(0)}, {node.output(0)});
    auto p = setParam<Schema::ConstantParamT>(op);
    auto v = node.attrTensor("value");
    if (!v) {
        v = floatBlob({1}, {0.0f});
    }
    if (elementCount(v->dims) != 1) {
        node.invalid("value must hold one element");
    }
    p->value = std::move(v);
}

void mapRange(OnnxNode& node) {
    node.addOp(Schema::OpType::Range, {node.input(0), node.input(1), node.input(2)}, {node.output(0)});
}

void mapEyeLike(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::EyeLike, {node.input(0)}, {node.output(0)});
    auto p = setParam<Schema::ConstantParamT>(op);
    p->k = (int)node.attrInt("k", 0);
    if (node.hasAttr("dtype")) {
        auto t = OnnxNode::dataType((int)node.attrInt("dtype", 1));
        if (t == Schema::DataType::DT_INVALID || t == Schema::DataType::DT_STRING) {
            node.unsupported("dtype");
        }
        std::vector<uint8_t> zero(8, 0);
        p->value = makeBlob(t, {1}, zero.data(), (size_t)dataTypeBytes(t));
    }
}

void mapTrilu(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::Trilu, node.inputs(), {node.output(0)});
    setParam<Schema::TriluParamT>(op)->upper = node.attrInt("upper", 1) != 0;
}

void mapWhere(OnnxNode& node) {
    node.addOp(Schema::OpType::Where, {node.input(0), node.input(1), node.input(2)}, {node.output(0)});
}

void mapNonZero(OnnxNode& node) {
    node.addOp(Schema::OpType::NonZero, {node.input(0)}, {node.output(0)});
}

void mapOneHot(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::OneHot, {node.input(0), node.input(1), node.input(2)}, {node.output(0)});
    setParam<Schema::AxisParamT>(op)->axis = (int)node.attrInt("axis", -1);
}

/** Compress: AxisParam (axis, axes = [axis]) when the attribute is given; no param = flatten first */
void mapCompress(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::Compress, {node.input(0), node.input(1)}, {node.output(0)});
    if (node.hasAttr("axis")) {  // no AxisParam at all: the input is flattened first
        auto p = setParam<Schema::AxisParamT>(op);
        p->axis = (int)node.attrInt("axis", 0);
        p->axes = {p->axis};
    }
}

/** Unique: AxisParam.axes = [axis] when given (else flattened); exclusive = !sorted */
void mapUnique(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::Unique, {node.input(0)}, node.usedOutputs());
    auto p = setParam<Schema::AxisParamT>(op);
    if (node.hasAttr("axis")) {
        p->axis = (int)node.attrInt("axis", 0);
        p->axes = {p->axis};
    }
    p->exclusive = node.attrInt("sorted", 1) == 0;
}

/** ReverseSequence: AxisParam.axis = time_axis, batchDims = batch_axis */
void mapReverseSequence(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::ReverseSequence, {node.input(0), node.input(1)}, {node.output(0)});
    auto p = setParam<Schema::AxisParamT>(op);
    p->axis = (int)node.attrInt("time_axis", 0);
    p->batchDims = (int)node.attrInt("batch_axis", 1);
}

void mapCenterCropPad(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::CenterCropPad, {node.input(0), node.input(1)}, {node.output(0)});
    auto p = setParam<Schema::AxisParamT>(op);
    p->axes = node.toInts(node.attrInts("axes"));
}

void mapEinsum(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::Einsum, node.inputs(), {node.output(0)});
    setParam<Schema::EinsumParamT>(op)->equation = node.attrString("equation", "");
}

void mapDet(OnnxNode& node) {
    node.addOp(Schema::OpType::Det, {node.input(0)}, {node.output(0)});
}

void mapCol2Im(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::Col2Im, {node.input(0), node.input(1), node.input(2)}, {node.output(0)});
    auto p = setParam<Schema::ConvParamT>(op);
    p->dilations = node.toInts(node.attrInts("dilations"));
    p->pads = node.toInts(node.attrInts("pads"));
    p->strides = node.toInts(node.attrInts("strides"));
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(Shape, MNN::Convert::mapShape, "Shape")
MNN_REGISTER_ONNX(Size, MNN::Convert::mapSize, "Size")
MNN_REGISTER_ONNX(Identity, MNN::Convert::mapIdentity, "Identity")
MNN_REGISTER_ONNX(Dropout, MNN::Convert::mapDropout, "Dropout")
MNN_REGISTER_ONNX(Cast, MNN::Convert::mapCast, "Cast")
MNN_REGISTER_ONNX(CastLike, MNN::Convert::mapCastLike, "CastLike")
MNN_REGISTER_ONNX(ConstantOfShape, MNN::Convert::mapConstantOfShape, "ConstantOfShape")
MNN_REGISTER_ONNX(Range, MNN::Convert::mapRange, "Range")
MNN_REGISTER_ONNX(EyeLike, MNN::Convert::mapEyeLike, "EyeLike")
MNN_REGISTER_ONNX(Trilu, MNN::Convert::mapTrilu, "Trilu")
MNN_REGISTER_ONNX(Where, MNN::Convert::mapWhere, "Where")
MNN_REGISTER_ONNX(NonZero, MNN::Convert::mapNonZero, "NonZero")
MNN_REGISTER_ONNX(OneHot, MNN::Convert::mapOneHot, "OneHot")
MNN_REGISTER_ONNX(Compress, MNN::Convert::mapCompress, "Compress")
MNN_REGISTER_ONNX(Unique, MNN::Convert::mapUnique, "Unique")
MNN_REGISTER_ONNX(ReverseSequence, MNN::Convert::mapReverseSequence, "ReverseSequence")
MNN_REGISTER_ONNX(CenterCropPad, MNN::Convert::mapCenterCropPad, "CenterCropPad")
MNN_REGISTER_ONNX(Einsum, MNN::Convert::mapEinsum, "Einsum")
MNN_REGISTER_ONNX(Det, MNN::Convert::mapDet, "Det")
MNN_REGISTER_ONNX(Col2Im, MNN::Convert::mapCol2Im, "Col2Im")
