// MNNConvert -f ONNX --modelFile in.onnx --MNNModel out.mnn [options]
#include <MNNConverter.hpp>
#include "ModelInfo.hpp"
#include "Npy.hpp"
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

static void usage(std::ostream& os) {
    os << "usage: MNNConvert -f ONNX --modelFile in.onnx --MNNModel out.mnn [options]\n"
          "  -f, --framework ONNX        source format (only ONNX)\n"
          "  --modelFile PATH            the ONNX model (external data files are read from its folder)\n"
          "  --MNNModel PATH             the .mnn file to write\n"
          "  --bizCode NAME              business code stored in the model (default MNN)\n"
          "  --fp16                      store float weights as fp16, except those whose rounding moves\n"
          "                              the outputs most (measured on a calibration input; see below)\n"
          "  --fp16Target E              with --fp16: keep weights float until the output error\n"
          "                              max|fp16 - float| / max|float| is at most E (default 2e-3;\n"
          "                              0: every weight fp16, nothing measured)\n"
          "  --fp16Input NAME=FILE.npy   calibration input for --fp16 (repeatable; others: N(0,1) values\n"
          "                              from a fixed seed, unknown dims 1)\n"
          "  --weightQuantBits 8         store Conv/Gemm/MatMul weights as int8 per output channel\n"
          "  --inputShape name:1x3x224x224   pin an input's dims (repeatable)\n"
          "  --noOptimize                skip the graph passes\n"
          "  --info                      print a summary of the written model\n"
          "  --help                      this text\n";
}

static bool parseShape(const std::string& arg, std::string* name, std::vector<int>* dims) {
    auto colon = arg.rfind(':');
    if (colon == std::string::npos || colon == 0) {
        return false;
    }
    *name = arg.substr(0, colon);
    std::string rest = arg.substr(colon + 1);
    dims->clear();
    if (rest.empty()) {
        return true;  // rank 0
    }
    std::stringstream ss(rest);
    std::string part;
    while (std::getline(ss, part, 'x')) {
        if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 9) {
            return false;
        }
        dims->push_back(std::atoi(part.c_str()));
    }
    return true;
}

int main(int argc, char** argv) {
    MNN::Convert::Options options;
    std::string framework, modelFile, mnnModel;
    bool info = false;
    if (argc <= 1) {
        usage(std::cerr);
        return 1;
    }
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&](std::string* v) {
            if (i + 1 >= argc) {
                std::cerr << "MNNConvert: " << a << " needs a value\n";
                usage(std::cerr);
                std::exit(1);
            }
            *v = argv[++i];
        };
        std::string v;
        if (a == "--help" || a == "-h") {
            usage(std::cout);
            return 0;
        } else if (a == "-f" || a == "--framework") {
            next(&framework);
        } else if (a == "--modelFile") {
            next(&modelFile);
        } else if (a == "--MNNModel") {
            next(&mnnModel);
        } else if (a == "--bizCode") {
            next(&options.bizCode);
        } else if (a == "--fp16") {
            options.fp16 = true;
        } else if (a == "--fp16Target") {
            next(&v);
            char* end = nullptr;
            double t = std::strtod(v.c_str(), &end);
            if (v.empty() || *end != 0 || !(t >= 0) || t > 1) {
                std::cerr << "MNNConvert: --fp16Target expects a number in [0, 1], got '" << v << "'\n";
                return 1;
            }
            options.fp16Target = t;
        } else if (a == "--fp16Input") {
            next(&v);
            auto eq = v.find('=');
            if (eq == std::string::npos || eq == 0) {
                std::cerr << "MNNConvert: --fp16Input expects NAME=FILE.npy, got '" << v << "'\n";
                return 1;
            }
            MNN::Npy::Array arr;
            std::string err;
            if (!MNN::Npy::read(v.substr(eq + 1), &arr, &err)) {
                std::cerr << "MNNConvert: --fp16Input " << v << ": " << err << "\n";
                return 1;
            }
            auto values = arr.toDouble();
            std::vector<int> dims(arr.shape.begin(), arr.shape.end());
            options.calibrationInputs[v.substr(0, eq)] = {dims, std::vector<float>(values.begin(), values.end())};
        } else if (a == "--weightQuantBits") {
            next(&v);
            if (v != "8") {
                std::cerr << "MNNConvert: --weightQuantBits supports only 8, got '" << v << "'\n";
                return 1;
            }
            options.weightQuantBits = 8;
        } else if (a == "--inputShape") {
            next(&v);
            std::string name;
            std::vector<int> dims;
            if (!parseShape(v, &name, &dims)) {
                std::cerr << "MNNConvert: --inputShape expects name:1x3x224x224, got '" << v << "'\n";
                return 1;
            }
            options.inputShapes[name] = dims;
        } else if (a == "--noOptimize") {
            options.optimize = false;
        } else if (a == "--info") {
            info = true;
        } else {
            std::cerr << "MNNConvert: unknown argument '" << a << "'\n";
            usage(std::cerr);
            return 1;
        }
    }
    if (framework != "ONNX" && framework != "onnx") {
        std::cerr << "MNNConvert: -f ONNX is required (got '" << framework << "')\n";
        usage(std::cerr);
        return 1;
    }
    if (modelFile.empty() || mnnModel.empty()) {
        std::cerr << "MNNConvert: --modelFile and --MNNModel are required\n";
        usage(std::cerr);
        return 1;
    }
    std::ifstream probe(modelFile, std::ios::binary);
    if (!probe) {
        std::cerr << "MNNConvert: cannot open model file " << modelFile << "\n";
        return 1;
    }
    probe.close();
    auto r = MNN::Convert::convertOnnxFile(modelFile, options);
    if (!r.unsupported.empty()) {
        std::cerr << "MNNConvert: " << r.unsupported.size() << " unsupported op(s) in " << modelFile << ":\n";
        for (auto& u : r.unsupported) {
            std::cerr << "  " << u.first << "  (node '" << u.second << "')\n";
        }
        std::cerr << "MNNConvert: " << r.error << "\n";
        return 2;
    }
    if (!r.ok) {
        std::cerr << "MNNConvert: conversion failed: " << r.error << "\n";
        return 1;
    }
    std::ofstream out(mnnModel, std::ios::binary);
    if (!out || !out.write((const char*)r.model.data(), (std::streamsize)r.model.size())) {
        std::cerr << "MNNConvert: cannot write " << mnnModel << "\n";
        return 1;
    }
    out.close();
    if (!out) {
        std::cerr << "MNNConvert: writing " << mnnModel << " failed\n";
        return 1;
    }
    if (options.fp16) {
        std::cout << "MNNConvert: " << r.fp16.line() << "\n";
    }
    std::cout << "MNNConvert: wrote " << mnnModel << " (" << r.model.size() << " bytes)\n";
    if (info) {
        std::cout << MNN::Convert::describeModel(r.model);
    }
    return 0;
}
