// AVX-512 math shared by the AVX-512 files (Elementwise, PackedConv): included inside their own
// anonymous namespace, after <immintrin.h>, by files compiled with -mavx512f only.
/**
 * 16 sigmoids at once (AVX-512 tier): 1 / (1 + e), e = exp(-x) for x clamped to at most 88
 * (sigmoid(88) = 1; below -88, where e overflows, the result is 0 under a mask). exp by ewExp's
 * reduction (n = round(-x log2 e), r = -x - n ln 2 in two parts; here r' = -r is formed and the odd
 * coefficients change sign, so -x is never computed), n rounded by adding and subtracting 1.5 * 2^23
 * (two flexible operations where vrndscaleps is a multiply and a two-uop round on port 0), a
 * degree-5 fit of e^r on [-ln2/2, ln2/2] in one Horner chain (relative error 2.3e-7 in float;
 * coefficients computed for this kernel by iteratively reweighted least squares), vscalefps for the
 * 2^n scaling, then vrcp14ps and one Newton step (without it the error reaches 6e-5, and
 * efficientnet_b0's 3.5e-3 against PyTorch). NaN propagates (the clamp keeps its second operand,
 * x). 16 operations where the earlier form (exp(-|x|), then e / (1 + e) under a mask for negative x)
 * took 19, all on the two 512-bit ports: SiLU is a fifth of efficientnet_b0's time (every expanded
 * and depthwise output); the model -1.7% at one thread on the Xeon (two builds alternating in one
 * process, benchmark/ab/libs_ab.py).
 */
template <bool Fast>
static inline __m512 ewSigmoid16T(__m512 x) {
    // above 88 exp(-x) would be denormal (and inf would give NaN); below -88 the mask decides
    const __m512 xc = _mm512_min_ps(_mm512_set1_ps(88.0f), x);
    const __m512 magic = _mm512_set1_ps(12582912.0f);  // 1.5 * 2^23: adding it rounds to an integer
    const __m512 n = _mm512_sub_ps(_mm512_fmadd_ps(xc, _mm512_set1_ps(-1.44269504088896341f), magic), magic);
    __m512 r = _mm512_fmadd_ps(n, _mm512_set1_ps(0.693359375f), xc);  // r' = x + n ln 2 = -r
    r = _mm512_fmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
    __m512 p;
    if (Fast) {
        p = _mm512_set1_ps(4.1458600236e-2f);
        p = _mm512_fnmadd_ps(p, r, _mm512_set1_ps(1.6790908850e-1f));
        p = _mm512_fnmadd_ps(p, r, _mm512_set1_ps(5.0004358857e-1f));
        p = _mm512_fnmadd_ps(p, r, _mm512_set1_ps(9.9996340391e-1f));
        p = _mm512_fnmadd_ps(p, r, _mm512_set1_ps(9.9999926140e-1f));
    } else {
        p = _mm512_set1_ps(8.2976538688e-3f);
        p = _mm512_fnmadd_ps(p, r, _mm512_set1_ps(4.1915383190e-2f));
        p = _mm512_fnmadd_ps(p, r, _mm512_set1_ps(1.6667574644e-1f));
        p = _mm512_fnmadd_ps(p, r, _mm512_set1_ps(4.9998894334e-1f));
        p = _mm512_fnmadd_ps(p, r, _mm512_set1_ps(9.9999970198e-1f));
        p = _mm512_fnmadd_ps(p, r, _mm512_set1_ps(1.0000001192e+0f));
    }
    const __m512 d = _mm512_add_ps(_mm512_scalef_ps(p, n), _mm512_set1_ps(1.0f));
    const __m512 rc = _mm512_rcp14_ps(d);
    // below -88 (exp(-x) overflows: d = inf, rc = 0, the Newton step NaN): 0, NaN kept
    const __mmask16 live = _mm512_cmp_ps_mask(x, _mm512_set1_ps(-88.0f), _CMP_NLT_UQ);  // NaN too
    return _mm512_maskz_mul_ps(live, rc, _mm512_fnmadd_ps(d, rc, _mm512_set1_ps(2.0f)));
}
static inline __m512 ewSigmoid16(__m512 x) {
    return ewSigmoid16T<false>(x);
}
/**
 * SiLU's sigmoid below Precision_High (VecUnaryOp::SILU_FAST, the convolutions' fused SiLU): e^r by a
 * degree-4 fit (relative error 2.6e-6 of the sigmoid against 2.9e-7), one multiply-add fewer of 16.
 * efficientnet_b0 -1.2% at one thread (libs_ab, session 25); its error against PyTorch unchanged at
 * Precision_Normal (3.2e-4).
 */
static inline __m512 ewSigmoid16Fast(__m512 x) {
    return ewSigmoid16T<true>(x);
}

/** HardSwish of 16 values, the same formula as the unary kernel: x * clamp((x + 3) / 6, 0, 1) */
static inline __m512 ewHardSwish16(__m512 x) {
    __m512 v = _mm512_mul_ps(_mm512_add_ps(x, _mm512_set1_ps(3.0f)), _mm512_set1_ps(1.0f / 6.0f));
    v = _mm512_min_ps(_mm512_max_ps(v, _mm512_setzero_ps()), _mm512_set1_ps(1.0f));
    return _mm512_mul_ps(x, v);
}
