// Nearest / bilinear / bicubic sampling of 8-bit images with clamp / zero / repeat borders.
#include "cv/ImageSampler.hpp"
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace MNN {
namespace CV {

namespace {
constexpr float kCubicA = -0.75f;
// Coordinates are clamped to this range before conversion to int (NaN goes far outside).
constexpr float kCoordLimit = 1.0e7f;

inline float safeCoord(float p) {
    if (!(p > -kCoordLimit)) {
        return -kCoordLimit;
    }
    return p < kCoordLimit ? p : kCoordLimit;
}

inline void cubicWeights(float t, float* w) {
    const float A = kCubicA;
    float t1      = t + 1.0f;
    float u       = 1.0f - t;
    w[0]          = ((A * t1 - 5.0f * A) * t1 + 8.0f * A) * t1 - 4.0f * A;
    w[1]          = ((A + 2.0f) * t - (A + 3.0f)) * t * t + 1.0f;
    w[2]          = ((A + 2.0f) * u - (A + 3.0f)) * u * u + 1.0f;
    w[3]          = 1.0f - w[0] - w[1] - w[2];
}
} // namespace

void ImageSampler::taps(float p, int size, int* idx, float* w) const {
    p = safeCoord(p);
    int first;
    if (mFilter == NEAREST) {
        first = (int)floorf(p + 0.5f);
        w[0]  = 1.0f;
    } else if (mFilter == BILINEAR) {
        float f = floorf(p);
        first   = (int)f;
        float t = p - f;
        w[0]    = 1.0f - t;
        w[1]    = t;
    } else {
        float f = floorf(p);
        first   = (int)f - 1;
        cubicWeights(p - f, w);
    }
    for (int k = 0; k < mTaps; ++k) {
        int i = first + k;
        if (i < 0 || i >= size) {
            switch (mWrap) {
                case CLAMP_TO_EDGE:
                    i = i < 0 ? 0 : size - 1;
                    break;
                case REPEAT:
                    i %= size;
                    if (i < 0) {
                        i += size;
                    }
                    break;
                default:
                    i    = -1;
                    w[k] = 0.0f;
                    break;
            }
        }
        idx[k] = i;
    }
}

bool ImageSampler::init(const SourceImage& src, const Matrix& m, Filter filter, Wrap wrap, uint8_t padding, int ow) {
    mSrc       = src;
    mMatrix    = m;
    mFilter    = filter;
    mWrap      = wrap;
    mPadding   = (float)padding;
    mOw        = ow;
    mTaps      = filter == NEAREST ? 1 : (filter == BILINEAR ? 2 : 4);
    mSeparable = m.isScaleTranslate();
    for (int s = 0; s < 4; ++s) {
        mCacheRow[s] = -1;
    }
    if (!mSeparable) {
        return true;
    }
    const int K = mTaps;
    mColIdx.assign((size_t)ow * K, 0);
    mColW.assign((size_t)ow * K, 0.0f);
    mColInside.assign((size_t)ow, 0.0f);
    mRowCache.assign((size_t)4 * ow * src.channels, 0.0f);
    const double sx = m.getScaleX(), tx = m.getTranslateX();
    for (int x = 0; x < ow; ++x) {
        int* idx = mColIdx.data() + (size_t)x * K;
        float* w = mColW.data() + (size_t)x * K;
        taps((float)(sx * x + tx), src.width, idx, w);
        float inside = 0.0f;
        for (int k = 0; k < K; ++k) {
            inside += w[k];
            idx[k] = idx[k] < 0 ? 0 : idx[k] * src.channels;
        }
        mColInside[x] = inside;
    }
    return true;
}

void ImageSampler::sampleRow(int y, float* out) {
    if (mSeparable) {
        sampleRowSeparable(y, out);
    } else {
        sampleRowGeneral(y, out);
    }
}

namespace {
// out[x * C + c] = sum_k w[x, k] * row[idx[x, k] + c]
template <int C, int K>
void horizontal(const uint8_t* row, const int* idx, const float* w, int ow, float* out) {
    for (int x = 0; x < ow; ++x) {
        const int* ix  = idx + x * K;
        const float* wx = w + x * K;
        float acc[C];
        for (int c = 0; c < C; ++c) {
            acc[c] = 0.0f;
        }
        for (int k = 0; k < K; ++k) {
            const uint8_t* p = row + ix[k];
            for (int c = 0; c < C; ++c) {
                acc[c] += wx[k] * (float)p[c];
            }
        }
        for (int c = 0; c < C; ++c) {
            out[x * C + c] = acc[c];
        }
    }
}

#if defined(__SSE2__)
// 4 channels: one pixel is one 32-bit load widened to 4 floats
template <int K>
void horizontal4(const uint8_t* row, const int* idx, const float* w, int ow, float* out) {
    const __m128i zero = _mm_setzero_si128();
    for (int x = 0; x < ow; ++x) {
        const int* ix   = idx + x * K;
        const float* wx = w + x * K;
        __m128 acc      = _mm_setzero_ps();
        for (int k = 0; k < K; ++k) {
            int32_t pixel;
            ::memcpy(&pixel, row + ix[k], 4);
            __m128i p = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(pixel), zero), zero);
            acc       = _mm_add_ps(acc, _mm_mul_ps(_mm_cvtepi32_ps(p), _mm_set1_ps(wx[k])));
        }
        _mm_storeu_ps(out + x * 4, acc);
    }
}
#endif

template <int K>
void horizontalK(int channels, const uint8_t* row, const int* idx, const float* w, int ow, float* out) {
    switch (channels) {
        case 1:
            horizontal<1, K>(row, idx, w, ow, out);
            break;
        case 2:
            horizontal<2, K>(row, idx, w, ow, out);
            break;
        case 3:
            horizontal<3, K>(row, idx, w, ow, out);
            break;
        default:
#if defined(__SSE2__)
            horizontal4<K>(row, idx, w, ow, out);
#else
            horizontal<4, K>(row, idx, w, ow, out);
#endif
            break;
    }
}
} // namespace

const float* ImageSampler::filteredRow(int sourceRow, int busy[4], int busyCount) {
    const size_t len = (size_t)mOw * mSrc.channels;
    for (int s = 0; s < 4; ++s) {
        if (mCacheRow[s] == sourceRow) {
            return mRowCache.data() + s * len;
        }
    }
    int slot = 0;
    for (int s = 0; s < 4; ++s) {
        bool used = false;
        for (int b = 0; b < busyCount; ++b) {
            used = used || busy[b] == mCacheRow[s];
        }
        if (!used) {
            slot = s;
            break;
        }
    }
    mCacheRow[slot] = sourceRow;
    float* out      = mRowCache.data() + slot * len;
    const uint8_t* row = mSrc.data + (size_t)sourceRow * mSrc.stride;
    switch (mTaps) {
        case 1:
            horizontalK<1>(mSrc.channels, row, mColIdx.data(), mColW.data(), mOw, out);
            break;
        case 2:
            horizontalK<2>(mSrc.channels, row, mColIdx.data(), mColW.data(), mOw, out);
            break;
        default:
            horizontalK<4>(mSrc.channels, row, mColIdx.data(), mColW.data(), mOw, out);
            break;
    }
    return out;
}

void ImageSampler::sampleRowSeparable(int y, float* out) {
    int ridx[4];
    float rw[4];
    taps((float)((double)mMatrix.getScaleY() * y + mMatrix.getTranslateY()), mSrc.height, ridx, rw);
    const int C   = mSrc.channels;
    const int len = mOw * C;
    float rowInside = 0.0f;
    int busy[4];
    int busyCount = 0;
    for (int k = 0; k < mTaps; ++k) {
        rowInside += rw[k];
        if (ridx[k] >= 0) {
            busy[busyCount++] = ridx[k];
        }
    }
    bool first = true;
    for (int k = 0; k < mTaps; ++k) {
        if (ridx[k] < 0 || rw[k] == 0.0f) {
            continue;
        }
        const float* h = filteredRow(ridx[k], busy, busyCount);
        const float w  = rw[k];
        if (first) {
            for (int i = 0; i < len; ++i) {
                out[i] = w * h[i];
            }
            first = false;
        } else {
            for (int i = 0; i < len; ++i) {
                out[i] += w * h[i];
            }
        }
    }
    if (first) {
        ::memset(out, 0, sizeof(float) * (size_t)len);
    }
    if (mWrap == ZERO) {
        // the outside taps read the padding value: add padding * (1 - inside weight)
        for (int x = 0; x < mOw; ++x) {
            float pad = mPadding * (1.0f - rowInside * mColInside[x]);
            if (pad != 0.0f) {
                for (int c = 0; c < C; ++c) {
                    out[x * C + c] += pad;
                }
            }
        }
    }
}

void ImageSampler::sampleRowGeneral(int y, float* out) {
    const Matrix& m = mMatrix;
    const bool persp = !m.isAffine();
    const int C      = mSrc.channels;
    const int K      = mTaps;
    const double bx = (double)m[Matrix::kMSkewX] * y + m[Matrix::kMTransX];
    const double by = (double)m[Matrix::kMScaleY] * y + m[Matrix::kMTransY];
    const double bw = (double)m[Matrix::kMPersp1] * y + m[Matrix::kMPersp2];
    for (int x = 0; x < mOw; ++x) {
        double px = m[Matrix::kMScaleX] * (double)x + bx;
        double py = m[Matrix::kMSkewY] * (double)x + by;
        if (persp) {
            double w = m[Matrix::kMPersp0] * (double)x + bw;
            if (w == 0.0) {
                px = py = -kCoordLimit;  // the point at infinity samples as far outside
            } else {
                px /= w;
                py /= w;
            }
        }
        int xi[4], yi[4];
        float xw[4], yw[4];
        taps((float)px, mSrc.width, xi, xw);
        taps((float)py, mSrc.height, yi, yw);
        float acc[4]  = {0.0f, 0.0f, 0.0f, 0.0f};
        float inside  = 0.0f;
        for (int j = 0; j < K; ++j) {
            if (yi[j] < 0 || yw[j] == 0.0f) {
                continue;
            }
            const uint8_t* row = mSrc.data + (size_t)yi[j] * mSrc.stride;
            for (int i = 0; i < K; ++i) {
                if (xi[i] < 0) {
                    continue;
                }
                float w = yw[j] * xw[i];
                inside += w;
                const uint8_t* p = row + xi[i] * C;
                for (int c = 0; c < C; ++c) {
                    acc[c] += w * (float)p[c];
                }
            }
        }
        float pad = mWrap == ZERO ? mPadding * (1.0f - inside) : 0.0f;
        for (int c = 0; c < C; ++c) {
            out[x * C + c] = acc[c] + pad;
        }
    }
}

} // namespace CV
} // namespace MNN
