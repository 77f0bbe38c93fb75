#include "CPUCoreFunctions.hpp"
#include <algorithm>
#include <atomic>
#include <mutex>

namespace MNN {

void sgemm_4x8__scalar(int64_t k, const float* a, const float* b, float* c, int64_t ldc, const float* bias,
                       int accumulate, const GemmPost* post) {
    float acc[4][8];
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 8; ++j) {
            acc[i][j] = accumulate ? c[i * ldc + j] : bias[i];
        }
    }
    for (int64_t p = 0; p < k; ++p) {
        const float* ap = a + p * 4;
        const float* bp = b + p * 8;
        for (int i = 0; i < 4; ++i) {
            for (int j = 0; j < 8; ++j) {
                acc[i][j] += ap[i] * bp[j];
            }
        }
    }
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 8; ++j) {
            float v = acc[i][j];
            if (post) {
                if (post->act == 1) {
                    v = v > 0.0f ? v : 0.0f;
                } else if (post->act == 2) {
                    v = std::min(std::max(v, post->lo), post->hi);
                }
            }
            c[i * ldc + j] = v;
        }
    }
}

void pconv_4x64__scalar(const PackedConvTile* t) {
    if (t->runs > 1) {
        forEachTileRun(t, pconv_4x64__scalar);
        return;
    }
    // plain loops over any Q (the table allows P <= 4, Q <= 4)
    float acc[4][16];
    for (int q = 0; q < t->Q; ++q) {
        float* yq = t->y + q * t->yBlockStride;
        for (int p = 0; p < t->P; ++p) {
            for (int l = 0; l < 16; ++l) {
                acc[p][l] = t->accumulate ? yq[p * 16 + l] : t->bias[q * 16 + l];
            }
        }
        const int64_t wRow = (int64_t)t->Q * 16;
        for (int kb = 0; kb < t->kBlocks; ++kb) {
            const int lanes = kb + 1 == t->kBlocks ? t->kLast : 16;
            const float* xb = t->x + kb * t->xBlockStride;
            for (int tp = 0; tp < t->taps; ++tp) {
                const float* xt = xb + t->tapOff[tp];
                const float* wt = t->w + ((int64_t)kb * t->tapsAll + t->tapIdx[tp]) * 16 * wRow + q * 16;
                for (int i = 0; i < lanes; ++i) {
                    const float* wi = wt + i * wRow;
                    for (int p = 0; p < t->P; ++p) {
                        const float xv = xt[p * t->xPosStride + i];
                        for (int l = 0; l < 16; ++l) {
                            acc[p][l] += xv * wi[l];
                        }
                    }
                }
            }
        }
        const float* rq = t->res ? t->res + q * t->yBlockStride : nullptr;
        for (int p = 0; p < t->P; ++p) {
            for (int l = 0; l < 16; ++l) {
                float v = acc[p][l] + (rq ? rq[p * 16 + l] : 0.0f);
                if (t->post && t->post->act == 1) {
                    v = v > 0.0f ? v : 0.0f;
                } else if (t->post && t->post->act == 2) {
                    v = std::min(std::max(v, t->post->lo), t->post->hi);
                }
                yq[p * 16 + l] = v;
            }
        }
        if (t->post && t->post->act == 3) {
            t->post->unary(t->post->unaryOp, yq, yq, (int64_t)t->P * 16, t->post->lo, t->post->hi);
        }
    }
}

int64_t dwChannelScratchFloats(const DwChannelGeom& g, int lanes) {
    const int64_t rowsP = (int64_t)(g.oh - 1) * g.sh + (int64_t)(g.kh - 1) * g.dh + 1;
    const int64_t colsP = (int64_t)(g.ow - 1) * g.sw + (int64_t)(g.kw - 1) * g.dw + 1;
    return (rowsP * colsP + (int64_t)g.oh * g.ow) * lanes;
}

static CPUCoreFunctions gTables[kCPUTierCount];
static std::atomic<int> gOverride{-1};

// normalisation and resize rows of f.tier
static void fillNormResize(CPUCoreFunctions& f) {
    if (f.tier == CPUTier::SCALAR) {
        f.layerNormRow = layernorm_row__scalar;
        f.resizeRowH = resize_row_h__scalar;
        f.resizeBlendV = resize_blend_v__scalar;
        f.normName = "layernorm__scalar";
        f.resizeName = "resize__scalar";
        return;
    }
#if defined(__x86_64__) || defined(_M_X64)
    if (f.tier == CPUTier::SSE41) {
        f.layerNormRow = layernorm_row__sse41;
        f.resizeRowH = resize_row_h__sse41;
        f.resizeBlendV = resize_blend_v__sse41;
        f.normName = "layernorm__sse41";
        f.resizeName = "resize__sse41";
    } else if (f.tier == CPUTier::AVX2) {
        f.layerNormRow = layernorm_row__avx2;
        f.resizeRowH = resize_row_h__avx2;
        f.resizeBlendV = resize_blend_v__avx2;
        f.normName = "layernorm__avx2";
        f.resizeName = "resize__avx2";
    } else if (f.tier == CPUTier::AVX512) {
        f.layerNormRow = layernorm_row__avx512;
        f.resizeRowH = resize_row_h__avx512;
        f.resizeBlendV = resize_blend_v__avx512;
        f.normName = "layernorm__avx512";
        f.resizeName = "resize__avx512";
    }
#endif
}

static void fillTables() {
    for (int t = 0; t < kCPUTierCount; ++t) {
        auto& f = gTables[t];
        f.tier = CPUTier::SCALAR;
        f.sgemmName = "sgemm_4x8__scalar";
        f.mr = 4;
        f.nr = 8;
        f.sgemm = sgemm_4x8__scalar;
        f.unaryF32 = unary_f32__scalar;
        f.binaryF32 = binary_f32__scalar;
        f.dwconvRows = dwconv_rows__scalar;
        f.dwconvName = "dwconv_rows__scalar";
        f.dwLanes = dwconv_lanes__scalar();
        f.dwconvChannels = dwconv_channels__scalar;
        f.planeSum = plane_sum__scalar;
        f.poolRows = pool_rows__scalar;
        f.winoInput = wino_input__scalar;
        f.winoOutput = wino_output__scalar;
        f.winoName = "wino__scalar";
        f.packedConv = pconv_4x64__scalar;
        f.packedConvName = "pconv_4x64__scalar";
        f.pcPMax = 4;
        f.pcQMax = 4;
        f.pwinoInput = pwino_input__scalar;
        f.pwinoOutput = pwino_output__scalar;
        f.pwinoInput1d = pwino_input1d__scalar;
        f.pwinoOutput1d = pwino_output1d__scalar;
        f.pwinoName = "pwino__scalar";
        f.packedDw = dwpack__scalar;
        f.packedDwName = "dwpack__scalar";
        f.packedPool = poolpack__scalar;
        f.packedPoolName = "poolpack__scalar";
        f.packedSum = packsum__scalar;
        f.packedGather = pgather__scalar;
        f.packedGatherName = "pgather__scalar";
        fillNormResize(f);
    }
#if defined(__x86_64__) || defined(_M_X64)
    const CPUTier best = cpuFeatures().best;
    for (int t = 1; t < kCPUTierCount && t <= (int)best; ++t) {
        auto& f = gTables[t];
        f.tier = (CPUTier)t;
        fillNormResize(f);
        if (t == (int)CPUTier::SSE41) {
            f.unaryF32 = unary_f32__sse41;
            f.binaryF32 = binary_f32__sse41;
            f.dwconvRows = dwconv_rows__sse41;
            f.dwconvName = "dwconv_rows__sse41";
            f.dwLanes = dwconv_lanes__sse41();
            f.dwconvChannels = dwconv_channels__sse41;
            f.planeSum = plane_sum__sse41;
            f.poolRows = pool_rows__sse41;
            f.winoInput = wino_input__sse41;
            f.winoOutput = wino_output__sse41;
            f.winoName = "wino__sse41";
            f.pwinoInput = pwino_input__sse41;
            f.pwinoOutput = pwino_output__sse41;
            f.pwinoInput1d = pwino_input1d__sse41;
            f.pwinoOutput1d = pwino_output1d__sse41;
            f.pwinoName = "pwino__sse41";
            f.sgemmName = "sgemm_4x8__sse41";
            f.mr = 4;
            f.nr = 8;
            f.sgemm = sgemm_4x8__sse41;
            f.packedConv = pconv_3x16__sse41;
            f.packedConvName = "pconv_3x16__sse41";
            f.pcPMax = 3;
            f.pcQMax = 1;
            f.packedDw = dwpack__sse41;
            f.packedDwName = "dwpack__sse41";
            f.packedPool = poolpack__sse41;
            f.packedPoolName = "poolpack__sse41";
            f.packedSum = packsum__sse41;
        } else if (t == (int)CPUTier::AVX2) {
            f.unaryF32 = unary_f32__avx2;
            f.binaryF32 = binary_f32__avx2;
            f.dwconvRows = dwconv_rows__avx2;
            f.dwconvName = "dwconv_rows__avx2";
            f.dwLanes = dwconv_lanes__avx2();
            f.dwconvChannels = dwconv_channels__avx2;
            f.planeSum = plane_sum__avx2;
            f.poolRows = pool_rows__avx2;
            f.winoInput = wino_input__avx2;
            f.winoOutput = wino_output__avx2;
            f.winoName = "wino__avx2";
            f.pwinoInput = pwino_input__avx2;
            f.pwinoOutput = pwino_output__avx2;
            f.pwinoInput1d = pwino_input1d__avx2;
            f.pwinoOutput1d = pwino_output1d__avx2;
            f.pwinoName = "pwino__avx2";
            f.sgemmName = "sgemm_4x24__avx2";
            f.mr = 4;
            f.nr = 24;
            f.sgemm = sgemm_4x24__avx2;
            f.packedConv = pconv_6x16__avx2;
            f.packedConvName = "pconv_6x16__avx2";
            f.pcPMax = 6;
            f.pcQMax = 1;
            f.pcPMaxHalf = 12;
            f.pcHalfMaxP = 4;
            f.pcHalfTileP = 6;
            f.pcKSlices = false;
            f.pcKSliceSmall = false;
            f.pwHalfF4 = true;
            // benchmark/ab/fit_winograd_cost.py on Zen 3 (the 3x3 layers of resnet18 / 50,
            // inception_v3 and squeezenet, each timed as F(2), F(4), F(6) and direct in one process):
            // the mean of three fits after the transforms took compile-time matrices (2026-11-26,
            // median errors 6-9%; transform 2.1-3.4, was 6.1 with the per-coefficient branches); the
            // direct kernel's weight term absorbs its slow 7x7 / 8x8 layers (1.4x the time per
            // multiply-add of the large planes)
            f.pw3x3 = {3.0, 10.8, 1.07, 21.0};
            f.packedDw = dwpack__avx2;
            f.packedDwName = "dwpack__avx2";
            f.packedPool = poolpack__avx2;
            f.packedPoolName = "poolpack__avx2";
            f.packedSum = packsum__avx2;
            f.packedGather = pgather__avx2;
            f.packedGatherName = "pgather__avx2";
        } else {
            f.unaryF32 = unary_f32__avx512;
            f.binaryF32 = binary_f32__avx512;
            f.dwconvRows = dwconv_rows__avx512;
            f.dwconvName = "dwconv_rows__avx512";
            f.dwLanes = dwconv_lanes__avx512();
            f.dwconvChannels = dwconv_channels__avx512;
            f.planeSum = plane_sum__avx512;
            f.poolRows = pool_rows__avx512;
            f.winoInput = wino_input__avx512;
            f.winoOutput = wino_output__avx512;
            f.winoName = "wino__avx512";
            f.pwinoInput = pwino_input__avx512;
            f.pwinoOutput = pwino_output__avx512;
            f.pwinoInput1d = pwino_input1d__avx512;
            f.pwinoOutput1d = pwino_output1d__avx512;
            f.pwinoName = "pwino__avx512";
            f.sgemmName = "sgemm_8x32__avx512";
            f.mr = 8;
            f.nr = 32;
            f.sgemm = sgemm_8x32__avx512;
            f.packedConv = pconv_14x32__avx512;
            f.packedConvName = "pconv_14x32__avx512";
            f.pcPMax = 14;
            f.pcQMax = 2;
            f.pcHalfMaxP = 4;
            f.pcHalfTileP = 14;
            f.pcWideP = 16;
            f.packedDw = dwpack__avx512;
            f.packedDwName = "dwpack__avx512";
            f.packedPool = poolpack__avx512;
            f.packedPoolName = "poolpack__avx512";
            f.packedSum = packsum__avx512;
            f.packedGather = pgather__avx512;
            f.packedGatherName = "pgather__avx512";
        }
    }
#endif
}

const CPUCoreFunctions& cpuCoreFunctionsFor(CPUTier t) {
    static std::once_flag once;
    std::call_once(once, fillTables);
    int i = std::min((int)t, (int)cpuFeatures().best);
    i = std::max(i, 0);
    return gTables[i];
}

const CPUCoreFunctions& cpuCoreFunctions() {
    int o = gOverride.load(std::memory_order_relaxed);
    if (o >= 0) {
        return cpuCoreFunctionsFor((CPUTier)o);
    }
    return cpuCoreFunctionsFor(cpuTier());
}

void cpuSetTierOverride(int tier) {
    gOverride.store(tier < 0 ? -1 : std::min(tier, kCPUTierCount - 1), std::memory_order_relaxed);
}

} // namespace MNN
