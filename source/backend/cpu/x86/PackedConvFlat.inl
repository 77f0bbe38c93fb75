// The flat case of the packed-convolution tiles (PackedConvTile), shared by the ISA files: one tap at
// offset 0 of a single-tap layout (1x1 / GEMM tiles, Winograd's products, the pointwise half of
// PointwiseDepthwise), positions 16 floats apart, float weights. Included inside each ISA file's
// anonymous namespace, after CPUCoreFunctions.hpp, so that every instantiation is compiled with
// that file's flags only.

/** tile t is the flat case (its weights may still be half: the caller checks wHalf) */
inline bool isFlatTile(const PackedConvTile* t) {
    return t->xPosStride == 16 && t->taps == 1 && t->tapsAll == 1 && t->tapOff[0] == 0 && t->tapIdx[0] == 0;
}

/**
 * step(x, w, i) for every input lane i of every K block of a flat tile whose input starts at x (t->x,
 * or a later run's: PackedConvTile::runs), x and w that block's input and weights (wBlock weight floats per block): the blocks are walked by pointer increments, without
 * the tap list, the lane count and the tile's fields read again per block (resnet50's 1x1 layers
 * -4..10%, resnet50 -4%, squeezenet / shufflenet / efficientnet -3..5%, mobilenet_v2 -2% with the
 * AVX2 tile on Zen 3; mobilenet_v2 / squeezenet / shufflenet -1..2% with the AVX-512 tile on an
 * Intel Xeon; per-op medians in one process). A whole block is a constant trip count unrolled by 4,
 * a last block of fewer lanes runs after the whole ones. PFX > 0: each whole block first prefetches
 * the PFX lines after its first PFX (the next tile's input of PFX positions, 16 floats apart).
 */
template <int PFX = 0, class Step>
inline __attribute__((always_inline)) void walkFlatK(const PackedConvTile* t, const float* x, int64_t wBlock,
                                                     Step&& step) {
    const float* xb = x;
    const float* wt = t->w;
    const int64_t xbs = t->xBlockStride;
    const int whole = t->kLast == 16 ? t->kBlocks : t->kBlocks - 1;
    for (int kb = 0; kb < whole; ++kb) {
#pragma GCC unroll 16
        for (int l = 0; l < PFX; ++l) {
            _mm_prefetch((const char*)(xb + (PFX + l) * 16), _MM_HINT_T0);
        }
#pragma GCC unroll 4
        for (int i = 0; i < 16; ++i) {
            step(xb, wt, i);
        }
        xb += xbs;
        wt += wBlock;
    }
    if (whole < t->kBlocks) {
        for (int i = 0; i < t->kLast; ++i) {
            step(xb, wt, i);
        }
    }
}
