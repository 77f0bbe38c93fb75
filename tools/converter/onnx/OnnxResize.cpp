// Resize (opset 10: X, scales; 11+: X, roi, scales, sizes) and Upsample -> Resize(X, roi?, scales?, sizes?).
// Resize-10 and Upsample use asymmetric coordinates with floor for nearest (their definition).
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
Schema::ResizeMode resizeMode(OnnxNode& node, const std::string& m) {
    if (m == "nearest")
        return Schema::ResizeMode::NEAREST;
    if (m == "linear" || m == "bilinear" || m == "trilinear")
        return Schema::ResizeMode::LINEAR;
    if (m == "cubic" || m == "bicubic")
        return Schema::ResizeMode::CUBIC;
    node.invalid("unknown mode '" + m + "'");
}

void mapResize(OnnxNode& node) {
    bool upsample = node.opType() == "Upsample";
    bool legacy = upsample || node.opset() < 11;
    std::vector<int> in = {node.input(0)};
    if (legacy) {
        int scales;
        if (upsample && node.opset() < 9) {
            auto s = node.attrFloats("scales");
            if (s.empty()) {
                node.invalid("scales is required");
            }
            scales = node.constFloat("scales", {(int)s.size()}, s);
        } else {
            scales = node.input(1);
        }
        in.push_back(-1);
        in.push_back(scales);
    } else {
        auto rest = node.inputs();
        for (size_t i = 1; i < rest.size(); ++i) {
            in.push_back(rest[i]);
        }
    }
    auto op = node.addOp(Schema::OpType::Resize, in, {node.output(0)});
    auto p = setParam<Schema::ResizeParamT>(op);
    p->mode = resizeMode(node, node.attrString("mode", "nearest"));
    if (legacy) {
        p->coordTransform = Schema::CoordTransform::ASYMMETRIC;
        p->nearestMode = Schema::NearestMode::FLOOR;
        return;
    }
    auto ct = node.attrString("coordinate_transformation_mode", "half_pixel");
    if (ct == "half_pixel") {
        p->coordTransform = Schema::CoordTransform::HALF_PIXEL;
    } else if (ct == "asymmetric") {
        p->coordTransform = Schema::CoordTransform::ASYMMETRIC;
    } else if (ct == "pytorch_half_pixel") {
        p->coordTransform = Schema::CoordTransform::PYTORCH_HALF_PIXEL;
    } else if (ct == "tf_half_pixel_for_nn") {
        p->coordTransform = Schema::CoordTransform::TF_HALF_PIXEL_FOR_NN;
    } else if (ct == "align_corners") {
        p->coordTransform = Schema::CoordTransform::ALIGN_CORNERS;
    } else if (ct == "tf_crop_and_resize") {
        p->coordTransform = Schema::CoordTransform::TF_CROP_AND_RESIZE;
    } else if (ct == "half_pixel_symmetric") {
        p->coordTransform = Schema::CoordTransform::HALF_PIXEL_SYMMETRIC;
    } else {
        node.invalid("unknown coordinate_transformation_mode '" + ct + "'");
    }
    auto nm = node.attrString("nearest_mode", "round_prefer_floor");
    if (nm == "round_prefer_floor") {
        p->nearestMode = Schema::NearestMode::ROUND_PREFER_FLOOR;
    } else if (nm == "round_prefer_ceil") {
        p->nearestMode = Schema::NearestMode::ROUND_PREFER_CEIL;
    } else if (nm == "floor") {
        p->nearestMode = Schema::NearestMode::FLOOR;
    } else if (nm == "ceil") {
        p->nearestMode = Schema::NearestMode::CEIL;
    } else {
        node.invalid("unknown nearest_mode '" + nm + "'");
    }
    p->cubicCoeffA = node.attrFloat("cubic_coeff_a", -0.75f);
    p->excludeOutside = node.attrInt("exclude_outside", 0) != 0;
    p->extrapolationValue = node.attrFloat("extrapolation_value", 0.0f);
    p->antialias = node.attrInt("antialias", 0) != 0;
    p->axes = node.toInts(node.attrInts("axes"));
    auto policy = node.attrString("keep_aspect_ratio_policy", "stretch");
    if (policy == "stretch") {
        p->keepAspectRatioPolicy = 0;
    } else if (policy == "not_larger") {
        p->keepAspectRatioPolicy = 1;
    } else if (policy == "not_smaller") {
        p->keepAspectRatioPolicy = 2;
    } else {
        node.invalid("unknown keep_aspect_ratio_policy '" + policy + "'");
    }
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(Resize, MNN::Convert::mapResize, "Resize", "Upsample")
