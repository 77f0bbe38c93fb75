// The converter's in-memory graph: tensors by name, ops and constants in the model schema's
// object-API form, so the writer only packs them. One Graph per scope (main graph or a
// control-flow subgraph, which keeps a pointer to its parent scope).
#ifndef MNN_CONVERTER_GRAPH_HPP
#define MNN_CONVERTER_GRAPH_HPP

#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>
#include "core/Schema.hpp"

namespace MNN {
namespace Convert {

/** a malformed model: conversion stops with this message */
struct ConvertError : public std::runtime_error {
    explicit ConvertError(const std::string& what) : std::runtime_error(what) {}
};
/** an op (or one of its attribute values) that we cannot map: collected and reported */
struct UnsupportedError : public std::runtime_error {
    explicit UnsupportedError(const std::string& what) : std::runtime_error(what) {}
};

class Graph {
public:
    Graph* parent = nullptr;
    std::string name;
    std::vector<std::string> names;  // tensor names by index
    std::vector<std::unique_ptr<Schema::OpT>> ops;
    std::map<int, std::unique_ptr<Schema::BlobT>> constants;  // by tensor index
    std::vector<std::unique_ptr<Schema::TensorDeclT>> inputs;
    std::vector<int> outputs;

    /** tensor index of a name, -1 when unknown in this scope */
    int find(const std::string& n) const;
    /** index of a name, created on first use */
    int tensor(const std::string& n);
    /** a new tensor with a unique name derived from base */
    int newTensor(const std::string& base);
    std::string uniqueOpName(const std::string& base);

    bool isConstant(int t) const {
        return t >= 0 && constants.count(t) > 0;
    }
    Schema::BlobT* constant(int t) const;
    /** stores blob as the value of tensor t (replacing a previous value) */
    void setConstant(int t, std::unique_ptr<Schema::BlobT> blob);
    int addConstant(const std::string& base, std::unique_ptr<Schema::BlobT> blob);
    bool isInput(int t) const;
    bool isOutput(int t) const;

    /** tensor -> index of the op producing it, -1 for none */
    std::vector<int> producers() const;
    /** tensor -> indices of ops reading it (an op appears once per input slot) */
    std::vector<std::vector<int>> consumers() const;
    /** replaces every read of `from` by `to` (ops and graph outputs are not touched for outputs) */
    void replaceUses(int from, int to);
    /** drops the ops whose flag is set (order of the rest kept) */
    void eraseOps(const std::vector<bool>& dead);
    /** op counts by type name, for tests and --info */
    std::map<std::string, int> opCounts() const;

    Schema::OpT* addOp(Schema::OpType type, const std::string& name, const std::vector<int>& in,
                       const std::vector<int>& out);

private:
    std::map<std::string, int> mIndex;
    std::set<std::string> mOpNames;
    int mCounter = 0;
};

// ---- blob helpers ----
int64_t elementCount(const std::vector<int>& dims);
int dataTypeBytes(Schema::DataType t);
std::unique_ptr<Schema::BlobT> makeBlob(Schema::DataType type, const std::vector<int>& dims, const void* data,
                                        size_t bytes);
std::unique_ptr<Schema::BlobT> int64Blob(const std::vector<int>& dims, const std::vector<int64_t>& values);
std::unique_ptr<Schema::BlobT> floatBlob(const std::vector<int>& dims, const std::vector<float>& values);
std::unique_ptr<Schema::BlobT> cloneBlob(const Schema::BlobT& b);
/** integer values of an integer (or bool) blob; false for other types */
bool blobInts(const Schema::BlobT& b, std::vector<int64_t>* out);
/** values of a numeric blob as float (uncompressed only); false for non-numeric */
bool blobFloats(const Schema::BlobT& b, std::vector<float>* out);
float halfToFloat(uint16_t h);
uint16_t floatToHalf(float f);

}  // namespace Convert
}  // namespace MNN
#endif
