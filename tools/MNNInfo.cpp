// MNNInfo: what a model holds and costs: FLOPs, inputs / outputs, op counts, parameters,
// activation memory, weight storage by encoding, metadata; optionally a Graphviz graph.
#include <stdio.h>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include "common/ToolCommon.hpp"
#include "core/Schema.hpp"
#include "core/SessionIntrospect.hpp"
#include "core/TensorUtils.hpp"

using namespace MNN;
using namespace MNN::Tools;

static const char* kUsage =
    "Usage: MNNInfo MODEL.mnn [options]\n"
    "Prints a summary (version, bizCode, uuid, op and parameter counts, total FLOPs, planned\n"
    "activation memory, weight bytes by encoding), the inputs and outputs with shapes and types,\n"
    "op counts by type and the FLOPs of every op (CPU session, one thread).\n"
    "\n"
    "Options:\n"
    "  --input-shape NAME:1x3x224x224  shape of an input for the FLOPs and memory (repeatable)\n"
    "  --graph dot            writes the graph in Graphviz dot form: to stdout (and nothing else),\n"
    "                         or to --out FILE after the normal report\n"
    "  --out FILE             where --graph writes\n"
    "  --help                 this text\n"
    "\n"
    "FLOPs count a multiply-add as 2. Parameters are the elements of floating-point constants.\n"
    "Exit status: 0 success, 2 bad command line, 3 the model could not be loaded.\n";

namespace {

struct WeightBytes {
    int64_t fp32 = 0, fp16 = 0, bf16 = 0, int8 = 0, int8Scales = 0, other = 0;
    int64_t parameters = 0;
    int constants = 0;
};

int64_t elements(const Schema::Blob* b) {
    int64_t n = 1;
    if (b->dims()) {
        for (auto d : *b->dims()) {
            n *= d < 0 ? 0 : d;
        }
    }
    return n;
}

void countWeights(const flatbuffers::Vector<flatbuffers::Offset<Schema::Blob>>* blobs, WeightBytes* w) {
    if (!blobs) {
        return;
    }
    for (auto b : *blobs) {
        w->constants++;
        int64_t bytes = b->raw() ? (int64_t)b->raw()->size() : 0;
        auto dt = b->dataType();
        bool isFloat = dt == Schema::DataType::DT_FLOAT || dt == Schema::DataType::DT_FLOAT16 ||
                       dt == Schema::DataType::DT_BFLOAT16 || dt == Schema::DataType::DT_DOUBLE;
        if (b->compression() == Schema::Compression::INT8_PER_CHANNEL) {
            w->int8 += bytes;
            w->int8Scales += b->scales() ? 4 * (int64_t)b->scales()->size() : 0;
        } else if (dt == Schema::DataType::DT_BFLOAT16) {
            w->bf16 += bytes;
        } else if (b->compression() == Schema::Compression::FP16 || dt == Schema::DataType::DT_FLOAT16) {
            w->fp16 += bytes;
        } else if (dt == Schema::DataType::DT_FLOAT) {
            w->fp32 += bytes;
        } else {
            w->other += bytes;
        }
        if (isFloat) {
            w->parameters += elements(b);
        }
    }
}

// op types in the model, subgraphs of control-flow ops counted separately
void countOps(const flatbuffers::Vector<flatbuffers::Offset<Schema::Op>>* ops, std::map<std::string, int>* counts,
              int* subgraphOps, WeightBytes* subgraphWeights, bool top) {
    if (!ops) {
        return;
    }
    for (auto op : *ops) {
        if (top) {
            (*counts)[Schema::EnumNameOpType(op->type())]++;
        } else {
            (*subgraphOps)++;
        }
        auto cf = op->param_as_ControlFlowParam();
        if (cf && cf->subgraphs()) {
            for (auto g : *cf->subgraphs()) {
                countOps(g->ops(), counts, subgraphOps, subgraphWeights, false);
                countWeights(g->constants(), subgraphWeights);
            }
        }
    }
}

bool hasUnknownDims(const Schema::Net* net) {
    if (net->inputs()) {
        for (auto d : *net->inputs()) {
            if (d->dims()) {
                for (auto v : *d->dims()) {
                    if (v < 0) {
                        return true;
                    }
                }
            }
        }
    }
    return false;
}

std::string declString(const Schema::TensorDecl* d) {
    std::string s;
    if (!d->dims() || d->dims()->size() == 0) {
        return "scalar";
    }
    for (flatbuffers::uoffset_t i = 0; i < d->dims()->size(); ++i) {
        int v = d->dims()->Get(i);
        std::string dim = std::to_string(v);
        if (v < 0) {
            // a symbolic dim by name, in braces: 1x3x{height}x{width}
            dim = (d->symbols() && i < d->symbols()->size() && d->symbols()->Get(i)->size())
                      ? "{" + d->symbols()->Get(i)->str() + "}"
                      : "?";
        }
        s += (i ? "x" : "") + dim;
    }
    return s;
}

std::string mb(int64_t bytes) {
    char buf[64];
    snprintf(buf, sizeof(buf), "%.3f MB", (double)bytes / (1024.0 * 1024.0));
    return buf;
}

std::string dotEscape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\') {
            o.push_back('\\');
        }
        o.push_back(c == '\n' ? ' ' : c);
    }
    return o;
}

std::string dotGraph(const Schema::Net* net, const std::vector<SessionIntrospect::OpSummary>& summaries) {
    std::ostringstream g;
    std::map<std::string, std::string> shapeOf;  // tensor name -> "1x3 float32" when the session knows it
    for (auto& s : summaries) {
        for (size_t i = 0; i < s.outputs.size(); ++i) {
            shapeOf[s.outputs[i]] = TensorUtils::shapeString(s.outputShapes[i]) + " " + s.outputTypes[i];
        }
    }
    auto name = [&](int t) -> std::string {
        if (net->tensorNames() && t >= 0 && t < (int)net->tensorNames()->size()) {
            return net->tensorNames()->Get(t)->str();
        }
        return "#" + std::to_string(t);
    };
    g << "digraph \"" << dotEscape(net->version() ? net->version()->str() : "model") << "\" {\n";
    g << "  rankdir=TB;\n  node [shape=box, style=rounded, fontsize=10];\n  edge [fontsize=8];\n";
    int tensorCount = net->tensorNames() ? (int)net->tensorNames()->size() : 0;
    std::vector<int> producer(tensorCount, -1);
    std::vector<bool> isConst(tensorCount, false), isInput(tensorCount, false);
    if (net->constants()) {
        for (auto b : *net->constants()) {
            if (b->tensorIndex() >= 0 && b->tensorIndex() < tensorCount) {
                isConst[b->tensorIndex()] = true;
            }
        }
    }
    if (net->inputs()) {
        for (auto d : *net->inputs()) {
            int t = d->tensorIndex();
            if (t >= 0 && t < tensorCount) {
                isInput[t] = true;
                g << "  \"in" << t << "\" [shape=ellipse, label=\"" << dotEscape(name(t)) << "\\n"
                  << dotEscape(declString(d)) << " " << Schema::EnumNameDataType(d->dataType()) << "\"];\n";
            }
        }
    }
    int opCount = net->ops() ? (int)net->ops()->size() : 0;
    for (int i = 0; i < opCount; ++i) {
        auto op = net->ops()->Get(i);
        int consts = 0;
        if (op->inputs()) {
            for (auto t : *op->inputs()) {
                consts += (t >= 0 && t < tensorCount && isConst[t]) ? 1 : 0;
            }
        }
        g << "  \"op" << i << "\" [label=\"" << dotEscape(op->name() ? op->name()->str() : "") << "\\n"
          << Schema::EnumNameOpType(op->type());
        if (consts) {
            g << "\\n+" << consts << " constant" << (consts > 1 ? "s" : "");
        }
        g << "\"];\n";
        if (op->outputs()) {
            for (auto t : *op->outputs()) {
                if (t >= 0 && t < tensorCount) {
                    producer[t] = i;
                }
            }
        }
    }
    auto edgeLabel = [&](int t) {
        std::string l = dotEscape(name(t));
        auto it = shapeOf.find(name(t));
        if (it != shapeOf.end()) {
            l += "\\n" + dotEscape(it->second);
        }
        return l;
    };
    for (int i = 0; i < opCount; ++i) {
        auto op = net->ops()->Get(i);
        if (!op->inputs()) {
            continue;
        }
        for (auto t : *op->inputs()) {
            if (t < 0 || t >= tensorCount || isConst[t]) {
                continue;
            }
            if (producer[t] >= 0) {
                g << "  \"op" << producer[t] << "\" -> \"op" << i << "\" [label=\"" << edgeLabel(t) << "\"];\n";
            } else if (isInput[t]) {
                g << "  \"in" << t << "\" -> \"op" << i << "\";\n";
            }
        }
    }
    if (net->outputs()) {
        for (auto t : *net->outputs()) {
            if (t < 0 || t >= tensorCount) {
                continue;
            }
            g << "  \"out" << t << "\" [shape=ellipse, label=\"" << dotEscape(name(t)) << "\"];\n";
            if (producer[t] >= 0) {
                g << "  \"op" << producer[t] << "\" -> \"out" << t << "\" [label=\"" << edgeLabel(t) << "\"];\n";
            } else if (isInput[t]) {
                g << "  \"in" << t << "\" -> \"out" << t << "\";\n";
            }
        }
    }
    g << "}\n";
    return g.str();
}

int runTool(int argc, char** argv) {
    ArgParser args;
    for (auto n : {"input-shape", "graph", "out"}) {
        args.option(n);
    }
    if (!args.parse(argc, argv)) {
        printf("%s", kUsage);
        return ExitOk;
    }
    if (args.positional().size() != 1) {
        throw UsageError(args.positional().empty() ? "no model file given" : "expected one model file");
    }
    const std::string path = args.positional()[0];
    const std::string graph = args.get("graph"), out = args.get("out");
    if (args.has("graph") && graph != "dot") {
        throw UsageError("--graph supports only 'dot', got '" + graph + "'");
    }
    if (args.has("out") && !args.has("graph")) {
        throw UsageError("--out is for --graph dot");
    }
    RunOptions options;
    options.threads = 1;
    for (auto& s : args.all("input-shape")) {
        options.shapes.push_back(parseShapeSpec(s));
    }
    if (!fileExists(path)) {
        throw ToolError("model file not found: " + path);
    }
    std::unique_ptr<Interpreter> interp(Interpreter::createFromFile(path.c_str()));
    if (!interp) {
        throw ToolError("could not load model " + path + " (see the [MNN] line above)");
    }
    auto buffer = interp->getModelBuffer();
    auto net = Schema::GetNet(buffer.first);

    // session: shapes, FLOPs, memory
    BackendConfig backendConfig;
    Session* session = nullptr;
    std::string sessionProblem;
    try {
        session = createSession(interp.get(), options, &backendConfig);
        int status = 0;
        interp->getSessionInfo(session, Interpreter::RESIZE_STATUS, &status);
        if (status != 0) {
            // some shapes depend on input values: resolve them with one run on random inputs
            unsigned seed = 0;
            for (auto& kv : interp->getSessionInputAll(session)) {
                fillRandom(kv.second, seed++);
            }
            if (interp->runSession(session) != NO_ERROR) {
                if (!options.shapes.empty()) {
                    throw ToolError("the model does not run at the --input-shape shapes (see the [MNN] lines above)");
                }
                sessionProblem = "the shapes could not be resolved (see the [MNN] lines above)";
                if (hasUnknownDims(net)) {
                    sessionProblem =
                        "the model's unknown input dims, planned as 1, do not fit it: give real shapes "
                        "with --input-shape NAME:DIMS";
                }
                session = nullptr;
            } else {
                sessionProblem = "note: some shapes depend on input values; they come from a run on random inputs";
            }
        }
    } catch (const ToolError& e) {
        if (std::string(e.what()).find("--input-shape") != std::string::npos) {
            throw;
        }
        sessionProblem = e.what();
        session = nullptr;
    }
    std::vector<SessionIntrospect::OpSummary> summaries;
    if (session) {
        summaries = SessionIntrospect::ops(session);
    }

    if (args.has("graph") && out.empty()) {
        printf("%s", dotGraph(net, summaries).c_str());
        return ExitOk;
    }

    WeightBytes weights, subWeights;
    countWeights(net->constants(), &weights);
    std::map<std::string, int> opCounts;
    int subgraphOps = 0;
    countOps(net->ops(), &opCounts, &subgraphOps, &subWeights, true);
    int opCount = net->ops() ? (int)net->ops()->size() : 0;

    printf("Model: %s (%zu bytes)\n", path.c_str(), buffer.second);
    printf("Version: %s\n", interp->getModelVersion());
    printf("bizCode: %s\n", interp->bizCode());
    printf("uuid: %s\n", interp->uuid());
    printf("Ops: %d (%zu types)", opCount, opCounts.size());
    if (subgraphOps) {
        printf(" + %d in subgraphs", subgraphOps);
    }
    printf("  Tensors: %d  Constants: %d\n", net->tensorNames() ? (int)net->tensorNames()->size() : 0,
           weights.constants);
    printf("Parameters: %lld\n", (long long)(weights.parameters + subWeights.parameters));
    float mflops = 0, memory = 0;
    if (session) {
        interp->getSessionInfo(session, Interpreter::FLOPS, &mflops);
        interp->getSessionInfo(session, Interpreter::MEMORY, &memory);
        printf("Total FLOPs: %.3f GFLOPs\n", mflops / 1000.0);
        int64_t arena = SessionIntrospect::activationBytes(session);
        printf("Activation memory: %s (%lld bytes, planned arena)\n", mb(arena).c_str(), (long long)arena);
        printf("Session memory: %.3f MB (arena + weights + inputs)\n", memory);
    } else {
        printf("Total FLOPs: unavailable (%s)\n", sessionProblem.c_str());
    }
    printf("Weights: fp32 %lld bytes, fp16 %lld bytes, int8 %lld bytes", (long long)weights.fp32,
           (long long)weights.fp16, (long long)weights.int8);
    if (weights.int8Scales) {
        printf(" (+%lld bytes of scales)", (long long)weights.int8Scales);
    }
    if (weights.bf16) {
        printf(", bf16 %lld bytes", (long long)weights.bf16);
    }
    printf(", other %lld bytes\n", (long long)weights.other);
    if (session && !sessionProblem.empty()) {
        printf("%s\n", sessionProblem.c_str());
    }

    printf("\nInputs:\n");
    if (net->inputs()) {
        for (auto d : *net->inputs()) {
            std::string n =
                net->tensorNames() && d->tensorIndex() >= 0 && d->tensorIndex() < (int)net->tensorNames()->size()
                    ? net->tensorNames()->Get(d->tensorIndex())->str()
                    : "?";
            printf("  %s: %s %s", n.c_str(), declString(d).c_str(),
                   TensorUtils::typeName(TensorUtils::typeOf(d->dataType())));
            if (session) {
                auto t = interp->getSessionInputAll(session);
                auto it = t.find(n);
                if (it != t.end()) {
                    printf("  (session: %s)", tensorShapeString(it->second).c_str());
                }
            }
            printf("\n");
        }
    }
    printf("Outputs:\n");
    if (session) {
        for (auto& kv : interp->getSessionOutputAll(session)) {
            printf("  %s: %s %s\n", kv.first.c_str(), tensorShapeString(kv.second).c_str(),
                   tensorTypeName(kv.second).c_str());
        }
    } else if (net->outputs()) {
        for (auto t : *net->outputs()) {
            printf("  %s\n", t >= 0 && net->tensorNames() && t < (int)net->tensorNames()->size()
                                 ? net->tensorNames()->Get(t)->c_str()
                                 : "?");
        }
    }

    printf("\nOp counts:\n");
    std::vector<std::pair<std::string, int>> sortedCounts(opCounts.begin(), opCounts.end());
    std::stable_sort(
        sortedCounts.begin(), sortedCounts.end(),
        [](const std::pair<std::string, int>& a, const std::pair<std::string, int>& b) { return a.second > b.second; });
    for (auto& c : sortedCounts) {
        printf("  %-24s %d\n", c.first.c_str(), c.second);
    }

    if (session) {
        printf("\nFLOPs per op (run order):\n");
        size_t nameW = 4, typeW = 4;
        for (auto& s : summaries) {
            nameW = std::max(nameW, std::min<size_t>(s.name.size(), 48));
            typeW = std::max(typeW, s.type.size());
        }
        printf("  %-*s  %-*s  %14s  %7s\n", (int)nameW, "Op", (int)typeW, "Type", "MFLOPs", "%");
        double total = 0;
        for (auto& s : summaries) {
            total += s.flops;
        }
        for (auto& s : summaries) {
            printf("  %-*s  %-*s  %14.6f  %6.2f%%\n", (int)nameW, s.name.c_str(), (int)typeW, s.type.c_str(),
                   s.flops / 1e6, total > 0 ? 100.0 * s.flops / total : 0.0);
        }
        printf("  %-*s  %-*s  %14.6f  %6.2f%%\n", (int)nameW, "Total", (int)typeW, "", total / 1e6, 100.0);
    }

    if (args.has("graph")) {
        std::ofstream f(out);
        f << dotGraph(net, summaries);
        if (!f) {
            throw ToolError("--out: cannot write " + out);
        }
        printf("\nGraph written to %s\n", out.c_str());
    }
    return ExitOk;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return runTool(argc, argv);
    } catch (const UsageError& e) {
        fprintf(stderr, "MNNInfo: error: %s\nRun 'MNNInfo --help' for usage.\n", e.what());
        return ExitUsage;
    } catch (const std::exception& e) {
        fprintf(stderr, "MNNInfo: error: %s\n", e.what());
        return ExitRuntime;
    }
}
