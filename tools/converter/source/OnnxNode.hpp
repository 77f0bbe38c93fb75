// What an ONNX op mapper sees: one node of the model, its inputs / outputs as tensor indices of
// the graph being built, its attributes, and helpers to add ops and constants. The protobuf types
// stay inside OnnxLoader.cpp, so mapper files compile quickly.
//
// A mapper is `void fn(OnnxNode& node)`. It adds one or more ops (or constants) that write the
// node's outputs. It throws UnsupportedError for a configuration we cannot map (the node is
// listed as unsupported) and ConvertError for a malformed node.
//
// Register with MNN_REGISTER_ONNX(Name, mapperFunction, "OnnxOpType", ...): Name must be unique
// (it names the generated registration function), the strings are the ONNX op types (domain
// ai.onnx) the function handles; an op of another domain is named "domain.OpType"
// ("com.microsoft.DynamicQuantizeLSTM").
#ifndef MNN_CONVERTER_ONNXNODE_HPP
#define MNN_CONVERTER_ONNXNODE_HPP

#include <initializer_list>
#include <memory>
#include <string>
#include <vector>
#include "Graph.hpp"

namespace MNN {
namespace Convert {

class OnnxNode {
public:
    virtual ~OnnxNode() = default;
    virtual const std::string& opType() const = 0;
    virtual const std::string& name() const = 0;
    /** the model's ai.onnx opset version */
    virtual int opset() const = 0;
    virtual Graph& graph() = 0;

    // ---- inputs / outputs ----
    /** number of inputs listed (including "" placeholders) */
    virtual int inputCount() const = 0;
    /** tensor index of input i, -1 when absent or "" */
    virtual int input(int i) = 0;
    virtual int outputCount() const = 0;
    /** tensor index of output i (a private placeholder tensor for "") */
    virtual int output(int i) = 0;
    /** false when output i is absent or "" */
    virtual bool outputUsed(int i) const = 0;

    // ---- attributes ----
    virtual bool hasAttr(const std::string& n) const = 0;
    virtual int64_t attrInt(const std::string& n, int64_t def) const = 0;
    virtual float attrFloat(const std::string& n, float def) const = 0;
    virtual std::string attrString(const std::string& n, const std::string& def) const = 0;
    virtual std::vector<int64_t> attrInts(const std::string& n) const = 0;
    virtual std::vector<float> attrFloats(const std::string& n) const = 0;
    virtual std::vector<std::string> attrStrings(const std::string& n) const = 0;
    /** a TENSOR attribute as a blob (nullptr when absent) */
    virtual std::unique_ptr<Schema::BlobT> attrTensor(const std::string& n) const = 0;
    /**
     * converts a GRAPH attribute into a subgraph with its own tensor name space. Names the
     * subgraph reads from outer scopes are listed in *captured (in order); each is also appended
     * to the subgraph's `inputs` after its formal inputs, under the same name, so the control-flow
     * op passes the outer tensors as extra inputs. Outer constants are copied in, not captured.
     */
    virtual std::unique_ptr<Schema::SubGraphT> subgraph(const std::string& attr,
                                                        std::vector<std::string>* captured) = 0;

    // ---- what the model tells about a tensor (constants, graph inputs, value_info) ----
    virtual bool knownType(int tensor, Schema::DataType* type) const = 0;
    virtual bool knownShape(int tensor, std::vector<int>* dims) const = 0;

    // ---- helpers (OnnxNode.cpp) ----
    /** an op named after the node (plus suffix when the node maps to several ops) */
    Schema::OpT* addOp(Schema::OpType type, const std::vector<int>& in, const std::vector<int>& out,
                       const std::string& suffix = "");
    /** a fresh intermediate tensor */
    int tmp(const std::string& suffix);
    int constInt64(const std::string& suffix, const std::vector<int>& dims, const std::vector<int64_t>& v);
    int constFloat(const std::string& suffix, const std::vector<int>& dims, const std::vector<float>& v);
    /** the blob of input i when it is a constant, else nullptr */
    const Schema::BlobT* constInput(int i);
    bool constInts(int i, std::vector<int64_t>* out);
    bool constFloats(int i, std::vector<float>* out);
    /** all inputs (with -1 for absent ones, trailing absent dropped) */
    std::vector<int> inputs();
    std::vector<int> outputs();
    /** outputs with trailing unused ("" or absent) ones dropped */
    std::vector<int> usedOutputs();
    /** std::vector<int64_t> -> std::vector<int> with a range check */
    std::vector<int> toInts(const std::vector<int64_t>& v) const;
    [[noreturn]] void unsupported(const std::string& why) const;
    [[noreturn]] void invalid(const std::string& why) const;
    /** ONNX TensorProto data type -> ours (DT_INVALID when unknown) */
    static Schema::DataType dataType(int onnxType);
};

typedef void (*OnnxMapper)(OnnxNode& node);
void registerOnnxMapper(std::initializer_list<const char*> opTypes, OnnxMapper mapper);
OnnxMapper findOnnxMapper(const std::string& opType);
/** fills the mapper registry once (generated from the MNN_REGISTER_ONNX macros) */
void registerOnnxMappers();

}  // namespace Convert
}  // namespace MNN

#define MNN_REGISTER_ONNX(NAME, MAPPER, ...)                       \
    namespace MNN {                                                \
    void mnnRegisterOnnx_##NAME() {                                \
        ::MNN::Convert::registerOnnxMapper({__VA_ARGS__}, MAPPER); \
    }                                                              \
    }

#endif
