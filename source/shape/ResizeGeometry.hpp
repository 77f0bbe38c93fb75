// Resize geometry shared by the shape function and the CPU kernel: output dims, the per-axis scale
// used by the coordinate transform, and the per-axis roi (ONNX Resize-19 semantics).
#ifndef MNN_SHAPE_RESIZEGEOMETRY_HPP
#define MNN_SHAPE_RESIZEGEOMETRY_HPP

#include <math.h>
#include <stdio.h>
#include <string>
#include <vector>
#include "ShapeUtils.hpp"

namespace MNN {

/** the parts of ResizeParam that decide geometry, copied so kernels need not keep the Op */
struct ResizeConfig {
    Schema::ResizeMode mode = Schema::ResizeMode::NEAREST;
    Schema::CoordTransform coord = Schema::CoordTransform::HALF_PIXEL;
    Schema::NearestMode nearest = Schema::NearestMode::ROUND_PREFER_FLOOR;
    float cubicA = -0.75f;
    bool excludeOutside = false;
    float extrapolation = 0.0f;
    std::vector<float> scales;   // attribute fallback when the input is absent
    std::vector<int64_t> sizes;  // attribute fallback when the input is absent
    std::vector<int> axes;
    int keepAspect = 0;  // 0 stretch, 1 not_larger, 2 not_smaller
    bool antialias = false;

    void load(const Schema::ResizeParam* p) {
        if (!p) {
            return;
        }
        mode = p->mode();
        coord = p->coordTransform();
        nearest = p->nearestMode();
        cubicA = p->cubicCoeffA();
        excludeOutside = p->excludeOutside();
        extrapolation = p->extrapolationValue();
        if (p->scales()) {
            scales.assign(p->scales()->begin(), p->scales()->end());
        }
        if (p->sizes()) {
            sizes.assign(p->sizes()->begin(), p->sizes()->end());
        }
        if (p->axes()) {
            axes.assign(p->axes()->begin(), p->axes()->end());
        }
        keepAspect = p->keepAspectRatioPolicy();
        antialias = p->antialias();
    }
};

struct ResizeGeometry {
    std::vector<int> outDims;
    std::vector<double> scales;    // per dim of X; 1 for axes not resized
    std::vector<double> roiStart;  // per dim; 0 unless given
    std::vector<double> roiEnd;    // per dim; 1 unless given
    /** the real-valued resized length the coordinate transforms use (in * scale, roi extent included) */
    std::vector<double> lengthResized;
};

/**
 * Computes the geometry from X (inputs[0]) and the values of roi / scales / sizes (inputs 1..3,
 * empty tensors count as absent). On failure returns false with a message in *err.
 */
inline bool computeResizeGeometry(const ResizeConfig& cfg, const std::vector<Tensor*>& inputs,
                                  ResizeGeometry* g, std::string* err) {
    char buf[256];
    auto fail = [&](const char* msg) {
        *err = msg;
        return false;
    };
    auto inDims = TensorUtils::shape(inputs[0]);
    const int rank = (int)inDims.size();
    std::vector<int> axes;
    if (cfg.axes.empty()) {
        for (int i = 0; i < rank; ++i) {
            axes.push_back(i);
        }
    } else {
        std::vector<bool> seen(rank, false);
        for (auto a : cfg.axes) {
            int n = ShapeUtils::normalizeAxis(a, rank);
            if (n < 0 || seen[n]) {
                snprintf(buf, sizeof(buf), "axis %d is out of range for rank %d or repeated", a, rank);
                return fail(buf);
            }
            seen[n] = true;
            axes.push_back(n);
        }
    }
    const int na = (int)axes.size();
    auto present = [&](int i) { return ShapeUtils::has(inputs, i) && TensorUtils::elementCount(inputs[i]) > 0; };
    std::vector<float> scales;
    std::vector<int64_t> sizes;
    bool hasScales = false, hasSizes = false;
    if (present(2)) {
        if (inputs[2]->getType().code != halide_type_float) {
            return fail("scales must be a float tensor");
        }
        scales = ShapeUtils::readFloats(inputs[2]);
        hasScales = true;
    } else if (!cfg.scales.empty()) {
        scales = cfg.scales;
        hasScales = true;
    }
    if (present(3)) {
        if (inputs[3]->getType().code != halide_type_int) {
            return fail("sizes must be an int64 or int32 tensor");
        }
        sizes = ShapeUtils::readInts(inputs[3]);
        hasSizes = true;
    } else if (!cfg.sizes.empty()) {
        sizes = cfg.sizes;
        hasSizes = true;
    }
    g->outDims = inDims;
    g->scales.assign(rank, 1.0);
    g->roiStart.assign(rank, 0.0);
    g->roiEnd.assign(rank, 1.0);
    g->lengthResized.assign(inDims.begin(), inDims.end());
    if (present(1)) {
        auto roi = ShapeUtils::readFloats(inputs[1]);
        if (cfg.coord == Schema::CoordTransform::TF_CROP_AND_RESIZE) {
            if ((int)roi.size() != 2 * na) {
                snprintf(buf, sizeof(buf), "roi has %d values, expected %d (2 x %d axes)", (int)roi.size(), 2 * na, na);
                return fail(buf);
            }
            for (int i = 0; i < na; ++i) {
                if (!isfinite(roi[i]) || !isfinite(roi[na + i])) {
                    return fail("roi values must be finite");
                }
                g->roiStart[axes[i]] = roi[i];
                g->roiEnd[axes[i]] = roi[na + i];
            }
        }
    } else if (cfg.coord == Schema::CoordTransform::TF_CROP_AND_RESIZE) {
        return fail("tf_crop_and_resize needs the roi input");
    }
    if (rank == 0) {
        return true;
    }
    if (hasScales == hasSizes) {
        return fail(hasScales ? "scales and sizes are both given" : "neither scales nor sizes is given");
    }
    if (hasScales) {
        if ((int)scales.size() != na) {
            snprintf(buf, sizeof(buf), "scales has %d values, expected %d", (int)scales.size(), na);
            return fail(buf);
        }
        for (int i = 0; i < na; ++i) {
            float s = scales[i];
            if (!(s > 0.0f) || isinf(s)) {
                snprintf(buf, sizeof(buf), "scale %g for axis %d must be positive and finite", (double)s, axes[i]);
                return fail(buf);
            }
            int d = axes[i];
            double extent = (double)inDims[d] * (g->roiEnd[d] - g->roiStart[d]) * (double)s;
            double o = floor(extent);
            if (!(o >= 0.0) || o > 2147483647.0) {
                snprintf(buf, sizeof(buf), "output extent %g of axis %d is invalid", o, d);
                return fail(buf);
            }
            g->outDims[d] = (int)o;
            g->scales[d] = (double)s;
            g->lengthResized[d] = extent;
        }
    } else {
        if ((int)sizes.size() != na) {
            snprintf(buf, sizeof(buf), "sizes has %d values, expected %d", (int)sizes.size(), na);
            return fail(buf);
        }
        for (int i = 0; i < na; ++i) {
            int o = 0;
            if (!ShapeUtils::toDim(sizes[i], &o)) {
                snprintf(buf, sizeof(buf), "size %lld for axis %d is negative or too large", (long long)sizes[i],
                         axes[i]);
                return fail(buf);
            }
        }
        if (cfg.keepAspect == 0) {
            for (int i = 0; i < na; ++i) {
                int d = axes[i];
                g->outDims[d] = (int)sizes[i];
                g->scales[d] = inDims[d] > 0 ? (double)sizes[i] / (double)inDims[d] : 1.0;
                g->lengthResized[d] = (double)sizes[i];
            }
        } else if (cfg.keepAspect == 1 || cfg.keepAspect == 2) {
            double scale = cfg.keepAspect == 1 ? INFINITY : 0.0;
            for (int i = 0; i < na; ++i) {
                int d = axes[i];
                if (inDims[d] == 0) {
                    return fail("keep_aspect_ratio_policy needs non-empty resized axes");
                }
                double s = (double)sizes[i] / (double)inDims[d];
                scale = cfg.keepAspect == 1 ? fmin(scale, s) : fmax(scale, s);
            }
            for (int i = 0; i < na; ++i) {
                int d = axes[i];
                double o = floor(scale * (double)inDims[d] + 0.5);
                if (o > 2147483647.0) {
                    return fail("output extent too large");
                }
                g->outDims[d] = (int)o;
                g->scales[d] = scale;
                g->lengthResized[d] = scale * (double)inDims[d];
            }
        } else {
            snprintf(buf, sizeof(buf), "keepAspectRatioPolicy %d is not 0, 1 or 2", cfg.keepAspect);
            return fail(buf);
        }
    }
    for (int d = 0; d < rank; ++d) {
        // an antialiased downscale widens the filter to support / scale taps; beyond a few times the
        // input length every extra tap lands on a clamped edge pixel, so such scales are refused
        if (cfg.antialias && cfg.mode != Schema::ResizeMode::NEAREST && g->outDims[d] > 0 && g->scales[d] < 1.0) {
            double width = (cfg.mode == Schema::ResizeMode::CUBIC ? 4.0 : 2.0) / g->scales[d];
            if (width > 4.0 * inDims[d] + 16.0) {
                snprintf(buf, sizeof(buf), "antialias filter of %g taps on axis %d (length %d) is too wide", width, d,
                         inDims[d]);
                return fail(buf);
            }
        }
        if (inDims[d] == 0 && g->outDims[d] > 0) {
            snprintf(buf, sizeof(buf), "axis %d is empty in X but %d in the output", d, g->outDims[d]);
            return fail(buf);
        }
    }
    return true;
}

} // namespace MNN
#endif
