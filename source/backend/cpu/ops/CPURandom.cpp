// Reference Random (RandomNormal / RandomUniform and the *Like forms) and Bernoulli.
// The generator is std::mt19937_64 (seeded from RandomParam.seed when hasSeed, else from
// std::random_device); uniform doubles use its top 53 bits and normals use Box-Muller. The values
// follow the requested distributions but need not match other frameworks' generators (ONNX leaves
// the generator unspecified). With a seed a fresh session produces the same sequence; each run of a
// session continues the stream.
#include <math.h>
#include <string.h>
#include <random>
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

static uint64_t seedOf(bool hasSeed, float seed) {
    if (hasSeed) {
        uint32_t bits = 0;
        ::memcpy(&bits, &seed, sizeof(bits));
        return 0x9E3779B97F4A7C15ull ^ (uint64_t)bits;
    }
    std::random_device rd;
    return ((uint64_t)rd() << 32) ^ (uint64_t)rd();
}

class RandomSource {
public:
    explicit RandomSource(uint64_t seed) : mEngine(seed) {
    }
    /** uniform in [0, 1) */
    double uniform() {
        return (double)(mEngine() >> 11) * (1.0 / 9007199254740992.0);
    }
    /** standard normal (Box-Muller, both values used) */
    double normal() {
        if (mHasSpare) {
            mHasSpare = false;
            return mSpare;
        }
        const double u1 = 1.0 - uniform(); // (0, 1]
        const double u2 = uniform();
        const double r = sqrt(-2.0 * log(u1));
        const double t = 6.283185307179586476925 * u2;
        mSpare = r * sin(t);
        mHasSpare = true;
        return r * cos(t);
    }

private:
    std::mt19937_64 mEngine;
    double mSpare = 0.0;
    bool mHasSpare = false;
};

class CPURandom : public Execution {
public:
    CPURandom(Backend* b, uint64_t seed, bool normal, double mean, double scale, double low, double high)
        : Execution(b), mSource(seed), mNormal(normal), mMean(mean), mScale(scale), mLow(low), mHigh(high) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>&, const std::vector<Tensor*>& outputs) override {
        auto out = outputs[0];
        const int64_t n = TensorUtils::elementCount(out);
        const bool dbl = out->getType().bits == 64;
        for (int64_t i = 0; i < n; ++i) {
            const double v = mNormal ? mMean + mScale * mSource.normal() : mLow + (mHigh - mLow) * mSource.uniform();
            if (dbl) {
                out->host<double>()[i] = v;
            } else {
                out->host<float>()[i] = (float)v;
            }
        }
        return NO_ERROR;
    }

private:
    RandomSource mSource;
    bool mNormal;
    double mMean, mScale, mLow, mHigh;
};

class CPUBernoulli : public Execution {
public:
    CPUBernoulli(Backend* b, uint64_t seed) : Execution(b), mSource(seed) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const int64_t n = TensorUtils::elementCount(inputs[0]);
        for (int64_t i = 0; i < n; ++i) {
            const double p = CPUUtils::readAsDouble(inputs[0], i);
            CPUUtils::writeFromDouble(outputs[0], i, mSource.uniform() < p ? 1.0 : 0.0);
        }
        return NO_ERROR;
    }

private:
    RandomSource mSource;
};

static Execution* createRandom(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                               Backend* backend) {
    auto p = op->param_as_RandomParam();
    if (!p) {
        return nullptr;
    }
    return new CPURandom(backend, seedOf(p->hasSeed(), p->seed()), p->normal(), p->mean(), p->scale(), p->low(),
                         p->high());
}
static Execution* createBernoulli(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                  Backend* backend) {
    auto p = op->param_as_RandomParam();
    return new CPUBernoulli(backend, seedOf(p && p->hasSeed(), p ? p->seed() : 0.0f));
}
} // namespace MNN

MNN_REGISTER_CPU(Random, createRandom)
MNN_REGISTER_CPU(Bernoulli, createBernoulli)
