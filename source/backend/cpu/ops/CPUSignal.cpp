// Reference signal ops, computed in double:
// - Window: y[n] = a0 - a1 cos(2 pi n / M) + a2 cos(4 pi n / M), M = size (periodic) or size - 1
//   (symmetric; a symmetric window of size 1 is [1]); Hann a = (0.5, 0.5, 0), Hamming
//   (25/46, 21/46, 0), Blackman (0.42, 0.5, 0.08).
// - DFT: X[k] = sum_j x[j] e^(-2 pi i j k / L) over the first min(n, L) samples (zero padding
//   beyond n); inverse uses e^(+...) and divides by L; onesided keeps k <= L / 2.
// - STFT: the DFT of length L of each frame signal[f * step + j] * window[j], j < L.
// - MelWeightMatrix: triangular filters between the bins of num_mel_bins + 2 points evenly spaced
//   in mel (2595 log10(1 + f / 700)) from lower to upper edge, as ONNX's reference computes them.
// Twiddle tables and line buffers are sized at onResize; onExecute allocates nothing.
#include <math.h>
#include "backend/cpu/CPUOpUtils.hpp"
#include "shape/ShapeUtils.hpp"

namespace MNN {
namespace {
const double kTwoPi = 6.283185307179586476925;

/** one DFT of length L: twiddles for L, a line buffer of L complex values */
class DftPlan {
public:
    void reserve(int64_t maxLength) {
        mCos.resize((size_t)maxLength);
        mSin.resize((size_t)maxLength);
        mLine.resize((size_t)maxLength * 2);
        mLength = 0;
    }
    void prepare(int64_t length) {
        if (length == mLength) {
            return;
        }
        mLength = length;
        for (int64_t m = 0; m < length; ++m) {
            mCos[m] = cos(kTwoPi * (double)m / (double)length);
            mSin[m] = sin(kTwoPi * (double)m / (double)length);
        }
    }
    /** the line buffer: L complex values (re, im), filled by the caller (zeros past the signal) */
    double* line() {
        return mLine.data();
    }
    /** X[k] for k < bins from the line (only its first `used` values may be non-zero) */
    template <typename T>
    void run(int64_t used, int64_t bins, bool inverse, T* out, int64_t outStride) const {
        const int64_t L = mLength;
        const double* x = mLine.data();
        const double sign = inverse ? 1.0 : -1.0;
        const double scale = inverse ? 1.0 / (double)L : 1.0;
        for (int64_t k = 0; k < bins; ++k) {
            double re = 0.0, im = 0.0;
            int64_t m = 0;  // (j * k) mod L
            for (int64_t j = 0; j < used; ++j) {
                const double c = mCos[m], s = sign * mSin[m];
                re += x[2 * j] * c - x[2 * j + 1] * s;
                im += x[2 * j] * s + x[2 * j + 1] * c;
                m += k;
                if (m >= L) {
                    m %= L;
                }
            }
            out[k * outStride] = (T)(re * scale);
            out[k * outStride + 1] = (T)(im * scale);
        }
    }

private:
    std::vector<double> mCos, mSin, mLine;
    int64_t mLength = 0;
};

int64_t maxLengthFor(int64_t bins, bool onesided) {
    return onesided ? 2 * bins : bins;
}
}  // namespace

class CPUWindow : public Execution {
public:
    CPUWindow(Backend* b, Schema::WindowType type, bool periodic) : Execution(b), mType(type), mPeriodic(periodic) {}
    ErrorCode onExecute(const std::vector<Tensor*>&, const std::vector<Tensor*>& outputs) override {
        Tensor* y = outputs[0];
        const int64_t size = y->length(0);
        double a0 = 0.5, a1 = 0.5, a2 = 0.0;
        if (mType == Schema::WindowType::HAMMING) {
            a0 = 25.0 / 46.0;
            a1 = 21.0 / 46.0;
        } else if (mType == Schema::WindowType::BLACKMAN) {
            a0 = 0.42;
            a1 = 0.5;
            a2 = 0.08;
        }
        const int64_t m = mPeriodic ? size : size - 1;
        for (int64_t n = 0; n < size; ++n) {
            double v = 1.0;
            if (m > 0) {
                const double t = kTwoPi * (double)n / (double)m;
                v = a0 - a1 * cos(t) + a2 * cos(2.0 * t);
            }
            CPUUtils::writeFromDouble(y, n, v);
        }
        return NO_ERROR;
    }

private:
    Schema::WindowType mType;
    bool mPeriodic;
};

class CPUDFT : public Execution {
public:
    CPUDFT(Backend* b, int axis, bool inverse, bool onesided)
        : Execution(b), mAxis(axis), mInverse(inverse), mOnesided(onesided) {}
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* x = inputs[0];
        const int rank = x->dimensions();
        const int axis = ShapeUtils::normalizeAxis(mAxis, rank);
        if (axis < 0 || axis >= rank - 1) {
            return error(INVALID_VALUE, "DFT: axis %d is out of range for rank %d", mAxis, rank);
        }
        mOuter = 1;
        mInner = 1;
        for (int i = 0; i < axis; ++i) {
            mOuter *= x->length(i);
        }
        for (int i = axis + 1; i < rank - 1; ++i) {
            mInner *= x->length(i);
        }
        mN = x->length(axis);
        mComplex = x->length(rank - 1);
        mBins = outputs[0]->length(axis);
        mPlan.reserve(maxLengthFor(mBins, mOnesided));
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const int64_t L = (inputs.size() > 1 && inputs[1]) ? ShapeUtils::readInt(inputs[1], 0) : mN;
        mPlan.prepare(L);
        if (inputs[0]->getType().bits == 64) {
            run<double>(inputs[0], outputs[0], L);
        } else {
            run<float>(inputs[0], outputs[0], L);
        }
        return NO_ERROR;
    }

private:
    template <typename T>
    void run(const Tensor* input, Tensor* output, int64_t L) {
        const T* x = input->host<T>();
        T* y = output->host<T>();
        const int64_t n = mN, inner = mInner, c = mComplex, bins = mBins;
        const int64_t used = n < L ? n : L;
        double* line = mPlan.line();
        for (int64_t o = 0; o < mOuter; ++o) {
            for (int64_t i = 0; i < inner; ++i) {
                for (int64_t j = 0; j < used; ++j) {
                    const T* v = x + ((o * n + j) * inner + i) * c;
                    line[2 * j] = (double)v[0];
                    line[2 * j + 1] = c == 2 ? (double)v[1] : 0.0;
                }
                mPlan.run(used, bins, mInverse, y + (o * bins * inner + i) * 2, inner * 2);
            }
        }
    }

    int mAxis;
    bool mInverse, mOnesided;
    int64_t mOuter = 1, mInner = 1, mN = 0, mComplex = 1, mBins = 0;
    DftPlan mPlan;
};

class CPUSTFT : public Execution {
public:
    CPUSTFT(Backend* b, bool onesided) : Execution(b), mOnesided(onesided) {}
    ErrorCode onResize(const std::vector<Tensor*>&, const std::vector<Tensor*>& outputs) override {
        mPlan.reserve(maxLengthFor(outputs[0]->length(2), mOnesided));
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* window = (inputs.size() > 2) ? inputs[2] : nullptr;
        int64_t L = 0;
        if (window) {
            L = window->length(0);
        } else {
            L = ShapeUtils::readInt(inputs[3], 0);
        }
        const int64_t step = ShapeUtils::readInt(inputs[1], 0);
        mPlan.prepare(L);
        if (inputs[0]->getType().bits == 64) {
            run<double>(inputs[0], window, outputs[0], L, step);
        } else {
            run<float>(inputs[0], window, outputs[0], L, step);
        }
        return NO_ERROR;
    }

private:
    template <typename T>
    void run(const Tensor* signal, const Tensor* window, Tensor* output, int64_t L, int64_t step) {
        const T* x = signal->host<T>();
        const T* w = window ? window->host<T>() : nullptr;
        T* y = output->host<T>();
        const int64_t batch = signal->length(0), len = signal->length(1), c = signal->length(2);
        const int64_t frames = output->length(1), bins = output->length(2);
        double* line = mPlan.line();
        for (int64_t b = 0; b < batch; ++b) {
            for (int64_t f = 0; f < frames; ++f) {
                const T* frame = x + (b * len + f * step) * c;
                for (int64_t j = 0; j < L; ++j) {
                    const double g = w ? (double)w[j] : 1.0;
                    line[2 * j] = (double)frame[j * c] * g;
                    line[2 * j + 1] = c == 2 ? (double)frame[j * c + 1] * g : 0.0;
                }
                mPlan.run(L, bins, false, y + ((b * frames + f) * bins) * 2, 2);
            }
        }
    }

    bool mOnesided;
    DftPlan mPlan;
};

class CPUMelWeightMatrix : public Execution {
public:
    explicit CPUMelWeightMatrix(Backend* b) : Execution(b) {}
    ErrorCode onResize(const std::vector<Tensor*>&, const std::vector<Tensor*>& outputs) override {
        mBins.resize((size_t)outputs[0]->length(1) + 2);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        Tensor* y = outputs[0];
        const int64_t rows = y->length(0), mels = y->length(1);
        const double dft = (double)ShapeUtils::readInt(inputs[1], 0);
        const double rate = (double)ShapeUtils::readInt(inputs[2], 0);
        const double lowMel = 2595.0 * log10(1.0 + (double)ShapeUtils::readFloat(inputs[3], 0) / 700.0);
        const double highMel = 2595.0 * log10(1.0 + (double)ShapeUtils::readFloat(inputs[4], 0) / 700.0);
        const double step = (highMel - lowMel) / (double)(mels + 2);
        for (int64_t i = 0; i < mels + 2; ++i) {
            const double hz = 700.0 * (pow(10.0, ((double)i * step + lowMel) / 2595.0) - 1.0);
            mBins[i] = (int64_t)floor((dft + 1.0) * hz / rate);
        }
        for (int64_t i = 0; i < rows * mels; ++i) {
            CPUUtils::writeFromDouble(y, i, 0.0);
        }
        // rows past the last spectrogram bin (an upper edge above sample_rate / 2) are left out
        auto set = [&](int64_t row, int64_t col, double v) {
            if (row >= 0 && row < rows) {
                CPUUtils::writeFromDouble(y, row * mels + col, v);
            }
        };
        for (int64_t i = 0; i < mels; ++i) {
            const int64_t lo = mBins[i], center = mBins[i + 1], hi = mBins[i + 2];
            if (center == lo) {
                set(center, i, 1.0);
            } else {
                for (int64_t j = lo; j <= center; ++j) {
                    set(j, i, (double)(j - lo) / (double)(center - lo));
                }
            }
            for (int64_t j = center; j < hi; ++j) {
                set(j, i, (double)(hi - j) / (double)(hi - center));
            }
        }
        return NO_ERROR;
    }

private:
    std::vector<int64_t> mBins;
};

static Execution* createWindow(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                               Backend* backend) {
    auto p = op->param_as_SignalParam();
    return new CPUWindow(backend, p ? p->window() : Schema::WindowType::HANN, p ? p->periodic() : true);
}
static Execution* createDFT(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                            Backend* backend) {
    auto p = op->param_as_SignalParam();
    return new CPUDFT(backend, p ? p->axis() : 1, p && p->inverse(), p && p->onesided());
}
static Execution* createSTFT(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                             Backend* backend) {
    auto p = op->param_as_SignalParam();
    return new CPUSTFT(backend, p ? p->onesided() : true);
}
static Execution* createMelWeightMatrix(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op*,
                                        Backend* backend) {
    return new CPUMelWeightMatrix(backend);
}
}  // namespace MNN

MNN_REGISTER_CPU(Window, createWindow)
MNN_REGISTER_CPU(DFT, createDFT)
MNN_REGISTER_CPU(STFT, createSTFT)
MNN_REGISTER_CPU(MelWeightMatrix, createMelWeightMatrix)
