// Writes seed models for the fuzzers (small graphs built with the test ModelBuilder).
#include <stdio.h>
#include <string>
#include "ModelBuilder.hpp"

using namespace MNN;
using namespace MNN::Test;

static void save(const std::string& dir, const std::string& name, const std::vector<uint8_t>& buf) {
    FILE* f = fopen((dir + "/" + name).c_str(), "wb");
    if (f) {
        fwrite(buf.data(), 1, buf.size(), f);
        fclose(f);
    }
}

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    std::string dir = argv[1];
    for (int variant = 0; variant < 4; ++variant) {
        ModelBuilder mb;
        mb.input("x", {2, 3});
        mb.constant("c", {3}, {1, 2, 3});
        Schema::BinaryParamT p;
        p.type = (Schema::BinaryOpType)variant;
        mb.op(Schema::OpType::BinaryOp, "op", {"x", "c"}, {"y"})->param.Set(p);
        mb.output("y");
        save(dir, "binary" + std::to_string(variant) + ".mnn", mb.finish());
    }
    return 0;
}
