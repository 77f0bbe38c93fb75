// AVX2 math shared by the AVX2 files (Elementwise, PackedConv): included inside their own anonymous
// namespace, after <immintrin.h>, by files compiled with -mavx2 -mfma only.
/**
 * 8 sigmoids at once (AVX2 tier), the method of ewSigmoid16 (Avx512Math.inl) without AVX-512's
 * vscalefps / vrcp14ps: e = exp(-|x|) by ewExp's reduction (n = round(v log2 e), r = v - n ln 2 in
 * two parts) and the same degree-5 fit of e^r; 2^n (n in [-150, 0]) as 2^(n + 64), a normal float
 * made from n's integer bits, times 2^-64, so that denormal results are rounded once, as in ewExp
 * (n and its bits from one fused multiply-add with a magic constant, the 2^-64 folded into the fit's
 * coefficients); 1 / (1 + e), or e / (1 + e) for negative x, by one division (sigmoid 640-770 ->
 * 540-620 ps per element, SiLU 690-840 -> 560-660 in elementwise_bench on Zen 3 against vrcpps and
 * a Newton step, and exact to the division's rounding). NaN propagates: vmaxps returns its second
 * operand (NaN) and every later step keeps it.
 */
static inline __m256 ewSigmoid8(__m256 x) {
    __m256 v = _mm256_or_ps(x, _mm256_set1_ps(-0.0f));  // -|x|: the sign bit set
    v = _mm256_max_ps(_mm256_set1_ps(-104.0f), v);
    // t = v log2 e + 1.5 * 2^23 + 191 rounds v log2 e to the nearest integer n (an ulp of t is 1), and
    // t's low mantissa bits are then n + 191 (in [41, 191]): shifted into the exponent field they give
    // 2^(n + 64), a normal float
    const __m256 magic = _mm256_set1_ps(12582912.0f + 191.0f);
    const __m256 t = _mm256_fmadd_ps(v, _mm256_set1_ps(1.44269504088896341f), magic);
    const __m256 n = _mm256_sub_ps(t, magic);
    __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), v);
    r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
    // the fit's coefficients times 2^-64 (exact: every value of the evaluation stays a normal float,
    // so each rounding is the unscaled one's times 2^-64)
    __m256 p = _mm256_set1_ps(8.2976538688e-3f * 5.42101086242752217e-20f);
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1915383190e-2f * 5.42101086242752217e-20f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6667574644e-1f * 5.42101086242752217e-20f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.9998894334e-1f * 5.42101086242752217e-20f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(9.9999970198e-1f * 5.42101086242752217e-20f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0000001192e+0f * 5.42101086242752217e-20f));
    const __m256 s = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(t), 23));
    // (p 2^-64) 2^(n + 64), rounded once, denormal results too
    const __m256 e = _mm256_mul_ps(p, s);
    const __m256 d = _mm256_add_ps(e, _mm256_set1_ps(1.0f));
    // 1 / (1 + e) or e / (1 + e): one correctly rounded division (its own unit on Zen 3, beside the
    // multiply-add pipes the rest of the function and the convolution tiles use)
    const __m256 neg = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_LT_OQ);
    return _mm256_div_ps(_mm256_blendv_ps(_mm256_set1_ps(1.0f), e, neg), d);
}

/**
 * SiLU of 8 values as x / (1 + exp(-x)): one division, no sign select and no multiply by x (13
 * vector operations against ewSigmoid8's 16 and a multiply). -x is clamped to [-87.3, 88.7]:
 * exp(-x) = 2^n p(r) (ewSigmoid8's reduction and fit) with n in [-126, 128]: a normal float, or at
 * n = 128 infinity (its exponent field all ones), so that x < -88.4 gives x / inf = -0 (PyTorch's
 * float SiLU, the same formula, gives -0 below -88.7; the exact values there are below 4e-37) and
 * x > 87.3 gives x / (1 + tiny) = x. NaN propagates through the division (x is not clamped). In the
 * tiles' stores and the unary kernel: SiLU -15..28% per element in elementwise_bench, efficientnet_b0's
 * PointwiseDepthwise ops -3.5% (per-op sums, alternating builds, Zen 3); the division was not the
 * bottleneck (vrcpps and a Newton step instead: no faster).
 */
static inline __m256 ewSilu8(__m256 x) {
    const __m256 xc = _mm256_max_ps(_mm256_set1_ps(-88.7f), _mm256_min_ps(x, _mm256_set1_ps(87.3f)));
    // t = -xc log2 e + 1.5 * 2^23 + 127: an ulp of t is 1, its low mantissa bits n + 127
    const __m256 magic = _mm256_set1_ps(12582912.0f + 127.0f);
    const __m256 t = _mm256_fnmadd_ps(xc, _mm256_set1_ps(1.44269504088896341f), magic);
    const __m256 n = _mm256_sub_ps(t, magic);
    // q = xc + n ln 2 (in two parts) = -r, r = -xc - n ln 2: the fit p(r) with its odd coefficients negated
    __m256 q = _mm256_fmadd_ps(n, _mm256_set1_ps(0.693359375f), xc);
    q = _mm256_fmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), q);
    __m256 p = _mm256_set1_ps(-8.2976538688e-3f);
    p = _mm256_fmadd_ps(p, q, _mm256_set1_ps(4.1915383190e-2f));
    p = _mm256_fmadd_ps(p, q, _mm256_set1_ps(-1.6667574644e-1f));
    p = _mm256_fmadd_ps(p, q, _mm256_set1_ps(4.9998894334e-1f));
    p = _mm256_fmadd_ps(p, q, _mm256_set1_ps(-9.9999970198e-1f));
    p = _mm256_fmadd_ps(p, q, _mm256_set1_ps(1.0000001192e+0f));
    const __m256 s = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(t), 23));
    return _mm256_div_ps(x, _mm256_fmadd_ps(p, s, _mm256_set1_ps(1.0f)));
}

/** HardSwish of 8 values, the same formula as the unary kernel: x * clamp((x + 3) / 6, 0, 1) */
static inline __m256 ewHardSwish8(__m256 x) {
    __m256 v = _mm256_mul_ps(_mm256_add_ps(x, _mm256_set1_ps(3.0f)), _mm256_set1_ps(1.0f / 6.0f));
    v = _mm256_min_ps(_mm256_max_ps(v, _mm256_setzero_ps()), _mm256_set1_ps(1.0f));
    return _mm256_mul_ps(x, v);
}
