// Graph passes. Each returns true when it changed the graph. None changes results; graph inputs and
// outputs keep their names.
#ifndef MNN_CONVERTER_PASSES_HPP
#define MNN_CONVERTER_PASSES_HPP

#include "../source/Graph.hpp"

namespace MNN {
namespace Convert {

/** Identity / Dropout (mask unused) removed by rewiring their readers */
bool removeIdentity(Graph& g);
/** ops not needed for any graph output removed, with constants nobody reads */
bool removeDeadNodes(Graph& g);
/** ops whose inputs are all constants evaluated with the engine (a one-op model run by libMNN) */
bool foldConstants(Graph& g);
/** Shape / Size of tensors whose shape is static (all graph inputs static) replaced by constants */
bool foldShapes(Graph& g);
/** BatchNorm after Convolution / ConvTranspose / Gemm (constant weights) folded into the weights */
bool foldBatchNorm(Graph& g);
/** Relu / Clip (UnaryOp) after Convolution / Gemm fused as the op's activation */
bool fuseActivation(Graph& g);
/** Transpose pairs that cancel removed; consecutive Transposes merged */
bool eliminateTranspose(Graph& g);
/** LayerNorm, GELU (erf form) and HardSwish written as elementwise chains -> one op */
bool fuseLayerNorm(Graph& g);
bool fuseGelu(Graph& g);
bool fuseHardSwish(Graph& g);
/** x * Sigmoid(x) -> UnaryOp SILU */
bool fuseSilu(Graph& g);
/** constant-zero spatial Pad read only by a Convolution / AveragePool -> that op's pads */
bool foldPad(Graph& g);
/**
 * Reshape [N, g, C/g, H, W] -> Transpose 0,2,1,3,4 -> Reshape [N, C, H, W] of a 4-D [N, C, H, W]
 * tensor (constant shapes, static graph input shapes, intermediates read only by the chain) ->
 * one ChannelShuffle (group g)
 */
bool fuseChannelShuffle(Graph& g);
/**
 * a Concat along channels (axis 1 / -3 of 4-D inputs) read only by a ChannelShuffle -> the shuffle
 * reads the Concat's inputs; a ChannelShuffle output read only by m >= 2 Slices along channels
 * (constant starts / ends / axes, step 1) that cut it into m equal contiguous parts, one each, ->
 * the shuffle writes the Slices' outputs (in channel order). Static shapes only.
 */
bool fuseChannelShuffleIO(Graph& g);
/**
 * a 1x1 Convolution (stride 1, no pads, group 1, constant W [E, C, 1, 1]) read only by a depthwise
 * Convolution (group E > 1, constant W [E, 1, kh, kw]) -> one PointwiseDepthwise carrying both
 * ConvParams. Run after the fixed point (activations already fused), not inside it.
 */
bool fusePointwiseDepthwise(Graph& g);
/**
 * a PointwiseDepthwise (one output Y) read by a global AveragePool -> the pool's output becomes the
 * PointwiseDepthwise's second output M (Y's mean over its plane) and the pool goes. Run after
 * fusePointwiseDepthwise.
 */
bool fusePlaneMean(Graph& g);
/**
 * Mul(X, S) (X [N, C, H...], S [1 or N, C, 1...], neither constant; static shapes) read only by a
 * Convolution (X, W, [B]) as X -> Convolution(X, W, B, S): the squeeze-excite scale as the
 * convolution's input scale. Run after the fixed point, not inside it.
 */
bool fuseInputScale(Graph& g);
/**
 * Add(Y, R), Y a Convolution's output (no activation, read only by the Add), R of Y's shape and
 * computed before it (static shapes) -> Convolution(X, W, B, S or -1, R) writing the Add's output
 * (act(conv + B + R): an activation after the Add fuses in when fuseActivation runs again)
 */
bool fuseResidualAdd(Graph& g);
/**
 * a 2-D Convolution (X, W, [B]; group 1, constant W) read only by a 2-D MaxPool / AveragePool (one
 * output, not global) -> one ConvolutionPool carrying both params. Run last (after fuseResidualAdd).
 */
bool fuseConvolutionPool(Graph& g);

/** all passes to a fixed point, then the fusions into compound ops (fusePointwiseDepthwise) */
void runPasses(Graph& g);

// ---- helpers shared by the passes ----
/** the scalar float value of a constant tensor (any numeric type, one element), false otherwise */
bool scalarValue(const Graph& g, int t, float* v);
/** the op's BinaryOp type, or -1 */
int binaryType(const Schema::OpT& op);
/** the op's UnaryOp type, or -1 */
int unaryType(const Schema::OpT& op);
/** the only op reading t in one input slot (and t is no graph output), else -1; cons: g.consumers() */
int soleConsumer(const Graph& g, const std::vector<std::vector<int>>& cons, int t);
/** the integer values of constant tensor t (any integer type), false otherwise */
bool constantInts(const Graph& g, int t, std::vector<int64_t>* v);
/** the static shapes of `tensors` (all graph inputs of static shape), computed by the engine */
bool staticShapes(const Graph& g, const std::vector<int>& tensors, std::vector<std::vector<int>>* shapes);

}  // namespace Convert
}  // namespace MNN
#endif
