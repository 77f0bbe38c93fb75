// AVX-512 math shared by the AVX-512 files (Elementwise, PackedConv): included inside their own
// anonymous namespace, after <immintrin.h>, by files compiled with -mavx512f only.
/**
 * 16 sigmoids at once (AVX-512 tier): e = exp(-|x|) by ewExp's reduction (n = round(v log2 e),
 * r = v - n ln 2 in two parts) and a degree-5 fit of e^r on [-ln2/2, ln2/2] in one Horner chain
 * (relative error 2.3e-7 in float; coefficients computed for this kernel by iteratively reweighted
 * least squares), vscalefps for the 2^n scaling (exact into the denormal range), 1 / (1 + e) by
 * vrcp14ps and one Newton step (1 + e is in [1, 2]), e / (1 + e) for negative x. NaN propagates
 * (the clamp keeps its second operand, NaN); within a few float ulp of ewSigmoid. 18 instructions
 * (ewExp's Taylor tail took 22: SiLU layers spend as much here as in the pointwise GEMM before them).
 */
static inline __m512 ewSigmoid16(__m512 x) {
    // -|x|: the sign bit set
    __m512 v = _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(x), _mm512_set1_epi32(INT32_MIN)));
    v = _mm512_max_ps(_mm512_set1_ps(-104.0f), v);
    const __m512 n =
        _mm512_roundscale_ps(_mm512_mul_ps(v, _mm512_set1_ps(1.44269504088896341f)), _MM_FROUND_TO_NEAREST_INT);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), v);
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
    __m512 p = _mm512_set1_ps(8.2976538688e-3f);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1915383190e-2f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6667574644e-1f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.9998894334e-1f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(9.9999970198e-1f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0000001192e+0f));
    const __m512 e = _mm512_scalef_ps(p, n);
    const __m512 d = _mm512_add_ps(e, _mm512_set1_ps(1.0f));
    __m512 rc = _mm512_rcp14_ps(d);
    rc = _mm512_mul_ps(rc, _mm512_fnmadd_ps(d, rc, _mm512_set1_ps(2.0f)));
    const __mmask16 neg = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LT_OQ);
    return _mm512_mask_mul_ps(rc, neg, rc, e);
}

/** HardSwish of 16 values, the same formula as the unary kernel: x * clamp((x + 3) / 6, 0, 1) */
static inline __m512 ewHardSwish16(__m512 x) {
    __m512 v = _mm512_mul_ps(_mm512_add_ps(x, _mm512_set1_ps(3.0f)), _mm512_set1_ps(1.0f / 6.0f));
    v = _mm512_min_ps(_mm512_max_ps(v, _mm512_setzero_ps()), _mm512_set1_ps(1.0f));
    return _mm512_mul_ps(x, v);
}
