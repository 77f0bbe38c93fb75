// NonMaxSuppression's selection, shared by the shape function (the output row count depends on the
// values) and the CPU kernel. ONNX NonMaxSuppression-11 semantics.
#ifndef MNN_SHAPE_NMSCOMPUTE_HPP
#define MNN_SHAPE_NMSCOMPUTE_HPP

#include <math.h>
#include <algorithm>
#include <string>
#include <vector>
#include "ShapeUtils.hpp"

namespace MNN {

/** corners (y1, x1, y2, x2) sorted so that lo <= hi, from either box encoding */
inline void nmsCorners(const float* b, bool center, double* c) {
    if (center) {  // x_center, y_center, width, height
        double hw = b[2] / 2.0, hh = b[3] / 2.0;
        c[0] = b[1] - hh;
        c[1] = b[0] - hw;
        c[2] = b[1] + hh;
        c[3] = b[0] + hw;
    } else {
        c[0] = std::min(b[0], b[2]);
        c[1] = std::min(b[1], b[3]);
        c[2] = std::max(b[0], b[2]);
        c[3] = std::max(b[1], b[3]);
    }
}

inline double nmsIou(const double* a, const double* b) {
    double areaA = (a[2] - a[0]) * (a[3] - a[1]);
    double areaB = (b[2] - b[0]) * (b[3] - b[1]);
    if (areaA <= 0.0 || areaB <= 0.0) {
        return 0.0;
    }
    double ih = std::min(a[2], b[2]) - std::max(a[0], b[0]);
    double iw = std::min(a[3], b[3]) - std::max(a[1], b[1]);
    if (ih <= 0.0 || iw <= 0.0) {
        return 0.0;
    }
    double inter = ih * iw;
    return inter / (areaA + areaB - inter);
}

/** the selection's working memory; sized once (reserve) so that a run allocates nothing */
struct NmsScratch {
    std::vector<double> corners;
    std::vector<int> order, kept;
    void reserve(int64_t boxes) {
        corners.resize((size_t)boxes * 4);
        order.reserve((size_t)boxes);
        kept.reserve((size_t)boxes);
    }
};

/**
 * Runs NMS for every (batch, class): boxes scoring above scoreThreshold (when given) in descending
 * score order (ties: lower box index first); a box is kept unless its IoU with a kept box exceeds
 * iouThreshold; at most maxPerClass per class. Writes (batch, class, box) triples to out (at most
 * capacity rows; out may be nullptr with capacity 0) and sets *count to the number of rows selected.
 * inputs: boxes [B, N, 4], scores [B, C, N], max_output_boxes_per_class?, iou_threshold?,
 * score_threshold?. Returns false with *err on bad shapes / types. Allocates nothing when scratch
 * was reserved for N boxes (and no error occurs).
 */
inline bool nmsRun(const std::vector<Tensor*>& inputs, bool centerBox, NmsScratch* scratch, int64_t* out,
                   int64_t capacity, int64_t* count, std::string* err) {
    const Tensor* boxesT = inputs[0];
    const Tensor* scoresT = inputs[1];
    if (boxesT->dimensions() != 3 || boxesT->length(2) != 4 || scoresT->dimensions() != 3 ||
        scoresT->length(0) != boxesT->length(0) || scoresT->length(2) != boxesT->length(1)) {
        *err = "boxes " + TensorUtils::shapeString(boxesT) + " and scores " + TensorUtils::shapeString(scoresT) +
               " must be [B, N, 4] and [B, C, N]";
        return false;
    }
    auto f = halide_type_of<float>();
    if (inputs[0]->getType() != f || inputs[1]->getType() != f) {
        *err = "boxes and scores must be float32";
        return false;
    }
    auto scalar = [&](size_t i, const char* name, bool isInt) -> bool {
        if (!ShapeUtils::has(inputs, i)) {
            return true;
        }
        auto t = inputs[i]->getType();
        if (TensorUtils::elementCount(inputs[i]) > 1 || (isInt ? t.code != halide_type_int : t.code != halide_type_float)) {
            *err = std::string(name) + " must be a single " + (isInt ? "integer" : "float");
            return false;
        }
        return true;
    };
    if (!scalar(2, "max_output_boxes_per_class", true) || !scalar(3, "iou_threshold", false) ||
        !scalar(4, "score_threshold", false)) {
        return false;
    }
    auto present = [&](size_t i) { return ShapeUtils::has(inputs, i) && TensorUtils::elementCount(inputs[i]) == 1; };
    int64_t maxPerClass = present(2) ? ShapeUtils::readInt(inputs[2], 0) : 0;
    double iouThreshold = present(3) ? ShapeUtils::readFloat(inputs[3], 0) : 0.0;
    bool useScore = present(4);
    double scoreThreshold = useScore ? ShapeUtils::readFloat(inputs[4], 0) : 0.0;
    if (iouThreshold < 0.0 || iouThreshold > 1.0) {
        *err = "iou_threshold " + std::to_string(iouThreshold) + " outside [0, 1]";
        return false;
    }
    *count = 0;
    if (maxPerClass <= 0) {
        return true;
    }
    const int B = boxesT->length(0), N = boxesT->length(1), C = scoresT->length(1);
    const float* boxes = inputs[0]->host<float>();
    const float* scores = inputs[1]->host<float>();
    if (scratch->corners.size() < (size_t)N * 4) {
        scratch->reserve(N);
    }
    double* corners = scratch->corners.data();
    std::vector<int>& order = scratch->order;
    std::vector<int>& kept = scratch->kept;
    for (int b = 0; b < B; ++b) {
        for (int i = 0; i < N; ++i) {
            nmsCorners(boxes + ((int64_t)b * N + i) * 4, centerBox, &corners[(size_t)i * 4]);
        }
        for (int c = 0; c < C; ++c) {
            const float* s = scores + ((int64_t)b * C + c) * N;
            order.clear();
            for (int i = 0; i < N; ++i) {
                if (s[i] == s[i] && (!useScore || s[i] > scoreThreshold)) {  // NaN scores never pass
                    order.push_back(i);
                }
            }
            // descending score, ties by the lower index: the order of a stable sort, without the
            // temporary buffer std::stable_sort allocates
            std::sort(order.begin(), order.end(), [&](int a, int bb) { return s[a] > s[bb] || (s[a] == s[bb] && a < bb); });
            kept.clear();
            for (int i : order) {
                if ((int64_t)kept.size() >= maxPerClass) {
                    break;
                }
                bool keep = true;
                for (int k : kept) {
                    if (nmsIou(&corners[(size_t)i * 4], &corners[(size_t)k * 4]) > iouThreshold) {
                        keep = false;
                        break;
                    }
                }
                if (keep) {
                    kept.push_back(i);
                    if (*count < capacity) {
                        int64_t* row = out + *count * 3;
                        row[0] = b;
                        row[1] = c;
                        row[2] = i;
                    }
                    ++*count;
                }
            }
        }
    }
    return true;
}

} // namespace MNN
#endif
