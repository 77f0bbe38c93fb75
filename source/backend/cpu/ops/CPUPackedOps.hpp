// Executions on the CPU's packed layout (PackedLayout.hpp): which ops support it, and the factory
// the backend uses when an op has a packed input or output.
#ifndef MNN_CPU_CPUPACKEDOPS_HPP
#define MNN_CPU_CPUPACKEDOPS_HPP

#include <vector>
#include "core/Backend.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "backend/cpu/CPUMemory.hpp"
#include "shape/WindowGeometry.hpp"

namespace MNN {

/**
 * The Execution for an op with at least one packed input or output: a native packed kernel where
 * there is one, else an adapter around the plain Execution (convert at the edges, or, for
 * elementwise ops on same-shaped tensors, run the plain kernel over the padded buffer as 1-D).
 */
Execution* createPackedExecution(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                 const Schema::Op* op, Backend* backend);

/**
 * Native packed executions (nullptr when the op's parameters are outside what they do); defined
 * next to their kernels.
 */
/**
 * Convolution: depthwise, Winograd or the direct tile kernel; the direct kernel also takes inputs S
 * (3) and R (4), elsewhere they run in wrappers (CPUConvolutionExtraInputs.cpp)
 */
Execution* createPackedConvolution(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                   const Schema::Op* op, Backend* backend);
/** depthwise (group == input channels == output channels), any window: CPUConvolutionPackedDepthwise.cpp */
Execution* createPackedDepthwise(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                 const ConvAttrs& attrs, Backend* backend);
/**
 * Winograd F(m x m, 3 x 3) on the packed layout when it is cheaper than the direct packed
 * convolution (or forced by MNN_CONV_ALGO): CPUConvolutionPackedWinograd.cpp. With pool (a
 * ConvolutionPool's), the Execution may run the pool too (its output is then the pooled tensor:
 * *pooled set true); else it writes the convolution's output for a separate pool
 */
Execution* createPackedWinograd(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                const ConvAttrs& attrs, Backend* backend, const PoolAttrs* pool = nullptr,
                                bool* pooled = nullptr);
/**
 * 2-D MaxPool (no Indices output) / AveragePool and their global forms on float NCHW input:
 * CPUPoolingPacked.cpp (cpuPackedSupport's Pooling case and createPackedPooling both ask it)
 */
bool packedPoolingSupported(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                            const std::vector<Tensor*>& outputs);
Execution* createPackedPooling(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                               const Schema::Op* op, Backend* backend);
/** the packed pooling of attrs (MAXPOOL / AVERAGEPOOL, else null); its input and output packed */
Execution* createPackedPooling(const PoolAttrs& attrs, Backend* backend);
/**
 * an average pool's divisors per output row (invY) and column (invX): 1 / the window's count inside
 * the input, or inside the padded extent with countIncludePad
 */
void poolInverseCounts(const PoolAttrs& attrs, const WindowGeometry& geom, std::vector<float>* invY,
                       std::vector<float>* invX);
/**
 * ConvolutionPool: the banded direct kernel (CPUConvolutionPacked.cpp) where the convolution would
 * run the direct tile kernel, else the convolution's packed Execution then the packed pooling
 * (CPUConvolutionPool.cpp); null for the adapter (the plain pair)
 */
Execution* createPackedConvolutionPool(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                       const Schema::Op* op, Backend* backend);
Execution* createPackedBinary(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                              const Schema::Op* op, Backend* backend);
Execution* createPackedConcat(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                              const Schema::Op* op, Backend* backend);

/** PointwiseDepthwise with constant weights, in row bands (CPUPointwiseDepthwisePacked.cpp) */
Execution* createPackedPointwiseDepthwise(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                          const Schema::Op* op, Backend* backend);

/** a BinaryOp (add, sub, mul, div, max, min) of a 4-D tensor and a [N|1, C, 1, 1] operand */
bool packedBinaryBroadcastSupported(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                    const std::vector<Tensor*>& outputs);
/** a Concat of 4-D float tensors along channels */
bool packedConcatSupported(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                           const std::vector<Tensor*>& outputs);
/**
 * channel-axis data movement at any channel offsets (CPUPackedGather.cpp): Slice of a 4-D float
 * tensor on axis 1 only (constant starts / ends / axes / steps, step 1) and ChannelShuffle
 */
bool packedGatherSupported(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                           const std::vector<Tensor*>& outputs);
/** Slice / ChannelShuffle (packedGatherSupported) and Concat on channels with unaligned parts */
Execution* createPackedGather(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                              const Schema::Op* op, Backend* backend);

/**
 * Reduce MEAN / SUM / MAX / MIN over exactly H and W of a 4-D float tensor (axes from the parameter or
 * a constant input) into [N, C] or [N, C, 1, 1]: CPUReducePacked.cpp
 */
bool packedReduceSupported(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                           const std::vector<Tensor*>& outputs);
Execution* createPackedReduce(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                              const Schema::Op* op, Backend* backend);

// ---- pieces shared by the packed convolution Executions ----
struct CPUCoreFunctions;
struct GemmPost;

/**
 * Weights [M, C, taps] -> the layout of the table's packed tile (PackedConvTile): per group of
 * Q = min(pcQMax, blocks left) output blocks starting at block qb0 (qb0 * wPerBlock floats in, wPerBlock
 * = ceil(C / 16) * taps * 256): [kb][tap][i < 16][q < Q][l < 16], zero past M and C.
 */
void packConvWeights(const CPUCoreFunctions& f, const float* w, int m, int c, int taps, LargeVector<float>* out);

/** what the dwpack / poolpack row kernels need of one output plane */
struct DwPlaneGeom {
    int ih, iw, oh, ow, kh, kw, sh, sw, dh, dw, pt, pl;
    int in0, in1;  // output columns whose whole window lies inside the input row
};
/** from a 2-D convolution geometry */
DwPlaneGeom dwPlaneGeom(const WindowGeometry& g);
/** the plane geometry a row kernel's descriptor (PackedDwRow, PackedPoolRow) shares with g */
template <class Row>
inline void setRowGeometry(Row* r, const DwPlaneGeom& g) {
    r->xRowStep = (int64_t)g.dh * g.iw * 16;
    r->iw = g.iw;
    r->ow = g.ow;
    r->kw = g.kw;
    r->sw = g.sw;
    r->dw = g.dw;
    r->pl = g.pl;
    r->in0 = g.in0;
    r->in1 = g.in1;
}
/** a pooling row over g with the fields every row of the plane shares (x, y, rows, scaleY: per row) */
PackedPoolRow packedPoolRow(const DwPlaneGeom& g, int isMax, const float* invX);
/** kernel rows [*k0, *k1) of output row oy that fall inside the input */
void dwValidRows(const DwPlaneGeom& g, int oy, int* k0, int* k1);
/**
 * dwpack over output rows [oy0, oy1) of one 16-channel block: x holds the block's input rows from row
 * rowBase on (iw * 16 floats apart; the rows the windows need), w its [taps][16] weights, bias its
 * 16, y its output plane
 */
void packedDwRows(const CPUCoreFunctions& f, const DwPlaneGeom& g, const float* x, int rowBase, const float* w,
                  const float* bias, float* y, int oy0, int oy1, const GemmPost* post);
/** depthwise weights [C, 1, taps] -> [blocks][taps][16], bias (b may be null) -> [blocks][16]; padding lanes 0 */
void packDepthwiseWeights(const float* w, const float* b, int channels, int taps, std::vector<float>* wOut,
                          std::vector<float>* bOut);

}  // namespace MNN
#endif
