// Sliding-window geometry shared by the Convolution / ConvTranspose / Pooling shape functions and
// their CPU kernels: resolves kernel, strides, dilations and pads (explicit or auto_pad) into
// per-dimension begin pads and output extents, following ONNX's formulas. Errors are returned as
// a message (the caller logs it with the op's name), never logged here.
#ifndef MNN_SHAPE_WINDOWGEOMETRY_HPP
#define MNN_SHAPE_WINDOWGEOMETRY_HPP

#include <string>
#include <vector>
#include "core/Schema.hpp"

namespace MNN {

/** ConvParam copied into plain values (Executions must not keep the Op) */
struct ConvAttrs {
    std::vector<int> kernel;
    std::vector<int> strides;
    std::vector<int> dilations;
    std::vector<int> pads;
    std::vector<int> outputPadding;
    std::vector<int> outputShape;
    int group = 1;
    Schema::PadMode padMode = Schema::PadMode::EXPLICIT;
    Schema::FusedActivation activation = Schema::FusedActivation::NONE;
    float clipMin = 0.0f;
    float clipMax = 6.0f;
    /** copies the table; a missing table leaves ONNX defaults */
    void load(const Schema::ConvParam* p);
};

/** PoolParam copied into plain values */
struct PoolAttrs {
    Schema::PoolType type = Schema::PoolType::MAXPOOL;
    bool global = false;
    std::vector<int> kernel;
    std::vector<int> strides;
    std::vector<int> dilations;
    std::vector<int> pads;
    Schema::PadMode padMode = Schema::PadMode::EXPLICIT;
    bool ceilMode = false;
    bool countIncludePad = false;
    int p = 2;
    int storageOrder = 0;
    void load(const Schema::PoolParam* p);
};

/** one window per output position: in = out * stride - padBegin + k * dilation */
struct WindowGeometry {
    std::vector<int> input;     // spatial extents of X
    std::vector<int> kernel;
    std::vector<int> strides;
    std::vector<int> dilations;
    std::vector<int> padBegin;  // may be negative for ConvTranspose with output_shape
    std::vector<int> padEnd;
    std::vector<int> output;    // spatial extents of Y
};

/**
 * Conv / Pool: output[i] = floor_or_ceil((in + padB + padE - ((k-1)*d+1)) / s) + 1 (explicit pads;
 * with ceilMode a last window starting in the end padding is dropped), ceil(in / s) for SAME_*,
 * floor((in - ((k-1)*d+1)) / s) + 1 for VALID.
 */
bool forwardWindow(const std::vector<int>& input, const std::vector<int>& kernel, const std::vector<int>& strides,
                   const std::vector<int>& dilations, const std::vector<int>& pads, Schema::PadMode padMode,
                   bool ceilMode, WindowGeometry* g, std::string* err);

/**
 * ConvTranspose: full[i] = s*(in-1) + outputPadding + (k-1)*d + 1; output = full - padB - padE with
 * explicit pads; with output_shape (or SAME_*: output = in*s) the total padding full - output is split
 * (SAME_UPPER: begin = total/2, else begin = total - total/2, floor division).
 */
bool transposeWindow(const std::vector<int>& input, const std::vector<int>& kernel, const ConvAttrs& attrs,
                     WindowGeometry* g, std::string* err);

/**
 * Validates X [N, C, spatial...], W and optional B (nullptr) for Conv (W: [M, C/group, k...]) or
 * ConvTranspose (W: [C, M/group, k...]); fills the geometry and the output channel count M.
 */
bool resolveConv(const ConvAttrs& attrs, bool transpose, const std::vector<int>& x, const std::vector<int>& w,
                 const std::vector<int>* bias, WindowGeometry* g, int* outChannels, std::string* err);

/**
 * PointwiseDepthwise: X [N, C, H, W], W1 [E, C, 1, 1], W2 [E, 1, kh, kw], optional B1 / B2 [E]; the
 * pointwise convolution must be 2-D 1x1, stride 1, unpadded, group 1 and the depthwise one 2-D with
 * group E. Fills both geometries (g1: X -> mid [N, E, H, W], g2: mid -> Y) and E.
 */
bool resolvePointwiseDepthwise(const ConvAttrs& pw, const ConvAttrs& dw, const std::vector<int>& x,
                               const std::vector<int>& w1, const std::vector<int>* b1, const std::vector<int>& w2,
                               const std::vector<int>* b2, WindowGeometry* g1, WindowGeometry* g2, int* mid,
                               std::string* err);

/** Pooling: X [N, C, spatial...]; global pooling gives a window covering the whole input */
bool resolvePool(const PoolAttrs& attrs, const std::vector<int>& x, WindowGeometry* g, std::string* err);

/**
 * ConvolutionPool: a 2-D convolution of X [N, C, H, W] by W (optional B), then a 2-D MAXPOOL /
 * AVERAGEPOOL (not global) over its output. Fills both geometries (conv: X -> mid [N, M, OH, OW],
 * pool: mid -> Y) and M.
 */
bool resolveConvolutionPool(const ConvAttrs& conv, const PoolAttrs& pool, const std::vector<int>& x,
                            const std::vector<int>& w, const std::vector<int>* bias, WindowGeometry* convGeom,
                            WindowGeometry* poolGeom, int* outChannels, std::string* err);

} // namespace MNN
#endif
