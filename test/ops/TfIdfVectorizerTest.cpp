// TfIdfVectorizer: n-gram counts counted by hand (unigrams, bigrams with and without skips, rows
// of a batch, IDF / TFIDF weights) and bad parameters failing at createSession.
#include "OpTestHelpers.hpp"

using namespace MNN;
using namespace MNN::Test;
using Schema::DataType;
using Schema::TfIdfMode;

namespace {
// unigrams 2, 3, 5, 4; bigrams (5, 6), (7, 8), (6, 7); output index = pool order
Schema::TfIdfParamT poolParam(TfIdfMode mode, int minGram, int maxGram, int skip) {
    Schema::TfIdfParamT p;
    p.mode = mode;
    p.minGramLength = minGram;
    p.maxGramLength = maxGram;
    p.maxSkipCount = skip;
    p.ngramCounts = {0, 4};
    p.ngramIndexes = {0, 1, 2, 3, 4, 5, 6};
    p.pool = {2, 3, 5, 4, 5, 6, 7, 8, 6, 7};
    return p;
}

std::vector<uint8_t> tfidfModel(const std::vector<int>& dims, const Schema::TfIdfParamT& p,
                                DataType type = DataType::DT_INT32) {
    ModelBuilder mb;
    mb.input("x", dims, type);
    mb.op(Schema::OpType::TfIdfVectorizer, "tfidf", {"x"}, {"y"})->param.Set(Schema::TfIdfParamT(p));
    mb.output("y");
    return mb.finish();
}

std::vector<float> run(const std::vector<int>& dims, const std::vector<int32_t>& x, const Schema::TfIdfParamT& p) {
    auto xt = makeTyped<int32_t>(dims, x);
    auto r = runModel(tfidfModel(dims, p), {{"x", xt.get()}});
    EXPECT_EQ(r.code, NO_ERROR);
    return r.outputs.count("y") ? valuesOf<float>(r.outputs["y"].get()) : std::vector<float>();
}

const std::vector<int32_t> kTokens = {1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8};
}  // namespace

TEST(TfIdfVectorizer, TermFrequencies) {
    // unigrams: 3 three times, 5 once
    EXPECT_EQ(run({12}, kTokens, poolParam(TfIdfMode::TF, 1, 1, 0)), (std::vector<float>{0, 3, 1, 0, 0, 0, 0}));
    // adjacent pairs: (7, 8), (6, 7), (5, 6) once each
    EXPECT_EQ(run({12}, kTokens, poolParam(TfIdfMode::TF, 2, 2, 0)), (std::vector<float>{0, 0, 0, 0, 1, 1, 1}));
    // both lengths
    EXPECT_EQ(run({12}, kTokens, poolParam(TfIdfMode::TF, 1, 2, 0)), (std::vector<float>{0, 3, 1, 0, 1, 1, 1}));
}

TEST(TfIdfVectorizer, SkipsAndBatch) {
    // [5, 9, 6]: (5, 6) is two apart, found only with a skip of 1
    EXPECT_EQ(run({3}, {5, 9, 6}, poolParam(TfIdfMode::TF, 2, 2, 0)), (std::vector<float>{0, 0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(run({3}, {5, 9, 6}, poolParam(TfIdfMode::TF, 2, 2, 1)), (std::vector<float>{0, 0, 0, 0, 1, 0, 0}));
    // (7, 8) at gaps 1 (positions 5, 6), 3 (8, 11) and 6 (5, 11) with skips up to 5
    EXPECT_EQ(run({12}, kTokens, poolParam(TfIdfMode::TF, 2, 2, 5)), (std::vector<float>{0, 0, 0, 0, 1, 3, 1}));
    // rows are separate: no pair crosses from row 0 to row 1
    EXPECT_EQ(run({2, 6}, kTokens, poolParam(TfIdfMode::TF, 2, 2, 0)),
              (std::vector<float>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1}));
}

TEST(TfIdfVectorizer, IdfAndTfIdfWeights) {
    auto p = poolParam(TfIdfMode::IDF, 1, 2, 0);
    p.weights = {1, 2, 3, 4, 5, 6, 7};
    EXPECT_EQ(run({12}, kTokens, p), (std::vector<float>{0, 2, 3, 0, 5, 6, 7}));
    p.mode = TfIdfMode::TFIDF;
    EXPECT_EQ(run({12}, kTokens, p), (std::vector<float>{0, 6, 3, 0, 5, 6, 7}));
    // int64 tokens
    auto xt = makeTyped<int64_t>({3}, {3, 3, 4});
    auto r = runModel(tfidfModel({3}, poolParam(TfIdfMode::TF, 1, 1, 0), DataType::DT_INT64), {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{0, 2, 0, 1, 0, 0, 0}));
}

TEST(TfIdfVectorizer, BadParameters) {
    auto p = poolParam(TfIdfMode::TF, 1, 2, 0);
    p.ngramIndexes = {0, 1, 2};
    EXPECT_TRUE(createFails(tfidfModel({4}, p), "tfidf", "ngramIndexes"));
    p = poolParam(TfIdfMode::TF, 1, 2, 0);
    p.ngramCounts = {0, 3};  // 7 tokens cannot be 2-grams
    EXPECT_TRUE(createFails(tfidfModel({4}, p), "tfidf", "ngramCounts"));
    p = poolParam(TfIdfMode::TF, 2, 1, 0);
    EXPECT_TRUE(createFails(tfidfModel({4}, p), "tfidf", "gram lengths"));
    EXPECT_TRUE(createFails(tfidfModel({4}, poolParam(TfIdfMode::TF, 1, 1, 0), DataType::DT_FLOAT), "tfidf", "int32"));
    EXPECT_TRUE(createFails(tfidfModel({1, 2, 2}, poolParam(TfIdfMode::TF, 1, 1, 0)), "tfidf", "int32"));
}
