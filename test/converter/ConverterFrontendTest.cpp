// ONNX frontend: graph structure, names, dims, initializers, Constant nodes, external data.
#include <fstream>
#include "OnnxTestBuilder.hpp"

using namespace MNN;
using namespace MNN::Test;
using onnx::TensorProto;

static std::string nameOf(const Schema::Net* net, int i) {
    return net->tensorNames()->Get(i)->str();
}

TEST(ConverterFrontend, AddMulRunsWithHandValues) {
    OnnxBuilder b;
    b.input("x", {2, 3});
    b.initializer("w", {3}, {1, 2, 3});
    b.node("Add", {"x", "w"}, {"s"});
    b.node("Mul", {"s", "x"}, {"y"});
    b.output("y");
    Convert::Options o;
    o.optimize = false;
    auto r = convert(b, o);
    ASSERT_TRUE(r.ok) << r.error;
    auto out = runFloat(r.model, {{"x", {{2, 3}, {1, 2, 3, -1, 0, 0.5f}}}});
    // (x + w) * x
    EXPECT_TRUE(allClose(out["y"], {2, 8, 18, 0, 0, 1.75f}));
}

TEST(ConverterFrontend, NamesDynamicDimsAndSymbolsKept) {
    OnnxBuilder b;
    b.input("input.1", {-1, 3, -1}, TensorProto::FLOAT, {"batch", "", ""});
    b.input("scalar", {});
    b.node("Add", {"input.1", "scalar"}, {"out:0"});
    b.output("out:0");
    auto r = convert(b);
    ASSERT_TRUE(r.ok) << r.error;
    auto net = netOf(r.model);
    ASSERT_NE(net, nullptr);
    ASSERT_EQ(net->inputs()->size(), 2u);
    auto d0 = net->inputs()->Get(0);
    EXPECT_EQ(nameOf(net, d0->tensorIndex()), "input.1");
    ASSERT_EQ(d0->dims()->size(), 3u);
    EXPECT_EQ(d0->dims()->Get(0), -1);
    EXPECT_EQ(d0->dims()->Get(1), 3);
    EXPECT_EQ(d0->dims()->Get(2), -1);
    ASSERT_TRUE(d0->symbols());
    EXPECT_EQ(d0->symbols()->Get(0)->str(), "batch");
    EXPECT_EQ(d0->symbols()->Get(2)->str(), "");
    auto d1 = net->inputs()->Get(1);
    EXPECT_EQ(nameOf(net, d1->tensorIndex()), "scalar");
    EXPECT_EQ(d1->dims() ? d1->dims()->size() : 0u, 0u);  // rank 0
    ASSERT_EQ(net->outputs()->size(), 1u);
    EXPECT_EQ(nameOf(net, net->outputs()->Get(0)), "out:0");
    // rank-0 input runs
    auto out = runFloat(r.model, {{"input.1", {{2, 3, 1}, {1, 2, 3, 4, 5, 6}}}, {"scalar", {{}, {10}}}});
    EXPECT_TRUE(allClose(out["out:0"], {11, 12, 13, 14, 15, 16}));
}

TEST(ConverterFrontend, InputShapePinsDims) {
    OnnxBuilder b;
    b.input("x", {-1, 3, -1, -1}, TensorProto::FLOAT, {"n", "", "h", "w"});
    b.node("Relu", {"x"}, {"y"});
    b.output("y");
    Convert::Options o;
    o.inputShapes["x"] = {1, 3, 8, 8};
    auto r = convert(b, o);
    ASSERT_TRUE(r.ok) << r.error;
    auto d = netOf(r.model)->inputs()->Get(0);
    std::vector<int> dims(d->dims()->begin(), d->dims()->end());
    EXPECT_EQ(dims, std::vector<int>({1, 3, 8, 8}));
    // conflicting with a fixed dim, unknown name, wrong rank
    o.inputShapes["x"] = {1, 4, 8, 8};
    EXPECT_FALSE(convert(b, o).ok);
    o.inputShapes.clear();
    o.inputShapes["nope"] = {1};
    auto bad = convert(b, o);
    EXPECT_FALSE(bad.ok);
    EXPECT_NE(bad.error.find("nope"), std::string::npos);
    o.inputShapes.clear();
    o.inputShapes["x"] = {1, 3};
    EXPECT_FALSE(convert(b, o).ok);
}

TEST(ConverterFrontend, InitializerListedAsInputIsConstant) {
    OnnxBuilder b;
    b.input("x", {2});
    b.input("w", {2});
    b.initializer("w", {2}, {5, 7});
    b.node("Sub", {"x", "w"}, {"y"});
    b.output("y");
    auto r = convert(b);
    ASSERT_TRUE(r.ok) << r.error;
    auto net = netOf(r.model);
    ASSERT_EQ(net->inputs()->size(), 1u);
    EXPECT_EQ(nameOf(net, net->inputs()->Get(0)->tensorIndex()), "x");
    auto out = runFloat(r.model, {{"x", {{2}, {1, 1}}}});
    EXPECT_TRUE(allClose(out["y"], {-4, -6}));
}

TEST(ConverterFrontend, ConstantNodeValueForms) {
    OnnxBuilder b;
    b.input("x", {2});
    auto c1 = b.node("Constant", {}, {"c1"});
    OnnxBuilder::attr(c1, "value_float", 2.0f);
    auto c2 = b.node("Constant", {}, {"c2"});
    OnnxBuilder::attrFloats(c2, "value_floats", {10, 20});
    auto c3 = b.node("Constant", {}, {"c3"});
    {
        auto a = c3->add_attribute();
        a->set_name("value");
        a->set_type(onnx::AttributeProto::TENSOR);
        auto t = a->mutable_t();
        t->set_data_type(TensorProto::FLOAT);
        t->add_dims(2);
        t->add_float_data(100);
        t->add_float_data(200);
    }
    auto c4 = b.node("Constant", {}, {"c4"});
    OnnxBuilder::attr(c4, "value_ints", std::vector<int64_t>{2});
    auto c5 = b.node("Constant", {}, {"c5"});
    OnnxBuilder::attr(c5, "value_int", (int64_t)0);
    b.node("Mul", {"x", "c1"}, {"a"});
    b.node("Add", {"a", "c2"}, {"b2"});
    b.node("Add", {"b2", "c3"}, {"y"});
    b.node("Reshape", {"y", "c4"}, {"z"});
    b.output("z");
    Convert::Options o;
    o.optimize = false;
    auto r = convert(b, o);
    ASSERT_TRUE(r.ok) << r.error;
    auto net = netOf(r.model);
    // c5 is unused: not written; c4 is int64
    bool sawInt64 = false;
    for (auto c : *net->constants()) {
        EXPECT_NE(nameOf(net, c->tensorIndex()), "c5");
        if (nameOf(net, c->tensorIndex()) == "c4") {
            sawInt64 = c->dataType() == Schema::DataType::DT_INT64;
        }
    }
    EXPECT_TRUE(sawInt64);
    if (engineHas({Schema::OpType::Reshape})) {
        auto out = runFloat(r.model, {{"x", {{2}, {1, 2}}}});
        EXPECT_TRUE(allClose(out["z"], {112, 224}));
    }
}

TEST(ConverterFrontend, ExternalDataRelativeToModel) {
    auto dir = tempDir("extdata");
    std::vector<float> pad = {9, 9};
    std::vector<float> w = {0.5f, -1.5f, 2.0f};
    {
        std::ofstream f(dir + "/weights.bin", std::ios::binary);
        f.write((const char*)pad.data(), 8);
        f.write((const char*)w.data(), 12);
    }
    OnnxBuilder b;
    b.input("x", {3});
    auto t = b.graph().add_initializer();
    t->set_name("w");
    t->set_data_type(TensorProto::FLOAT);
    t->add_dims(3);
    t->set_data_location(TensorProto::EXTERNAL);
    auto kv = t->add_external_data();
    kv->set_key("location");
    kv->set_value("weights.bin");
    kv = t->add_external_data();
    kv->set_key("offset");
    kv->set_value("8");
    kv = t->add_external_data();
    kv->set_key("length");
    kv->set_value("12");
    b.node("Add", {"x", "w"}, {"y"});
    b.output("y");
    {
        std::ofstream f(dir + "/model.onnx", std::ios::binary);
        auto s = b.bytes();
        f.write(s.data(), (std::streamsize)s.size());
    }
    auto r = Convert::convertOnnxFile(dir + "/model.onnx", Convert::Options());
    ASSERT_TRUE(r.ok) << r.error;
    auto out = runFloat(r.model, {{"x", {{3}, {1, 1, 1}}}});
    EXPECT_TRUE(allClose(out["y"], {1.5f, -0.5f, 3.0f}));
    // the buffer API without the folder cannot find the file: a clear error
    auto s = b.bytes();
    auto bad = Convert::convertOnnxBuffer(s.data(), s.size(), Convert::Options(), "/nonexistent_dir_mnn");
    EXPECT_FALSE(bad.ok);
    EXPECT_NE(bad.error.find("weights.bin"), std::string::npos);
}

TEST(ConverterFrontend, UnusedDomainImportIgnoredAndOptionalInputsKeptEmpty) {
    OnnxBuilder b(13);
    auto imp = b.model().add_opset_import();
    imp->set_domain("com.example.unused");
    imp->set_version(3);
    b.input("x", {1, 1, 2, 2});
    b.initializer("scales", {4}, {1, 1, 2, 2});
    b.node("Resize", {"x", "", "scales"}, {"y"});
    b.output("y");
    auto r = convert(b);
    ASSERT_TRUE(r.ok) << r.error;
    auto net = netOf(r.model);
    ASSERT_EQ(net->ops()->size(), 1u);
    auto op = net->ops()->Get(0);
    EXPECT_EQ(op->type(), Schema::OpType::Resize);
    ASSERT_EQ(op->inputs()->size(), 3u);
    EXPECT_EQ(op->inputs()->Get(1), -1);
}

TEST(ConverterFrontend, MalformedInputsGiveErrors) {
    const char junk[] = "this is not a protobuf \xff\xff\xff";
    auto r = Convert::convertOnnxBuffer(junk, sizeof(junk), Convert::Options());
    EXPECT_FALSE(r.ok);
    EXPECT_FALSE(r.error.empty());
    auto m = Convert::convertOnnxFile("/nonexistent/model.onnx", Convert::Options());
    EXPECT_FALSE(m.ok);
    EXPECT_NE(m.error.find("cannot open"), std::string::npos);
    // a node reading a name nobody produces
    OnnxBuilder b;
    b.input("x", {2});
    b.node("Add", {"x", "ghost"}, {"y"});
    b.output("y");
    auto g = convert(b);
    EXPECT_FALSE(g.ok);
    EXPECT_NE(g.error.find("ghost"), std::string::npos);
    // weightQuantBits other than 0 / 8
    Convert::Options o;
    o.weightQuantBits = 4;
    EXPECT_FALSE(convert(b, o).ok);
    // Clip with its X left out ("", found by mnn_fuzz_onnx: the type lookup of the absent input
    // read the name table at index -1)
    OnnxBuilder c;
    c.input("max", {1});
    c.node("Clip", {"", "max"}, {"y"});
    c.output("y");
    auto cr = convert(c);
    EXPECT_FALSE(cr.ok);
    EXPECT_NE(cr.error.find("input X is missing"), std::string::npos) << cr.error;
}
