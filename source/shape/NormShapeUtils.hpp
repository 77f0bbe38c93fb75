// Small helpers shared by the normalisation shape functions and CPU kernels.
#ifndef MNN_SHAPE_NORMSHAPEUTILS_HPP
#define MNN_SHAPE_NORMSHAPEUTILS_HPP

#include <stdio.h>
#include <string>
#include <vector>
#include "core/Schema.hpp"

namespace MNN {
namespace NormShapeUtils {

/** numpy rule, one direction: `from` (right-aligned) broadcasts to `to` without changing `to` */
inline bool broadcastsTo(const std::vector<int>& from, const std::vector<int>& to) {
    if (from.size() > to.size()) {
        return false;
    }
    const size_t lead = to.size() - from.size();
    for (size_t i = 0; i < from.size(); ++i) {
        if (from[i] != 1 && from[i] != to[lead + i]) {
            return false;
        }
    }
    return true;
}

/**
 * MeanVarianceNormalization axes from NormParam.axes (ONNX default [0, 2, 3] when empty); negative
 * axes count from the end; `reduced[d]` is true for every reduced dim.
 */
inline bool mvnAxes(const Schema::NormParam* param, int rank, std::vector<bool>* reduced, std::string* err) {
    std::vector<int> axes = {0, 2, 3};
    if (param && param->axes() && param->axes()->size() > 0) {
        axes.assign(param->axes()->begin(), param->axes()->end());
    }
    reduced->assign(rank, false);
    for (auto a : axes) {
        int d = a < 0 ? a + rank : a;
        if (d < 0 || d >= rank) {
            char msg[128];
            snprintf(msg, sizeof(msg), "axis %d is out of range for X of rank %d", a, rank);
            *err = msg;
            return false;
        }
        if ((*reduced)[d]) {
            char msg[128];
            snprintf(msg, sizeof(msg), "axis %d is repeated", a);
            *err = msg;
            return false;
        }
        (*reduced)[d] = true;
    }
    return true;
}

} // namespace NormShapeUtils
} // namespace MNN
#endif
