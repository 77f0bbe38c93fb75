// NonMaxSuppression(boxes, scores, max_output_boxes_per_class?, iou_threshold?, score_threshold?) ->
// selected_indices int64 [num_selected, 3]: the row count depends on every input's values, so the
// selection is run here.
#include "NmsCompute.hpp"

namespace MNN {
static ErrorCode shapeNms(const Schema::Op* op, const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || inputs.size() > 5 || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs boxes, scores (3 optional inputs more) and 1 output");
    }
    auto p = op->param_as_NmsParam();
    int center = p ? p->centerPointBox() : 0;
    if (center != 0 && center != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "centerPointBox %d is not 0 or 1", center);
    }
    NmsScratch scratch;
    int64_t selected = 0;
    std::string err;
    if (!nmsRun(inputs, center == 1, &scratch, nullptr, 0, &selected, &err)) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s", err.c_str());
    }
    if (selected > 0x7fffffff) {
        return ShapeUtils::error(op, INVALID_VALUE, "%lld selected boxes are too many", (long long)selected);
    }
    ShapeUtils::setOutput(outputs[0], {(int)selected, 3}, halide_type_of<int64_t>());
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(NonMaxSuppression, ShapeEntry{shapeNms, nullptr, 0x80000000u, true})
