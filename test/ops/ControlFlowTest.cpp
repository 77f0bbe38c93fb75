// If / Loop / Scan: subgraphs run as nested sessions. Golden values computed by hand in each test.
#include <cstring>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
// a SubGraph built by name, like ModelBuilder
class SubGraphBuilder {
public:
    SubGraphBuilder(const std::string& name) : mGraph(new Schema::SubGraphT) {
        mGraph->name = name;
    }
    int tensor(const std::string& n) {
        auto it = mIndex.find(n);
        if (it != mIndex.end()) {
            return it->second;
        }
        int i = (int)mGraph->tensorNames.size();
        mGraph->tensorNames.push_back(n);
        mIndex[n] = i;
        return i;
    }
    void input(const std::string& n, Schema::DataType type = Schema::DataType::DT_FLOAT) {
        int i = tensor(n);
        mGraph->inputs.push_back(i);
        std::unique_ptr<Schema::TensorDeclT> d(new Schema::TensorDeclT);
        d->tensorIndex = i;
        d->dataType = type;
        mGraph->inputDecls.emplace_back(std::move(d));
    }
    void output(const std::string& n) {
        mGraph->outputs.push_back(tensor(n));
    }
    void constant(const std::string& n, const std::vector<int>& dims, Schema::DataType type, const void* data,
                  size_t bytes) {
        std::unique_ptr<Schema::BlobT> b(new Schema::BlobT);
        b->tensorIndex = tensor(n);
        b->dims = dims;
        b->dataType = type;
        b->raw.assign((const uint8_t*)data, (const uint8_t*)data + bytes);
        mGraph->constants.emplace_back(std::move(b));
    }
    void binary(Schema::BinaryOpType t, const std::string& a, const std::string& b, const std::string& out) {
        std::unique_ptr<Schema::OpT> op(new Schema::OpT);
        op->type = Schema::OpType::BinaryOp;
        op->name = mGraph->name + "/" + out;
        op->inputs = {tensor(a), tensor(b)};
        op->outputs = {tensor(out)};
        Schema::BinaryParamT p;
        p.type = t;
        op->param.Set(p);
        mGraph->ops.emplace_back(std::move(op));
    }
    std::unique_ptr<Schema::SubGraphT> take() {
        return std::move(mGraph);
    }

private:
    std::unique_ptr<Schema::SubGraphT> mGraph;
    std::map<std::string, int> mIndex;
};

std::unique_ptr<Tensor> boolTensor(bool v) {
    std::unique_ptr<Tensor> t(Tensor::create<uint8_t>({}, nullptr, Tensor::CAFFE));
    t->host<uint8_t>()[0] = v ? 1 : 0;
    return t;
}
std::unique_ptr<Tensor> int64Tensor(int64_t v) {
    std::unique_ptr<Tensor> t(Tensor::create<int64_t>({}, nullptr, Tensor::CAFFE));
    t->host<int64_t>()[0] = v;
    return t;
}
const float kTwo = 2.0f, kTen = 10.0f;

// If(cond): then y = x + 10 (x captured), else y = x * 2 (x captured)
std::vector<uint8_t> ifModel() {
    ModelBuilder mb;
    mb.input("cond", {}, Schema::DataType::DT_BOOL);
    mb.input("x", {3});
    SubGraphBuilder t("then");
    t.input("x");
    t.constant("ten", {}, Schema::DataType::DT_FLOAT, &kTen, 4);
    t.binary(Schema::BinaryOpType::ADD, "x", "ten", "y");
    t.output("y");
    SubGraphBuilder e("else");
    e.input("x");
    e.constant("two", {}, Schema::DataType::DT_FLOAT, &kTwo, 4);
    e.binary(Schema::BinaryOpType::MUL, "x", "two", "y");
    e.output("y");
    auto op = mb.op(Schema::OpType::If, "if", {"cond", "x", "x"}, {"y"});
    Schema::ControlFlowParamT p;
    p.subgraphs.emplace_back(t.take());
    p.subgraphs.emplace_back(e.take());
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}
} // namespace

TEST(ControlFlow, IfTakesEachBranch) {
    auto model = ifModel();
    auto x = makeTensor({3}, {1, 2, 3});
    auto yes = boolTensor(true), no = boolTensor(false);
    auto r = runModel(model, {{"cond", yes.get()}, {"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {11, 12, 13}));
    r = runModel(model, {{"cond", no.get()}, {"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {2, 4, 6}));
}

TEST(ControlFlow, IfReRunsWhenTheConditionChanges) {
    auto model = ifModel();
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    auto session = net->createSession(config);
    ASSERT_NE(session, nullptr);
    auto cond = net->getSessionInput(session, "cond");
    auto x = net->getSessionInput(session, "x");
    float xs[3] = {1, 2, 3};
    ::memcpy(x->host<float>(), xs, 12);
    for (int k = 0; k < 3; ++k) {
        cond->host<uint8_t>()[0] = k % 2;
        ASSERT_EQ(net->runSession(session), NO_ERROR);
        auto y = net->getSessionOutput(session, "y");
        EXPECT_FLOAT_EQ(y->host<float>()[2], k % 2 ? 13.0f : 6.0f) << k;
    }
}

TEST(ControlFlow, IfRejectsMissingBranch) {
    ModelBuilder mb;
    mb.input("cond", {}, Schema::DataType::DT_BOOL);
    auto op = mb.op(Schema::OpType::If, "if", {"cond"}, {"y"});
    Schema::ControlFlowParamT p;
    SubGraphBuilder t("then");
    t.constant("c", {}, Schema::DataType::DT_FLOAT, &kTen, 4);
    t.output("c");
    p.subgraphs.emplace_back(t.take());
    op->param.Set(p);
    mb.output("y");
    auto model = mb.finish();
    auto yes = boolTensor(true);
    auto r = runModel(model, {{"cond", yes.get()}});
    EXPECT_NE(r.code, NO_ERROR);
}

// Loop(M, cond, v0) with body: v = v + x (x captured); cond_out = iter < 1; scan = v.
// M = 5 but the condition stops it after 2 iterations: v = v0 + 2x, scan = [v0 + x, v0 + 2x].
TEST(ControlFlow, LoopCarriesStateStopsOnConditionAndStacksScans) {
    ModelBuilder mb;
    mb.input("M", {}, Schema::DataType::DT_INT64);
    mb.input("cond", {}, Schema::DataType::DT_BOOL);
    mb.input("v0", {2});
    mb.input("x", {2});
    SubGraphBuilder b("body");
    b.input("iter", Schema::DataType::DT_INT64);
    b.input("cond_in", Schema::DataType::DT_BOOL);
    b.input("v");
    b.input("x");
    int64_t one = 1;
    b.constant("one", {}, Schema::DataType::DT_INT64, &one, 8);
    b.binary(Schema::BinaryOpType::LESS, "iter", "one", "cond_out");
    b.binary(Schema::BinaryOpType::ADD, "v", "x", "v_out");
    b.output("cond_out");
    b.output("v_out");
    b.output("v_out");
    auto op = mb.op(Schema::OpType::Loop, "loop", {"M", "cond", "v0", "x"}, {"v_final", "scan"});
    Schema::ControlFlowParamT p;
    p.subgraphs.emplace_back(b.take());
    p.scanOutputAxes = {0};
    op->param.Set(p);
    mb.output("v_final");
    mb.output("scan");
    auto model = mb.finish();
    auto M = int64Tensor(5);
    auto cond = boolTensor(true);
    auto v0 = makeTensor({2}, {1, 2});
    auto x = makeTensor({2}, {10, 20});
    auto r = runModel(model, {{"M", M.get()}, {"cond", cond.get()}, {"v0", v0.get()}, {"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["v_final"].get(), {21, 42}));
    auto scan = r.outputs["scan"].get();
    ASSERT_EQ(scan->dimensions(), 2);
    EXPECT_EQ(scan->length(0), 2);
    EXPECT_EQ(scan->length(1), 2);
    EXPECT_TRUE(tensorClose(scan, {11, 22, 21, 42}));

    // the trip count alone: M = 1 -> one iteration
    auto M1 = int64Tensor(1);
    r = runModel(model, {{"M", M1.get()}, {"cond", cond.get()}, {"v0", v0.get()}, {"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["v_final"].get(), {11, 22}));
    EXPECT_EQ(r.outputs["scan"]->length(0), 1);

    // cond false at entry: no iteration, v_final = v0, empty scan
    auto no = boolTensor(false);
    r = runModel(model, {{"M", M.get()}, {"cond", no.get()}, {"v0", v0.get()}, {"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["v_final"].get(), {1, 2}));
    EXPECT_EQ(r.outputs["scan"]->length(0), 0);
}

// Scan: state s (2), scan input X (3 x 2) on axis 0; body s' = s + x_t, output s'.
// Forward: running sums. With reversed input direction and output axis 1 the order flips.
static std::vector<uint8_t> scanModel(std::vector<int> inDir, std::vector<int> outAxes) {
    ModelBuilder mb;
    mb.input("s0", {2});
    mb.input("X", {3, 2});
    SubGraphBuilder b("body");
    b.input("s");
    b.input("x");
    b.binary(Schema::BinaryOpType::ADD, "s", "x", "s_out");
    b.output("s_out");
    b.output("s_out");
    auto op = mb.op(Schema::OpType::Scan, "scan", {"s0", "X"}, {"s_final", "Y"});
    Schema::ControlFlowParamT p;
    p.subgraphs.emplace_back(b.take());
    p.numScanInputs = 1;
    p.scanInputDirections = inDir;
    p.scanOutputAxes = outAxes;
    op->param.Set(p);
    mb.output("s_final");
    mb.output("Y");
    return mb.finish();
}

TEST(ControlFlow, ScanRunningSum) {
    auto s0 = makeTensor({2}, {0, 100});
    auto X = makeTensor({3, 2}, {1, 2, 3, 4, 5, 6});
    auto r = runModel(scanModel({0}, {0}), {{"s0", s0.get()}, {"X", X.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["s_final"].get(), {9, 112}));
    EXPECT_TRUE(tensorClose(r.outputs["Y"].get(), {1, 102, 4, 106, 9, 112}));

    // reverse input: steps see rows 2, 1, 0 -> sums (5,6) (8,10) (9,12); output axis 1 -> Y is 2 x 3
    r = runModel(scanModel({1}, {1}), {{"s0", s0.get()}, {"X", X.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["s_final"].get(), {9, 112}));
    auto Y = r.outputs["Y"].get();
    ASSERT_EQ(Y->dimensions(), 2);
    EXPECT_EQ(Y->length(0), 2);
    EXPECT_EQ(Y->length(1), 3);
    EXPECT_TRUE(tensorClose(Y, {5, 8, 9, 106, 110, 112}));
}

TEST(ControlFlow, ScanBadAxisFails) {
    auto s0 = makeTensor({2}, {0, 0});
    auto X = makeTensor({3, 2}, {1, 2, 3, 4, 5, 6});
    // input axis 5 on a rank-2 input: the session must refuse, not crash
    ModelBuilder mb;
    mb.input("s0", {2});
    mb.input("X", {3, 2});
    SubGraphBuilder b("body");
    b.input("s");
    b.input("x");
    b.binary(Schema::BinaryOpType::ADD, "s", "x", "s_out");
    b.output("s_out");
    auto op = mb.op(Schema::OpType::Scan, "scan", {"s0", "X"}, {"s_final"});
    Schema::ControlFlowParamT p;
    p.subgraphs.emplace_back(b.take());
    p.numScanInputs = 1;
    p.scanInputAxes = {5};
    op->param.Set(p);
    mb.output("s_final");
    auto bad = mb.finish();
    auto r = runModel(bad, {{"s0", s0.get()}, {"X", X.get()}});
    EXPECT_NE(r.code, NO_ERROR);
}

TEST(ControlFlow, IfResizesAfterReleaseModel) {
    auto model = ifModel();
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    auto session = net->createSession(config);
    ASSERT_NE(session, nullptr);
    net->releaseModel();
    auto cond = net->getSessionInput(session, "cond");
    auto x = net->getSessionInput(session, "x");
    net->resizeTensor(x, {4});
    net->resizeSession(session);
    float xs[4] = {1, 2, 3, 4};
    ::memcpy(x->host<float>(), xs, 16);
    cond->host<uint8_t>()[0] = 1;
    ASSERT_EQ(net->runSession(session), NO_ERROR);
    EXPECT_TRUE(tensorClose(net->getSessionOutput(session, "y"), {11, 12, 13, 14}));
}
