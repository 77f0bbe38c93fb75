// A zero- (or value-) padded copy of one input plane laid out so that every window tap of every
// output row is a contiguous run: for horizontal stride 1 the padded rows as they are, for stride
// 2 each row split into its even and odd columns. Used by the vector depthwise convolution and
// pooling kernels (DepthwiseKernels.inl), which read src[oy * rowStep + tapOff[t] + ox].
#ifndef MNN_CPU_PADDEDPLANE_HPP
#define MNN_CPU_PADDEDPLANE_HPP

#include <stdint.h>
#include <string.h>
#include <algorithm>
#include <vector>

namespace MNN {

struct PaddedPlane {
    int64_t planeFloats = 0;  // floats of one padded plane, slack included
    int64_t rowStep = 0;      // floats between consecutive output rows' bases
    int rowStride = 0, rowsP = 0, colsP = 0, half = 0;
    int ih = 0, iw = 0, pt = 0, pl = 0, sw = 1;
    std::vector<int32_t> tapOff;

    /**
     * false (the caller's direct loop) when the horizontal stride is not 1 or 2 or the padded plane
     * would be over 4x the input plane plus 64K floats; lanes: vector width of the kernel (slack)
     */
    bool plan(int ihIn, int iwIn, int oh, int ow, int kh, int kw, int sh, int swIn, int dh, int dw, int padTop,
              int padLeft, int lanes) {
        if (swIn < 1 || swIn > 2) {
            return false;
        }
        ih = ihIn;
        iw = iwIn;
        pt = padTop;
        pl = padLeft;
        sw = swIn;
        // a plane that is mostly padding (huge pads or dilations around a small input) is not worth
        // its scratch: over 4x the input plus 64K floats the caller runs its direct loop instead.
        // That also bounds the taps (kh * kw <= rowsP * colsP) before tapOff is sized.
        const int64_t rows = (int64_t)(oh - 1) * sh + (int64_t)(kh - 1) * dh + 1;
        const int64_t cols = (int64_t)(ow - 1) * swIn + (int64_t)(kw - 1) * dw + 1;
        const int64_t stride = swIn == 1 ? cols + lanes : 2 * ((cols + 1) / 2 + lanes);
        const int64_t maxFloats = 4 * (int64_t)ihIn * iwIn + 65536;
        if (oh < 1 || ow < 1 || kh < 1 || kw < 1 || rows < 1 || cols < 1 || rows > maxFloats || stride > maxFloats ||
            rows * stride + lanes > maxFloats) {
            return false;
        }
        rowsP = (int)rows;
        colsP = (int)cols;
        half = swIn == 1 ? 0 : (int)(stride / 2);
        rowStride = (int)stride;
        rowStep = (int64_t)sh * rowStride;
        planeFloats = rows * stride + lanes;
        tapOff.resize((size_t)kh * kw);
        for (int ky = 0; ky < kh; ++ky) {
            for (int kx = 0; kx < kw; ++kx) {
                const int col = kx * dw;
                const int colOff = sw == 1 ? col : ((col & 1) ? half + (col >> 1) : (col >> 1));
                tapOff[(size_t)ky * kw + kx] = (int32_t)((int64_t)ky * dh * rowStride + colOff);
            }
        }
        return true;
    }

    /** fills P (planeFloats floats) from the ih x iw plane xp; pad: the value outside the input */
    void build(const float* xp, float* P, float pad) const {
        for (int r = 0; r < rowsP; ++r) {
            float* row = P + (int64_t)r * rowStride;
            const int ir = r - pt;
            if (ir < 0 || ir >= ih) {
                fill(row, rowStride, pad);
                continue;
            }
            const float* xr = xp + (int64_t)ir * iw;
            // padded columns [c0, c1) hold input
            const int c0 = std::min(std::max(0, pl), colsP);
            const int c1 = std::max(c0, std::min(colsP, pl + iw));
            if (sw == 1) {
                fill(row, c0, pad);
                copy(row + c0, xr + (c0 - pl), c1 - c0);
                fill(row + c1, rowStride - c1, pad);
            } else {
                // even padded columns c = 2j go to row[j], odd ones c = 2j + 1 to row[half + j]; both
                // are stride-2 reads of the input row (vectorisable), the rest is padding
                deinterleave(row, xr, c0, c1, pad);
                deinterleave(row + half, xr, c0, c1, pad, 1);
            }
        }
        fill(P + (int64_t)rowsP * rowStride, planeFloats - (int64_t)rowsP * rowStride, pad);
    }

private:
    /** dst[j] = padded column 2j + odd (input column 2j + odd - pl when inside [c0, c1)), j < half */
    void deinterleave(float* dst, const float* xr, int c0, int c1, float pad, int odd = 0) const {
        // j with c0 <= 2j + odd < c1
        const int j0 = std::min(half, (c0 - odd + 1) / 2 > 0 ? (c0 - odd + 1) / 2 : 0);
        const int j1 = std::max(j0, std::min(half, c1 - odd > 0 ? (c1 - odd + 1) / 2 : 0));
        fill(dst, j0, pad);
        const float* src = xr + odd - pl;
        for (int j = j0; j < j1; ++j) {
            dst[j] = src[2 * j];
        }
        fill(dst + j1, half - j1, pad);
    }
    // Rows are short (7 to 230 floats) and built once per plane row: blocks of four floats by
    // fixed-size copies the compiler inlines, instead of a libc call per pad or row segment.
    static void fill(float* p, int64_t n, float v) {
        const float block[4] = {v, v, v, v};
        int64_t i = 0;
        for (; i + 4 <= n; i += 4) {
            memcpy(p + i, block, sizeof(block));
        }
        for (; i < n; ++i) {
            p[i] = v;
        }
    }
    static void copy(float* dst, const float* src, int64_t n) {
        int64_t i = 0;
        for (; i + 4 <= n; i += 4) {
            memcpy(dst + i, src + i, 4 * sizeof(float));
        }
        for (; i < n; ++i) {
            dst[i] = src[i];
        }
    }
};

}  // namespace MNN
#endif
