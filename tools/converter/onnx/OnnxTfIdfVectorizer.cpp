// TfIdfVectorizer -> TfIdfVectorizer (TfIdfParam); pool_strings (string input) is unsupported.
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
void mapTfIdfVectorizer(OnnxNode& node) {
    if (node.hasAttr("pool_strings") && !node.hasAttr("pool_int64s")) {
        node.unsupported("pool_strings (string input)");
    }
    auto op = node.addOp(Schema::OpType::TfIdfVectorizer, {node.input(0)}, {node.output(0)});
    auto p = setParam<Schema::TfIdfParamT>(op);
    const auto mode = node.attrString("mode", "");
    if (mode == "TF") {
        p->mode = Schema::TfIdfMode::TF;
    } else if (mode == "IDF") {
        p->mode = Schema::TfIdfMode::IDF;
    } else if (mode == "TFIDF") {
        p->mode = Schema::TfIdfMode::TFIDF;
    } else {
        node.invalid("unknown mode '" + mode + "'");
    }
    auto toInt = [&](const char* name) {
        const int64_t v = node.attrInt(name, -1);
        if (v < 0 || v > INT32_MAX) {
            node.invalid(std::string("attribute ") + name + " is missing or invalid");
        }
        return (int)v;
    };
    p->minGramLength = toInt("min_gram_length");
    p->maxGramLength = toInt("max_gram_length");
    p->maxSkipCount = toInt("max_skip_count");
    p->ngramCounts = node.attrInts("ngram_counts");
    p->ngramIndexes = node.attrInts("ngram_indexes");
    p->pool = node.attrInts("pool_int64s");
    p->weights = node.attrFloats("weights");
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(TfIdfVectorizer, MNN::Convert::mapTfIdfVectorizer, "TfIdfVectorizer")
