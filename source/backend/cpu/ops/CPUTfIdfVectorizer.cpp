// Reference TfIdfVectorizer. For each row and each start position s, the n-grams for n in
// [minGramLength, maxGramLength] are x[s], x[s + k], ..., x[s + (n - 1) k] for every gap k in
// 1..maxSkipCount + 1 (unigrams once per position); each one found in the pool counts for its pool
// n-gram g. Output[ngramIndexes[g]] = count (TF), weight[g] when count > 0 (IDF) or
// count * weight[g] (TFIDF), weights 1 when not given. The pool's n-grams of each length are sorted
// when the Execution is created, so a lookup is a binary search (nothing is allocated at execute).
#include <algorithm>
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

class CPUTfIdfVectorizer : public Execution {
public:
    CPUTfIdfVectorizer(Backend* b, const Schema::TfIdfParam* p)
        : Execution(b),
          mMode(p->mode()),
          mMinGram(p->minGramLength()),
          mMaxGram(p->maxGramLength()),
          mMaxSkip(p->maxSkipCount()) {
        mTokens.assign(p->pool()->begin(), p->pool()->end());
        const auto* counts = p->ngramCounts();
        const int64_t poolSize = (int64_t)mTokens.size();
        for (uint32_t i = 0; i < counts->size(); ++i) {
            const int n = (int)i + 1;
            // the shape function refuses bad bounds; clamped so a bad model cannot read outside the pool
            const int64_t start = std::max<int64_t>(0, counts->Get(i));
            const int64_t end = std::min(poolSize, i + 1 < counts->size() ? counts->Get(i + 1) : poolSize);
            mByLength.emplace_back();
            for (int64_t at = start; at + n <= end; at += n) {
                mByLength.back().push_back((int64_t)mGramStart.size());
                mGramStart.push_back(at);
            }
        }
        const size_t grams = mGramStart.size();
        mOutIndex.assign(p->ngramIndexes()->begin(), p->ngramIndexes()->end());
        mWeights.assign(grams, 1.0f);
        if (p->weights() && p->weights()->size() == grams) {
            mWeights.assign(p->weights()->begin(), p->weights()->end());
        }
        mCounts.assign(grams, 0.0);
        for (size_t n = 0; n < mByLength.size(); ++n) {
            const int len = (int)n + 1;
            std::sort(mByLength[n].begin(), mByLength[n].end(), [&](int64_t a, int64_t b) {
                return std::lexicographical_compare(
                    mTokens.begin() + mGramStart[a], mTokens.begin() + mGramStart[a] + len,
                    mTokens.begin() + mGramStart[b], mTokens.begin() + mGramStart[b] + len);
            });
        }
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (inputs[0]->getType().bits == 64) {
            run<int64_t>(inputs[0], outputs[0]);
        } else {
            run<int32_t>(inputs[0], outputs[0]);
        }
        return NO_ERROR;
    }

private:
    /** the pool n-gram of length n equal to x[0], x[k], ..., x[(n - 1) k], or -1 */
    template <typename I>
    int64_t find(const I* x, int n, int64_t k) const {
        const auto& ids = mByLength[n - 1];
        size_t lo = 0, hi = ids.size();
        while (lo < hi) {
            const size_t mid = (lo + hi) / 2;
            const int64_t* g = mTokens.data() + mGramStart[ids[mid]];
            int cmp = 0;
            for (int j = 0; j < n && cmp == 0; ++j) {
                const int64_t v = (int64_t)x[j * k];
                cmp = g[j] < v ? -1 : (g[j] > v ? 1 : 0);
            }
            if (cmp == 0) {
                return ids[mid];
            }
            if (cmp < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return -1;
    }

    template <typename I>
    void run(const Tensor* input, Tensor* output) {
        const int rows = input->dimensions() == 2 ? input->length(0) : 1;
        const int64_t cols = input->dimensions() == 2 ? input->length(1) : input->length(0);
        const int64_t size = output->length(output->dimensions() - 1);
        const int maxGram = std::min<int>(mMaxGram, (int)mByLength.size());
        for (int r = 0; r < rows; ++r) {
            const I* x = input->host<I>() + r * cols;
            float* y = output->host<float>() + r * size;
            std::fill(mCounts.begin(), mCounts.end(), 0.0);
            for (int64_t s = 0; s < cols; ++s) {
                for (int n = mMinGram; n <= maxGram; ++n) {
                    const int64_t gaps = n == 1 ? 1 : (int64_t)mMaxSkip + 1;
                    for (int64_t k = 1; k <= gaps; ++k) {
                        if (s + (int64_t)(n - 1) * k >= cols) {
                            break;
                        }
                        const int64_t g = find(x + s, n, k);
                        if (g >= 0) {
                            mCounts[g] += 1.0;
                        }
                    }
                }
            }
            std::fill(y, y + size, 0.0f);
            for (size_t g = 0; g < mCounts.size(); ++g) {
                const double c = mCounts[g];
                double v = c;
                if (mMode == Schema::TfIdfMode::IDF) {
                    v = c > 0.0 ? (double)mWeights[g] : 0.0;
                } else if (mMode == Schema::TfIdfMode::TFIDF) {
                    v = c * (double)mWeights[g];
                }
                if (g < mOutIndex.size() && mOutIndex[g] >= 0 && mOutIndex[g] < size) {
                    y[mOutIndex[g]] += (float)v;
                }
            }
        }
    }

    Schema::TfIdfMode mMode;
    int mMinGram, mMaxGram, mMaxSkip;
    std::vector<int64_t> mTokens;                 // the pool
    std::vector<int64_t> mGramStart;              // pool n-gram g starts at mTokens[mGramStart[g]]
    std::vector<std::vector<int64_t>> mByLength;  // [n - 1]: the n-grams of length n, sorted
    std::vector<int64_t> mOutIndex;
    std::vector<float> mWeights;
    std::vector<double> mCounts;
};

static Execution* createTfIdfVectorizer(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                        Backend* backend) {
    auto p = op->param_as_TfIdfParam();
    if (!p || !p->pool() || !p->ngramCounts() || !p->ngramIndexes()) {
        return nullptr;
    }
    return new CPUTfIdfVectorizer(backend, p);
}
}  // namespace MNN

MNN_REGISTER_CPU(TfIdfVectorizer, createTfIdfVectorizer)
