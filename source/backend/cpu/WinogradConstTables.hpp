// The F(m, alpha + 1 - m) transform matrices B^T (alpha x alpha, the same for every m) and A^T
// (m x alpha) as compile-time constants for the packed kernels' pairs (alpha, m) = (4, 2), (6, 4),
// (8, 6) (3x3 windows), (6, 2), (8, 4) (5x5 windows), (7, 4) (the 4x4 window of a space-to-depth stem) and the 1-D (8,
// 2), (10, 4), (12, 6) (1x7 / 7x1 windows), (10, 6) (1x5 / 5x1), and the stride-2 3x3 pairs (5, 2), (7, 3)
// (makeStride2Tables): the same construction as makeWinogradMatrices (WinogradMatrices.hpp: the first alpha - 1 of the
// points 0, 1, -1, 2, -2, 1/2, -1/2, 3, -3, 1/3, -1/3 and infinity, B^T = V^-T with row j scaled by f_j, entries within
// 1e-9 of a multiple of 1/1024 snapped to it) evaluated by the compiler, so that the packed transform kernels fold
// their zero, +1 and -1 entries away instead of testing each coefficient per tile. WinogradPacked tests check them
// against the generator.
#ifndef MNN_CPU_WINOGRADCONSTTABLES_HPP
#define MNN_CPU_WINOGRADCONSTTABLES_HPP

namespace MNN {
namespace wino {

constexpr int kMaxAlpha = 12;

constexpr double point(int j) {
    constexpr double kPoints[] = {0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 1.0 / 3.0, -1.0 / 3.0};
    return kPoints[j];
}

constexpr double absd(double v) {
    return v < 0 ? -v : v;
}

/** nearest integer, ties to even (nearbyint in the default rounding mode), |v| < 2^52 */
constexpr double roundEven(double v) {
    const double s = v < 0 ? -1.0 : 1.0;
    const double a = absd(v);
    const double fl = (double)(long long)a;
    const double diff = a - fl;
    double r = fl;
    if (diff > 0.5 || (diff == 0.5 && ((long long)fl % 2) != 0)) {
        r = fl + 1.0;
    }
    return s * r;
}

struct Tables {
    float bt[kMaxAlpha * kMaxAlpha] = {};  // alpha x alpha
    float at[kMaxAlpha * kMaxAlpha] = {};  // m x alpha
};

constexpr Tables makeTables(int alpha, int m) {
    const int n = alpha - 1;
    double v[kMaxAlpha * kMaxAlpha] = {};
    double inv[kMaxAlpha * kMaxAlpha] = {};
    for (int j = 0; j < n; ++j) {
        double p = 1.0;
        for (int i = 0; i < alpha; ++i, p *= point(j)) {
            v[j * alpha + i] = p;
        }
    }
    v[n * alpha + alpha - 1] = 1.0;
    for (int i = 0; i < alpha; ++i) {
        inv[i * alpha + i] = 1.0;
    }
    // Gauss-Jordan with partial pivoting, as in WinogradMatrices.cpp
    for (int col = 0; col < alpha; ++col) {
        int pivot = col;
        for (int i = col + 1; i < alpha; ++i) {
            if (absd(v[i * alpha + col]) > absd(v[pivot * alpha + col])) {
                pivot = i;
            }
        }
        for (int k = 0; k < alpha; ++k) {
            double t = v[col * alpha + k];
            v[col * alpha + k] = v[pivot * alpha + k];
            v[pivot * alpha + k] = t;
            t = inv[col * alpha + k];
            inv[col * alpha + k] = inv[pivot * alpha + k];
            inv[pivot * alpha + k] = t;
        }
        const double p = v[col * alpha + col];
        for (int k = 0; k < alpha; ++k) {
            v[col * alpha + k] /= p;
            inv[col * alpha + k] /= p;
        }
        for (int i = 0; i < alpha; ++i) {
            const double f = v[i * alpha + col];
            if (i == col || f == 0.0) {
                continue;
            }
            for (int k = 0; k < alpha; ++k) {
                v[i * alpha + k] -= f * v[col * alpha + k];
                inv[i * alpha + k] -= f * inv[col * alpha + k];
            }
        }
    }
    double f[kMaxAlpha] = {};
    for (int j = 0; j < alpha; ++j) {
        f[j] = 1.0;
    }
    for (int j = 0; j < n; ++j) {
        for (int l = 0; l < n; ++l) {
            if (l != j) {
                f[j] *= point(j) - point(l);
            }
        }
    }
    Tables t;
    for (int j = 0; j < alpha; ++j) {
        for (int i = 0; i < alpha; ++i) {
            const double e = inv[i * alpha + j] * f[j];
            const double rounded = roundEven(e * 1024.0) / 1024.0;
            t.bt[j * alpha + i] = (float)(absd(e - rounded) < 1e-9 ? rounded : e);
        }
    }
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
            double p = 1.0;
            for (int k = 0; k < i; ++k) {
                p *= point(j);
            }
            t.at[i * alpha + j] = (float)p;
        }
        t.at[i * alpha + n] = i == m - 1 ? 1.0f : 0.0f;
    }
    return t;
}

template <int ALPHA, int M = ALPHA - 2>
struct ConstTables {
    static constexpr Tables value = makeTables(ALPHA, M);
};
template <int ALPHA, int M>
constexpr Tables ConstTables<ALPHA, M>::value;

/**
 * B^T (alpha x alpha) and A^T (m x alpha) of a 3-tap window at stride 2, alpha = 2m + 1, as
 * makeStride2WinogradMatrices builds them: F(m, 2)'s tables on the even samples (points 0..m),
 * the odd samples passed through (points m + 1 .. 2m)
 */
constexpr Tables makeStride2Tables(int m) {
    const int alpha = 2 * m + 1, ae = m + 1;
    const Tables e = makeTables(ae, m);
    Tables t;
    for (int a = 0; a < ae; ++a) {
        for (int i = 0; i < ae; ++i) {
            t.bt[a * alpha + 2 * i] = e.bt[a * ae + i];
        }
        for (int i = 0; i < m; ++i) {
            t.at[i * alpha + a] = e.at[i * ae + a];
        }
    }
    for (int j = 0; j < m; ++j) {
        t.bt[(ae + j) * alpha + 2 * j + 1] = 1.0f;
        t.at[j * alpha + ae + j] = 1.0f;
    }
    return t;
}

template <int M>
struct Stride2Tables {
    static constexpr Tables value = makeStride2Tables(M);
};
template <int M>
constexpr Tables Stride2Tables<M>::value;

/**
 * A transform's rows / columns that pair as the points p, -p do (B^T rows: bt[a + 1][i] =
 * (-1)^i bt[a][i]; A^T columns: at[b][j + 1] = (-1)^b at[b][j]), found from the tables themselves:
 * a paired row pair is E + O and E - O of its even- and odd-index parts (one sum of each instead of
 * two full dot products), a paired column pair is read as x_j + x_j+1 by even rows and x_j - x_j+1
 * by odd rows (formed once, not once per row). The pairs of F(m, r)'s points 1, -1, 2, -2, 1/2, -1/2
 * take a third of the even alphas' transform arithmetic away.
 */
struct Paired {
    int pairB[kMaxAlpha] = {};                   // 1: rows a, a + 1 of B^T pair; 2: a's second row; 0: alone
    float btEven[kMaxAlpha * kMaxAlpha] = {};    // a paired row's even-index entries (others 0)
    float btOdd[kMaxAlpha * kMaxAlpha] = {};     // its odd-index entries
    int pairA[kMaxAlpha] = {};                   // 1: columns j, j + 1 of A^T pair; 2: the second; 0: alone
    float atPaired[kMaxAlpha * kMaxAlpha] = {};  // m x alpha: A^T over x' (x'_j = x_j + x_j+1, x'_j+1 = x_j - x_j+1)
};

constexpr Paired makePaired(const Tables& t, int alpha, int m) {
    Paired p;
    for (int a = 0; a + 1 < alpha;) {
        bool pair = true, even = false, odd = false;
        for (int i = 0; i < alpha; ++i) {
            const float x = t.bt[a * alpha + i], y = t.bt[(a + 1) * alpha + i];
            pair = pair && y == (i % 2 == 0 ? x : -x);
            even = even || (i % 2 == 0 && x != 0.0f);
            odd = odd || (i % 2 == 1 && x != 0.0f);
        }
        if (!(pair && even && odd)) {
            ++a;
            continue;
        }
        p.pairB[a] = 1;
        p.pairB[a + 1] = 2;
        for (int i = 0; i < alpha; ++i) {
            (i % 2 == 0 ? p.btEven : p.btOdd)[a * alpha + i] = t.bt[a * alpha + i];
        }
        a += 2;
    }
    for (int b = 0; b < m; ++b) {
        for (int j = 0; j < alpha; ++j) {
            p.atPaired[b * alpha + j] = t.at[b * alpha + j];
        }
    }
    for (int j = 0; j + 1 < alpha;) {
        bool pair = t.at[j] != 0.0f;  // row 0 (the point's power 0) reads both columns
        for (int b = 0; b < m; ++b) {
            const float x = t.at[b * alpha + j], y = t.at[b * alpha + j + 1];
            pair = pair && y == (b % 2 == 0 ? x : -x);
        }
        if (!pair) {
            ++j;
            continue;
        }
        p.pairA[j] = 1;
        p.pairA[j + 1] = 2;
        for (int b = 0; b < m; ++b) {
            // even rows read the sum (at j), odd rows the difference (at j + 1)
            p.atPaired[b * alpha + j] = b % 2 == 0 ? t.at[b * alpha + j] : 0.0f;
            p.atPaired[b * alpha + j + 1] = b % 2 == 0 ? 0.0f : t.at[b * alpha + j];
        }
        j += 2;
    }
    return p;
}

template <class TT, int ALPHA, int M>
struct PairedTables {
    static constexpr Paired value = makePaired(TT::value, ALPHA, M);
};
template <class TT, int ALPHA, int M>
constexpr Paired PairedTables<TT, ALPHA, M>::value;

}  // namespace wino
}  // namespace MNN
#endif
