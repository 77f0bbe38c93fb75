#include "WindowGeometry.hpp"
#include <stdarg.h>
#include <stdio.h>
#include "core/TensorUtils.hpp"

namespace MNN {

static bool fail(std::string* err, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(std::string* err, const char* fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (err) {
        *err = msg;
    }
    return false;
}

template <typename V>
static std::vector<int> copyInts(const V* v) {
    std::vector<int> r;
    if (v) {
        r.assign(v->begin(), v->end());
    }
    return r;
}

void ConvAttrs::load(const Schema::ConvParam* p) {
    if (!p) {
        return;
    }
    kernel = copyInts(p->kernel());
    strides = copyInts(p->strides());
    dilations = copyInts(p->dilations());
    pads = copyInts(p->pads());
    outputPadding = copyInts(p->outputPadding());
    outputShape = copyInts(p->outputShape());
    group = p->group();
    padMode = p->padMode();
    activation = p->activation();
    clipMin = p->clipMin();
    clipMax = p->clipMax();
}

void PoolAttrs::load(const Schema::PoolParam* param) {
    if (!param) {
        return;
    }
    type = param->type();
    global = param->global();
    kernel = copyInts(param->kernel());
    strides = copyInts(param->strides());
    dilations = copyInts(param->dilations());
    pads = copyInts(param->pads());
    padMode = param->padMode();
    ceilMode = param->ceilMode();
    countIncludePad = param->countIncludePad();
    p = param->p();
    storageOrder = param->storageOrder();
}

// An attribute list: empty means `def` for every dimension, otherwise exactly `n` values >= `minValue`.
static bool fillList(const std::vector<int>& v, size_t n, int def, int minValue, const char* what,
                     std::vector<int>* out, std::string* err) {
    if (v.empty()) {
        out->assign(n, def);
        return true;
    }
    if (v.size() != n) {
        return fail(err, "%s has %d values, expected %d", what, (int)v.size(), (int)n);
    }
    for (auto x : v) {
        if (x < minValue) {
            return fail(err, "%s value %d is below %d", what, x, minValue);
        }
    }
    *out = v;
    return true;
}

// A pad mode from the model file: any byte; an unknown one would be taken for EXPLICIT without
// its pads having been read (found by mnn_fuzz_model: an out-of-bounds read of the pad list)
static bool checkPadMode(Schema::PadMode mode, std::string* err) {
    switch (mode) {
        case Schema::PadMode::EXPLICIT:
        case Schema::PadMode::SAME_UPPER:
        case Schema::PadMode::SAME_LOWER:
        case Schema::PadMode::VALID:
            return true;
        default:
            return fail(err, "pad mode %d is unknown", (int)mode);
    }
}

static int64_t floorDiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) {
        q -= 1;
    }
    return q;
}

static bool storeDim(int64_t v, int* out, const char* what, std::string* err) {
    if (v < 0 || v > 0x7fffffff) {
        return fail(err, "%s extent %lld is invalid", what, (long long)v);
    }
    *out = (int)v;
    return true;
}

bool forwardWindow(const std::vector<int>& input, const std::vector<int>& kernel, const std::vector<int>& strides,
                   const std::vector<int>& dilations, const std::vector<int>& pads, Schema::PadMode padMode,
                   bool ceilMode, WindowGeometry* g, std::string* err) {
    const size_t n = input.size();
    if (kernel.size() != n) {
        return fail(err, "kernel has %d dims but the input has %d spatial dims", (int)kernel.size(), (int)n);
    }
    for (auto k : kernel) {
        if (k < 1) {
            return fail(err, "kernel extent %d is below 1", k);
        }
    }
    if (!checkPadMode(padMode, err)) {
        return false;  // reported by the caller (the reason is in *err)
    }
    g->input = input;
    g->kernel = kernel;
    if (!fillList(strides, n, 1, 1, "strides", &g->strides, err) ||
        !fillList(dilations, n, 1, 1, "dilations", &g->dilations, err)) {
        return false;  // reported by the caller (the reason is in *err)
    }
    std::vector<int> explicitPads;
    if (padMode == Schema::PadMode::EXPLICIT && !fillList(pads, 2 * n, 0, 0, "pads", &explicitPads, err)) {
        return false;  // reported by the caller (the reason is in *err)
    }
    g->padBegin.assign(n, 0);
    g->padEnd.assign(n, 0);
    g->output.assign(n, 0);
    for (size_t d = 0; d < n; ++d) {
        const int64_t in = input[d];
        const int64_t s = g->strides[d];
        const int64_t eff = (int64_t)(kernel[d] - 1) * g->dilations[d] + 1;
        int64_t out = 0, pb = 0, pe = 0;
        switch (padMode) {
            case Schema::PadMode::SAME_UPPER:
            case Schema::PadMode::SAME_LOWER: {
                out = (in + s - 1) / s;
                int64_t total = (out - 1) * s + eff - in;
                if (total < 0) {
                    total = 0;
                }
                if (padMode == Schema::PadMode::SAME_UPPER) {
                    pb = total / 2;
                    pe = total - pb;
                } else {
                    pe = total / 2;
                    pb = total - pe;
                }
                break;
            }
            case Schema::PadMode::VALID: {
                int64_t span = in - eff;
                if (span < 0) {
                    return fail(err, "spatial dim %d: input extent %lld is smaller than the dilated kernel %lld",
                                (int)d, (long long)in, (long long)eff);
                }
                out = span / s + 1;
                break;
            }
            default: {
                pb = explicitPads[d];
                pe = explicitPads[n + d];
                int64_t span = in + pb + pe - eff;
                if (span < 0) {
                    return fail(err,
                                "spatial dim %d: padded input extent %lld is smaller than the dilated kernel %lld",
                                (int)d, (long long)(in + pb + pe), (long long)eff);
                }
                if (ceilMode) {
                    out = (span + s - 1) / s + 1;
                    // a last window that would start inside the end padding is dropped
                    if ((out - 1) * s >= in + pb) {
                        out -= 1;
                    }
                } else {
                    out = span / s + 1;
                }
                break;
            }
        }
        if (!storeDim(out, &g->output[d], "output", err) || !storeDim(pb, &g->padBegin[d], "pad", err) ||
            !storeDim(pe, &g->padEnd[d], "pad", err)) {
            return false;  // reported by the caller (the reason is in *err)
        }
    }
    return true;
}

bool transposeWindow(const std::vector<int>& input, const std::vector<int>& kernel, const ConvAttrs& attrs,
                     WindowGeometry* g, std::string* err) {
    const size_t n = input.size();
    if (kernel.size() != n) {
        return fail(err, "kernel has %d dims but the input has %d spatial dims", (int)kernel.size(), (int)n);
    }
    for (auto k : kernel) {
        if (k < 1) {
            return fail(err, "kernel extent %d is below 1", k);
        }
    }
    if (!checkPadMode(attrs.padMode, err)) {
        return false;  // reported by the caller (the reason is in *err)
    }
    g->input = input;
    g->kernel = kernel;
    std::vector<int> outPad;
    if (!fillList(attrs.strides, n, 1, 1, "strides", &g->strides, err) ||
        !fillList(attrs.dilations, n, 1, 1, "dilations", &g->dilations, err) ||
        !fillList(attrs.outputPadding, n, 0, 0, "output_padding", &outPad, err)) {
        return false;  // reported by the caller (the reason is in *err)
    }
    std::vector<int> outShape;
    if (!attrs.outputShape.empty()) {
        if (attrs.outputShape.size() == n) {
            outShape = attrs.outputShape;
        } else if (attrs.outputShape.size() == n + 2) {
            outShape.assign(attrs.outputShape.begin() + 2, attrs.outputShape.end());
        } else {
            return fail(err, "output_shape has %d values, expected %d", (int)attrs.outputShape.size(), (int)n);
        }
        for (auto v : outShape) {
            if (v < 0) {
                return fail(err, "output_shape value %d is negative", v);
            }
        }
    }
    std::vector<int> explicitPads;
    const bool same = attrs.padMode == Schema::PadMode::SAME_UPPER || attrs.padMode == Schema::PadMode::SAME_LOWER;
    if (outShape.empty() && attrs.padMode == Schema::PadMode::EXPLICIT &&
        !fillList(attrs.pads, 2 * n, 0, 0, "pads", &explicitPads, err)) {
        return false;  // reported by the caller (the reason is in *err)
    }
    g->padBegin.assign(n, 0);
    g->padEnd.assign(n, 0);
    g->output.assign(n, 0);
    for (size_t d = 0; d < n; ++d) {
        const int64_t in = input[d];
        const int64_t s = g->strides[d];
        const int64_t eff = (int64_t)(kernel[d] - 1) * g->dilations[d] + 1;
        const int64_t full = s * (in - 1) + outPad[d] + eff;
        int64_t out = 0, pb = 0, pe = 0;
        if (!outShape.empty() || same) {
            out = !outShape.empty() ? (int64_t)outShape[d] : in * s;
            int64_t total = full - out;
            if (attrs.padMode == Schema::PadMode::SAME_UPPER) {
                pb = floorDiv(total, 2);
                pe = total - pb;
            } else {
                pe = floorDiv(total, 2);
                pb = total - pe;
            }
        } else if (attrs.padMode == Schema::PadMode::VALID) {
            out = full;
        } else {
            pb = explicitPads[d];
            pe = explicitPads[n + d];
            out = full - pb - pe;
        }
        if (out < 0 || out > 0x7fffffff) {
            return fail(err, "spatial dim %d: output extent %lld is invalid", (int)d, (long long)out);
        }
        if (pb < -0x7fffffffLL || pb > 0x7fffffffLL || pe < -0x7fffffffLL || pe > 0x7fffffffLL) {
            return fail(err, "spatial dim %d: padding out of range", (int)d);
        }
        g->output[d] = (int)out;
        g->padBegin[d] = (int)pb;
        g->padEnd[d] = (int)pe;
    }
    return true;
}

bool resolveConv(const ConvAttrs& attrs, bool transpose, const std::vector<int>& x, const std::vector<int>& w,
                 const std::vector<int>* bias, WindowGeometry* g, int* outChannels, std::string* err) {
    if (x.size() < 3) {
        return fail(err, "X has shape %s; expected [N, C, spatial...] with at least one spatial dim",
                    TensorUtils::shapeString(x).c_str());
    }
    if (w.size() != x.size()) {
        return fail(err, "W has shape %s; expected rank %d like X %s", TensorUtils::shapeString(w).c_str(),
                    (int)x.size(), TensorUtils::shapeString(x).c_str());
    }
    const int group = attrs.group;
    if (group < 1) {
        return fail(err, "group %d is below 1", group);
    }
    const int c = x[1];
    int m = 0;
    if (!transpose) {
        if ((int64_t)w[1] * group != c) {
            return fail(err, "X has %d channels but W %s with group %d expects %lld", c,
                        TensorUtils::shapeString(w).c_str(), group, (long long)w[1] * group);
        }
        if (w[0] % group != 0) {
            return fail(err, "W has %d output channels, not divisible by group %d", w[0], group);
        }
        m = w[0];
    } else {
        if (w[0] != c) {
            return fail(err, "X has %d channels but W %s has %d input channels", c, TensorUtils::shapeString(w).c_str(),
                        w[0]);
        }
        if (c % group != 0) {
            return fail(err, "X has %d channels, not divisible by group %d", c, group);
        }
        int64_t mm = (int64_t)w[1] * group;
        if (mm > 0x7fffffff) {
            return fail(err, "output channel count %lld is too large", (long long)mm);
        }
        m = (int)mm;
    }
    if (bias && !(bias->size() == 1 && (*bias)[0] == m)) {
        return fail(err, "B has shape %s; expected [%d]", TensorUtils::shapeString(*bias).c_str(), m);
    }
    std::vector<int> inSpatial(x.begin() + 2, x.end());
    std::vector<int> wSpatial(w.begin() + 2, w.end());
    if (!attrs.kernel.empty() && attrs.kernel != wSpatial) {
        return fail(err, "kernel_shape %s does not match W %s", TensorUtils::shapeString(attrs.kernel).c_str(),
                    TensorUtils::shapeString(w).c_str());
    }
    bool ok = transpose ? transposeWindow(inSpatial, wSpatial, attrs, g, err)
                        : forwardWindow(inSpatial, wSpatial, attrs.strides, attrs.dilations, attrs.pads, attrs.padMode,
                                        false, g, err);
    if (!ok) {
        return false;  // reported by the caller (the reason is in *err)
    }
    // A zero batch or channel count passes every tensor size limit while the other dims stay huge;
    // the kernels index a plane and a window (C/group x kernel) with int (found by mnn_fuzz_model:
    // signed overflow in the fast path)
    double plane = 1.0, window = (double)(transpose ? m / group : c / group);
    for (size_t d = 0; d < g->output.size(); ++d) {
        plane *= (double)g->output[d];
        window *= (double)g->kernel[d];
    }
    if (plane > 2147483647.0 || window > 2147483647.0) {
        return fail(err, "output plane of %.0f or window of %.0f elements is over 2^31", plane, window);
    }
    *outChannels = m;
    return true;
}

bool resolvePointwiseDepthwise(const ConvAttrs& pw, const ConvAttrs& dw, const std::vector<int>& x,
                               const std::vector<int>& w1, const std::vector<int>* b1, const std::vector<int>& w2,
                               const std::vector<int>* b2, WindowGeometry* g1, WindowGeometry* g2, int* mid,
                               std::string* err) {
    if (x.size() != 4) {
        return fail(err, "X has shape %s; expected 4-D [N, C, H, W]", TensorUtils::shapeString(x).c_str());
    }
    if (w1.size() != 4 || w1[2] != 1 || w1[3] != 1 || pw.group != 1) {
        return fail(err, "pointwise W1 %s with group %d; expected [E, C, 1, 1] and group 1",
                    TensorUtils::shapeString(w1).c_str(), pw.group);
    }
    int e = 0;
    std::string why;
    if (!resolveConv(pw, false, x, w1, b1, g1, &e, &why)) {
        return fail(err, "pointwise: %s", why.c_str());
    }
    for (int d = 0; d < 2; ++d) {
        if (g1->strides[d] != 1 || g1->padBegin[d] != 0 || g1->padEnd[d] != 0 || g1->output[d] != x[2 + d]) {
            return fail(err, "pointwise convolution must have stride 1 and no pads (strides %s, pads %s)",
                        TensorUtils::shapeString(g1->strides).c_str(), TensorUtils::shapeString(pw.pads).c_str());
        }
    }
    if (w2.size() != 4 || w2[0] != e || w2[1] != 1 || dw.group != e) {
        return fail(err, "depthwise W2 %s with group %d; expected [%d, 1, kh, kw] and group %d",
                    TensorUtils::shapeString(w2).c_str(), dw.group, e, e);
    }
    std::vector<int> m = {x[0], e, g1->output[0], g1->output[1]};
    int out = 0;
    if (!resolveConv(dw, false, m, w2, b2, g2, &out, &why)) {
        return fail(err, "depthwise: %s", why.c_str());
    }
    *mid = e;
    return true;
}

bool resolvePool(const PoolAttrs& attrs, const std::vector<int>& x, WindowGeometry* g, std::string* err) {
    if (x.size() < 3) {
        return fail(err, "X has shape %s; expected [N, C, spatial...] with at least one spatial dim",
                    TensorUtils::shapeString(x).c_str());
    }
    std::vector<int> inSpatial(x.begin() + 2, x.end());
    const size_t n = inSpatial.size();
    if (attrs.type == Schema::PoolType::LPPOOL && attrs.p < 1) {
        return fail(err, "p %d is below 1", attrs.p);
    }
    if (attrs.global) {
        g->input = inSpatial;
        g->kernel = inSpatial;
        g->strides.assign(n, 1);
        g->dilations.assign(n, 1);
        g->padBegin.assign(n, 0);
        g->padEnd.assign(n, 0);
        g->output.assign(n, 1);
        return true;
    }
    if (attrs.kernel.empty()) {
        return fail(err, "kernel_shape is missing");
    }
    return forwardWindow(inSpatial, attrs.kernel, attrs.strides, attrs.dilations, attrs.pads, attrs.padMode,
                         attrs.ceilMode, g, err);
}

bool resolveConvolutionPool(const ConvAttrs& conv, const PoolAttrs& pool, const std::vector<int>& x,
                            const std::vector<int>& w, const std::vector<int>* bias, WindowGeometry* convGeom,
                            WindowGeometry* poolGeom, int* outChannels, std::string* err) {
    if (x.size() != 4) {
        return fail(err, "X has shape %s; expected 4-D [N, C, H, W]", TensorUtils::shapeString(x).c_str());
    }
    if (pool.global || (pool.type != Schema::PoolType::MAXPOOL && pool.type != Schema::PoolType::AVERAGEPOOL)) {
        return fail(err, "pool must be a 2-D MaxPool or AveragePool, not global (type %d%s)", (int)pool.type,
                    pool.global ? ", global" : "");
    }
    int m = 0;
    std::string why;
    if (!resolveConv(conv, false, x, w, bias, convGeom, &m, &why)) {
        return fail(err, "convolution: %s", why.c_str());
    }
    const std::vector<int> mid = {x[0], m, convGeom->output[0], convGeom->output[1]};
    if (!resolvePool(pool, mid, poolGeom, &why)) {
        return fail(err, "pool over the convolution's %s: %s", TensorUtils::shapeString(mid).c_str(), why.c_str());
    }
    *outChannels = m;
    return true;
}

} // namespace MNN
