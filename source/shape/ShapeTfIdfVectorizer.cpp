// TfIdfVectorizer (TfIdfParam): input [C] or [N, C] of int32 / int64; output float [S] or
// [N, S] with S = max(ngramIndexes) + 1. The pool holds the n-grams of length 1, 2, ... one after
// another; ngramCounts[i] is where the (i + 1)-grams start in it.
#include "ShapeUtils.hpp"

namespace MNN {
static ErrorCode shapeTfIdfVectorizer(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                      const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || inputs.size() != 1 || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output, got %d and %d", (int)inputs.size(),
                                 (int)outputs.size());
    }
    const Tensor* x = inputs[0];
    const auto t = x->getType();
    if (t.code != halide_type_int || (t.bits != 32 && t.bits != 64) || x->dimensions() < 1 || x->dimensions() > 2) {
        return ShapeUtils::error(op, NOT_SUPPORT, "input %s must be int32 / int64 [C] or [N, C], got %s %s",
                                 TensorUtils::describe(x)->name.c_str(), TensorUtils::typeName(t),
                                 TensorUtils::shapeString(x).c_str());
    }
    auto p = op->param_as_TfIdfParam();
    if (!p || !p->ngramCounts() || !p->ngramIndexes() || !p->pool()) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs ngramCounts, ngramIndexes and pool");
    }
    if (p->minGramLength() < 1 || p->maxGramLength() < p->minGramLength() || p->maxSkipCount() < 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "invalid gram lengths %d..%d or skip count %d", p->minGramLength(),
                                 p->maxGramLength(), p->maxSkipCount());
    }
    const int64_t poolSize = (int64_t)p->pool()->size();
    const auto* counts = p->ngramCounts();
    int64_t grams = 0;
    for (uint32_t i = 0; i < counts->size(); ++i) {
        const int64_t start = counts->Get(i);
        const int64_t end = i + 1 < counts->size() ? counts->Get(i + 1) : poolSize;
        const int64_t n = (int64_t)i + 1;
        if (start < 0 || end < start || end > poolSize || (end - start) % n != 0) {
            return ShapeUtils::error(op, INVALID_VALUE,
                                     "ngramCounts[%u] = %lld does not split the pool of %lld into %lld-grams", i,
                                     (long long)start, (long long)poolSize, (long long)n);
        }
        grams += (end - start) / n;
    }
    if ((int64_t)p->ngramIndexes()->size() != grams ||
        (p->weights() && p->weights()->size() != 0 && (int64_t)p->weights()->size() != grams)) {
        return ShapeUtils::error(op, INVALID_VALUE,
                                 "the pool holds %lld n-grams but ngramIndexes has %u and weights %u", (long long)grams,
                                 p->ngramIndexes()->size(), p->weights() ? p->weights()->size() : 0);
    }
    int64_t size = 0;
    for (auto v : *p->ngramIndexes()) {
        if (v < 0 || v >= 0x7fffffff) {
            return ShapeUtils::error(op, INVALID_VALUE, "ngramIndexes value %lld is invalid", (long long)v);
        }
        size = v + 1 > size ? v + 1 : size;
    }
    if (x->dimensions() == 1) {
        ShapeUtils::setOutput(outputs[0], {(int)size}, halide_type_of<float>());
    } else {
        ShapeUtils::setOutput(outputs[0], {x->length(0), (int)size}, halide_type_of<float>());
    }
    return NO_ERROR;
}
}  // namespace MNN

MNN_REGISTER_SHAPE(TfIdfVectorizer, ShapeEntry{shapeTfIdfVectorizer, nullptr, 0})
