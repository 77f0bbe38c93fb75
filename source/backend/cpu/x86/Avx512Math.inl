// AVX-512 math shared by the AVX-512 files (Elementwise, PackedConv): included inside their own
// anonymous namespace, after <immintrin.h>, by files compiled with -mavx512f only.
/**
 * 16 sigmoids at once (AVX-512 tier): e = exp(-|x|) by the same reduction and polynomial as ewExp
 * with vscalefps for the 2^n scaling (exact into the denormal range), 1 / (1 + e) by vrcp14ps and
 * one Newton step (1 + e is in [1, 2]), e / (1 + e) for negative x. NaN propagates (the clamp keeps
 * its second operand, NaN); within a few float ulp of ewSigmoid.
 */
static inline __m512 ewSigmoid16(__m512 x) {
    const __m512 zero = _mm512_setzero_ps();
    __m512 v = _mm512_sub_ps(zero, _mm512_abs_ps(x));
    v = _mm512_max_ps(_mm512_set1_ps(-104.0f), v);
    const __m512 n =
        _mm512_roundscale_ps(_mm512_mul_ps(v, _mm512_set1_ps(1.44269504088896341f)), _MM_FROUND_TO_NEAREST_INT);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), v);
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
    __m512 p = _mm512_set1_ps(1.9875691500e-4f);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
    p = _mm512_fmadd_ps(_mm512_mul_ps(p, r), r, _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
    const __m512 e = _mm512_scalef_ps(p, n);
    const __m512 d = _mm512_add_ps(e, _mm512_set1_ps(1.0f));
    __m512 rc = _mm512_rcp14_ps(d);
    rc = _mm512_mul_ps(rc, _mm512_fnmadd_ps(d, rc, _mm512_set1_ps(2.0f)));
    const __mmask16 neg = _mm512_cmp_ps_mask(x, zero, _CMP_LT_OQ);
    return _mm512_mask_mul_ps(rc, neg, rc, e);
}

/** HardSwish of 16 values, the same formula as the unary kernel: x * clamp((x + 3) / 6, 0, 1) */
static inline __m512 ewHardSwish16(__m512 x) {
    __m512 v = _mm512_mul_ps(_mm512_add_ps(x, _mm512_set1_ps(3.0f)), _mm512_set1_ps(1.0f / 6.0f));
    v = _mm512_min_ps(_mm512_max_ps(v, _mm512_setzero_ps()), _mm512_set1_ps(1.0f));
    return _mm512_mul_ps(x, v);
}
