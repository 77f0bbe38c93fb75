// Winograd F(m x m, r x r) convolution (stride 1, dilation 1, one group) for the fast Convolution
// Execution: weights transformed once (U = G g G^T, in double) and packed as the GEMM's A per
// transform position xi; per panel of nr output tiles the input tiles are gathered, transformed
// (V = B^T d B), multiplied by U for each xi on the packed SGEMM, and transformed back
// (Y = A^T M A) with bias and the fused activation.
#ifndef MNN_CPU_CPUCONVOLUTIONWINOGRAD_HPP
#define MNN_CPU_CPUCONVOLUTIONWINOGRAD_HPP

#include <stdint.h>
#include <vector>
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "backend/cpu/ThreadPool.hpp"

namespace MNN {

struct WinogradShape {
    int batch = 1, inC = 0, outC = 0;
    int ih = 0, iw = 0, oh = 0, ow = 0;
    int r = 3;  // kernel size (square)
    int padTop = 0, padLeft = 0;
};

class WinogradConv {
public:
    /** output tile sizes this implementation offers for r = 3 */
    static bool supportedUnit(int m) {
        return m == 2 || m == 4 || m == 6;
    }
    /**
     * transforms and packs the weights (w: [outC, inC, r, r]) for tile size m; bias may be null.
     * Call again only when m or the weights change.
     */
    bool prepareWeights(const CPUCoreFunctions& f, int m, const WinogradShape& s, const float* w, const float* bias);
    /** plans tasks for the shape; returns the scratch bytes run() needs */
    size_t plan(const WinogradShape& s, int threads);
    /** y = conv(x); scratch: at least plan()'s bytes, 64-byte aligned */
    void run(const float* x, float* y, float* scratch, const GemmPost& post, ThreadPool* pool) const;

    int unit() const {
        return mM;
    }
    /**
     * cost per multiply-add of the alpha^2 small GEMMs relative to one im2col GEMM (each streams its
     * own transformed-weight block): measured with conv_bench on resnet's 3x3 layers
     */
    static constexpr double kGemmFactor = 1.3;
    /** estimated cost (micro-kernel FMA units) of one run with this shape and tile size m */
    static double cost(const CPUCoreFunctions& f, int m, const WinogradShape& s, int threads);

    struct Job;

private:
    const CPUCoreFunctions* mFuncs = nullptr;
    WinogradShape mShape;
    int mM = 0, mAlpha = 0;
    std::vector<float> mAt, mBt;  // m x alpha, alpha x alpha
    std::vector<float> mPackedU;  // alpha^2 packed A blocks [outC x inC]
    int64_t mPackedUStride = 0;
    std::vector<float> mBias, mZeroBias;
    // plan
    int mTilesX = 0, mTiles = 0, mPanels = 0, mSplitM = 1, mChunkM = 0, mThreads = 1;  // mThreads: tasks
    int64_t mItems = 0, mScratchPerThread = 0;
};

}  // namespace MNN
#endif
