#include "EinsumPlan.hpp"
#include <stdio.h>

namespace MNN {

static const int kLetters = 52;
static const int kEllipsis = -1;

static int letterId(char c) {
    if (c >= 'a' && c <= 'z') {
        return c - 'a' + 26;  // ASCII order: uppercase first
    }
    if (c >= 'A' && c <= 'Z') {
        return c - 'A';
    }
    return -2;
}

static bool parseTerm(const std::string& s, std::vector<int>* term, std::string* err) {
    bool seenEllipsis = false;
    for (size_t i = 0; i < s.size();) {
        if (s[i] == '.') {
            if (seenEllipsis || s.compare(i, 3, "...") != 0) {
                *err = "bad ellipsis in term '" + s + "'";
                return false;
            }
            seenEllipsis = true;
            term->push_back(kEllipsis);
            i += 3;
            continue;
        }
        int id = letterId(s[i]);
        if (id < 0) {
            *err = std::string("invalid character '") + s[i] + "' in term '" + s + "'";
            return false;
        }
        term->push_back(id);
        ++i;
    }
    return true;
}

bool buildEinsumPlan(const std::string& equation, const std::vector<std::vector<int>>& shapes, EinsumPlan* plan,
                     std::string* err) {
    std::string eq;
    for (char c : equation) {
        if (c != ' ' && c != '\t' && c != '\n') {
            eq.push_back(c);
        }
    }
    std::string lhs = eq, rhs;
    const size_t arrow = eq.find("->");
    const bool explicitOut = arrow != std::string::npos;
    if (explicitOut) {
        lhs = eq.substr(0, arrow);
        rhs = eq.substr(arrow + 2);
    }
    std::vector<std::vector<int>> terms;
    size_t start = 0;
    while (true) {
        size_t comma = lhs.find(',', start);
        std::vector<int> term;
        if (!parseTerm(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start), &term,
                       err)) {
            return false;
        }
        terms.push_back(term);
        if (comma == std::string::npos) {
            break;
        }
        start = comma + 1;
    }
    if (terms.size() != shapes.size()) {
        *err = "equation has " + std::to_string(terms.size()) + " operand terms but there are " +
               std::to_string(shapes.size()) + " inputs";
        return false;
    }
    // label dims and ellipsis dims
    std::vector<int> dims(kLetters, -1);
    std::vector<int> count(kLetters, 0);
    std::vector<int> ellRank(terms.size(), 0);
    int maxEll = 0;
    for (size_t k = 0; k < terms.size(); ++k) {
        int letters = 0;
        bool ell = false;
        for (int id : terms[k]) {
            if (id == kEllipsis) {
                ell = true;
            } else {
                letters++;
            }
        }
        const int rank = (int)shapes[k].size();
        if (ell ? letters > rank : letters != rank) {
            *err = "term " + std::to_string(k) + " has " + std::to_string(letters) + " labels for an input of rank " +
                   std::to_string(rank);
            return false;
        }
        ellRank[k] = ell ? rank - letters : 0;
        maxEll = ellRank[k] > maxEll ? ellRank[k] : maxEll;
    }
    std::vector<int> ellDims(maxEll, 1);
    for (size_t k = 0; k < terms.size(); ++k) {
        int axis = 0;
        for (int id : terms[k]) {
            if (id == kEllipsis) {
                for (int e = 0; e < ellRank[k]; ++e) {
                    int d = shapes[k][axis + e];
                    int& slot = ellDims[maxEll - ellRank[k] + e];
                    if (d != 1 && slot != 1 && d != slot) {
                        *err = "ellipsis dims of input " + std::to_string(k) + " do not broadcast";
                        return false;
                    }
                    if (d != 1) {
                        slot = d;
                    }
                }
                axis += ellRank[k];
                continue;
            }
            const int d = shapes[k][axis++];
            count[id]++;
            if (dims[id] < 0 || dims[id] == 1) {
                dims[id] = d;
            } else if (d != 1 && d != dims[id]) {
                *err = std::string("label '") + (char)(id < 26 ? 'A' + id : 'a' + id - 26) + "' has sizes " +
                       std::to_string(dims[id]) + " and " + std::to_string(d);
                return false;
            }
        }
    }
    // output labels: ids >= kLetters stand for ellipsis dims
    std::vector<int> out;
    if (explicitOut) {
        std::vector<int> outTerm;
        if (!parseTerm(rhs, &outTerm, err)) {
            return false;
        }
        bool ell = false;
        std::vector<bool> used(kLetters, false);
        for (int id : outTerm) {
            if (id == kEllipsis) {
                ell = true;
                for (int e = 0; e < maxEll; ++e) {
                    out.push_back(kLetters + e);
                }
                continue;
            }
            if (count[id] == 0 || used[id]) {
                *err = std::string("output label '") + (char)(id < 26 ? 'A' + id : 'a' + id - 26) +
                       (used[id] ? "' is repeated" : "' is not in any input");
                return false;
            }
            used[id] = true;
            out.push_back(id);
        }
        if (!ell && maxEll > 0) {
            *err = "inputs have ellipsis dims but the output has no '...'";
            return false;
        }
    } else {
        for (int e = 0; e < maxEll; ++e) {
            out.push_back(kLetters + e);
        }
        for (int id = 0; id < kLetters; ++id) {
            if (count[id] == 1) {
                out.push_back(id);
            }
        }
    }
    // loop labels: output first, then the summed letters
    std::vector<int> loop = out;
    for (int id = 0; id < kLetters; ++id) {
        bool inOut = false;
        for (int o : out) {
            inOut = inOut || o == id;
        }
        if (count[id] > 0 && !inOut) {
            loop.push_back(id);
        }
    }
    std::vector<int> position(kLetters + maxEll, -1);
    plan->labelDims.clear();
    for (size_t l = 0; l < loop.size(); ++l) {
        position[loop[l]] = (int)l;
        plan->labelDims.push_back(loop[l] >= kLetters ? ellDims[loop[l] - kLetters] : dims[loop[l]]);
    }
    plan->numOut = (int)out.size();
    plan->inputStrides.assign(terms.size(), std::vector<int64_t>(loop.size(), 0));
    for (size_t k = 0; k < terms.size(); ++k) {
        const auto& shape = shapes[k];
        std::vector<int64_t> st(shape.size(), 1);
        for (int i = (int)shape.size() - 2; i >= 0; --i) {
            st[i] = st[i + 1] * shape[i + 1];
        }
        int axis = 0;
        for (int id : terms[k]) {
            if (id == kEllipsis) {
                for (int e = 0; e < ellRank[k]; ++e) {
                    if (shape[axis + e] != 1) {
                        plan->inputStrides[k][position[kLetters + maxEll - ellRank[k] + e]] += st[axis + e];
                    }
                }
                axis += ellRank[k];
                continue;
            }
            if (shape[axis] != 1) {
                plan->inputStrides[k][position[id]] += st[axis];
            }
            axis++;
        }
    }
    // repeated labels inside one term (a diagonal) need equal sizes, not broadcast
    for (size_t k = 0; k < terms.size(); ++k) {
        int axis = 0;
        std::vector<int> seen(kLetters, -1);
        for (int id : terms[k]) {
            if (id == kEllipsis) {
                axis += ellRank[k];
                continue;
            }
            const int d = shapes[k][axis++];
            if (seen[id] >= 0 && seen[id] != d) {
                *err = "repeated label in term " + std::to_string(k) + " has sizes " + std::to_string(seen[id]) +
                       " and " + std::to_string(d);
                return false;
            }
            seen[id] = d;
        }
    }
    return true;
}

} // namespace MNN
