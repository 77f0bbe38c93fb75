// Shared by the LSTM / GRU / RNN shape functions and CPU kernels: gate counts and the activation
// functions named in RnnParam.activations (ONNX RNN activation list, case-insensitive).
#ifndef MNN_SHAPE_RNNCOMMON_HPP
#define MNN_SHAPE_RNNCOMMON_HPP

#include <math.h>
#include <string>
#include <vector>
#include "ShapeUtils.hpp"

namespace MNN {

enum class RnnKind { LSTM = 0, GRU = 1, RNN = 2 };

inline int rnnGateCount(RnnKind k) {
    return k == RnnKind::LSTM ? 4 : (k == RnnKind::GRU ? 3 : 1);
}
/** activations per direction: LSTM f, g, h; GRU f, g; RNN f */
inline int rnnActivationCount(RnnKind k) {
    return k == RnnKind::LSTM ? 3 : (k == RnnKind::GRU ? 2 : 1);
}

enum class RnnActType {
    Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign, Softplus
};

struct RnnAct {
    RnnActType type = RnnActType::Sigmoid;
    float alpha = 0.0f;
    float beta = 0.0f;
};

inline float rnnApply(const RnnAct& a, float x) {
    switch (a.type) {
        case RnnActType::Relu: return x > 0.0f ? x : 0.0f;
        case RnnActType::Tanh: return tanhf(x);
        case RnnActType::Sigmoid: return 1.0f / (1.0f + expf(-x));
        case RnnActType::Affine: return a.alpha * x + a.beta;
        case RnnActType::LeakyRelu: return x >= 0.0f ? x : a.alpha * x;
        case RnnActType::ThresholdedRelu: return x > a.alpha ? x : 0.0f;
        case RnnActType::ScaledTanh: return a.alpha * tanhf(a.beta * x);
        case RnnActType::HardSigmoid: {
            float v = a.alpha * x + a.beta;
            return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
        }
        case RnnActType::Elu: return x >= 0.0f ? x : a.alpha * (expf(x) - 1.0f);
        case RnnActType::Softsign: return x / (1.0f + fabsf(x));
        case RnnActType::Softplus: return x > 20.0f ? x : log1pf(expf(x));
    }
    return x;
}

/**
 * Activations for every direction (numDir * rnnActivationCount entries, forward first). An empty list
 * gives ONNX's defaults; a list for one direction is reused for the reverse one. activationAlpha /
 * activationBeta are consumed in order by the functions that take them (Affine, LeakyRelu,
 * ThresholdedRelu, ScaledTanh, HardSigmoid, Elu); missing values take ONNX's operator defaults.
 */
inline bool rnnParseActivations(const Schema::RnnParam* p, RnnKind kind, int numDir, std::vector<RnnAct>* out,
                                std::string* err) {
    const int per = rnnActivationCount(kind);
    std::vector<std::string> names;
    if (p->activations()) {
        for (auto s : *p->activations()) {
            names.push_back(s ? s->str() : std::string());
        }
    }
    if (names.empty()) {
        for (int d = 0; d < numDir; ++d) {
            if (kind == RnnKind::LSTM) {
                names.insert(names.end(), {"sigmoid", "tanh", "tanh"});
            } else if (kind == RnnKind::GRU) {
                names.insert(names.end(), {"sigmoid", "tanh"});
            } else {
                names.push_back("tanh");
            }
        }
    } else if ((int)names.size() == per && numDir == 2) {
        auto copy = names;
        names.insert(names.end(), copy.begin(), copy.end());
    }
    if ((int)names.size() != per * numDir) {
        *err = "activations has " + std::to_string(names.size()) + " entries, expected " +
               std::to_string(per * numDir);
        return false;
    }
    std::vector<float> alphas, betas;
    if (p->activationAlpha()) {
        alphas.assign(p->activationAlpha()->begin(), p->activationAlpha()->end());
    }
    if (p->activationBeta()) {
        betas.assign(p->activationBeta()->begin(), p->activationBeta()->end());
    }
    size_t ai = 0, bi = 0;
    auto nextAlpha = [&](float def) { return ai < alphas.size() ? alphas[ai++] : def; };
    auto nextBeta = [&](float def) { return bi < betas.size() ? betas[bi++] : def; };
    out->clear();
    for (auto& n : names) {
        std::string l;
        for (char c : n) {
            l.push_back((c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c);
        }
        RnnAct a;
        if (l == "relu") {
            a.type = RnnActType::Relu;
        } else if (l == "tanh") {
            a.type = RnnActType::Tanh;
        } else if (l == "sigmoid") {
            a.type = RnnActType::Sigmoid;
        } else if (l == "affine") {
            a.type = RnnActType::Affine;
            a.alpha = nextAlpha(1.0f);
            a.beta = nextBeta(0.0f);
        } else if (l == "leakyrelu") {
            a.type = RnnActType::LeakyRelu;
            a.alpha = nextAlpha(0.01f);
        } else if (l == "thresholdedrelu") {
            a.type = RnnActType::ThresholdedRelu;
            a.alpha = nextAlpha(1.0f);
        } else if (l == "scaledtanh") {
            a.type = RnnActType::ScaledTanh;
            a.alpha = nextAlpha(1.0f);
            a.beta = nextBeta(1.0f);
        } else if (l == "hardsigmoid") {
            a.type = RnnActType::HardSigmoid;
            a.alpha = nextAlpha(0.2f);
            a.beta = nextBeta(0.5f);
        } else if (l == "elu") {
            a.type = RnnActType::Elu;
            a.alpha = nextAlpha(1.0f);
        } else if (l == "softsign") {
            a.type = RnnActType::Softsign;
        } else if (l == "softplus") {
            a.type = RnnActType::Softplus;
        } else {
            *err = "unknown activation '" + n + "'";
            return false;
        }
        out->push_back(a);
    }
    return true;
}

} // namespace MNN
#endif
