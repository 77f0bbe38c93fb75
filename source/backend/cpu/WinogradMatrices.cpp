#include "WinogradMatrices.hpp"
#include <math.h>

namespace MNN {

static double interpolationPoint(int j) {
    // 0, 1, -1, 2, -2, 1/2, -1/2, 3, -3, 1/3, -1/3
    static const double kPoints[] = {0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 1.0 / 3.0, -1.0 / 3.0};
    return kPoints[j];
}

// inverts the n x n matrix a (row-major) by Gauss-Jordan with partial pivoting
static bool invert(std::vector<double> a, int n, std::vector<double>* inv) {
    inv->assign((size_t)n * n, 0.0);
    for (int i = 0; i < n; ++i) {
        (*inv)[(size_t)i * n + i] = 1.0;
    }
    for (int col = 0; col < n; ++col) {
        int pivot = col;
        for (int i = col + 1; i < n; ++i) {
            if (fabs(a[(size_t)i * n + col]) > fabs(a[(size_t)pivot * n + col])) {
                pivot = i;
            }
        }
        if (fabs(a[(size_t)pivot * n + col]) < 1e-12) {
            return false;
        }
        for (int k = 0; k < n; ++k) {
            double t = a[(size_t)col * n + k];
            a[(size_t)col * n + k] = a[(size_t)pivot * n + k];
            a[(size_t)pivot * n + k] = t;
            t = (*inv)[(size_t)col * n + k];
            (*inv)[(size_t)col * n + k] = (*inv)[(size_t)pivot * n + k];
            (*inv)[(size_t)pivot * n + k] = t;
        }
        const double p = a[(size_t)col * n + col];
        for (int k = 0; k < n; ++k) {
            a[(size_t)col * n + k] /= p;
            (*inv)[(size_t)col * n + k] /= p;
        }
        for (int i = 0; i < n; ++i) {
            const double f = a[(size_t)i * n + col];
            if (i == col || f == 0.0) {
                continue;
            }
            for (int k = 0; k < n; ++k) {
                a[(size_t)i * n + k] -= f * a[(size_t)col * n + k];
                (*inv)[(size_t)i * n + k] -= f * (*inv)[(size_t)col * n + k];
            }
        }
    }
    return true;
}

bool makeWinogradMatrices(int m, int r, WinogradMatrices* out) {
    const int alpha = m + r - 1;
    if (m < 1 || r < 1 || alpha < 2 || alpha > 12) {
        return false;
    }
    const int n = alpha - 1;  // finite points
    std::vector<double> pts((size_t)n);
    for (int j = 0; j < n; ++j) {
        pts[j] = interpolationPoint(j);
    }
    // V[j][i] = a_j^i (j < n); V[n][i] = [i == alpha - 1]
    std::vector<double> v((size_t)alpha * alpha, 0.0), vinv;
    for (int j = 0; j < n; ++j) {
        double p = 1.0;
        for (int i = 0; i < alpha; ++i, p *= pts[j]) {
            v[(size_t)j * alpha + i] = p;
        }
    }
    v[(size_t)n * alpha + alpha - 1] = 1.0;
    if (!invert(v, alpha, &vinv)) {
        return false;
    }
    std::vector<double> f((size_t)alpha, 1.0);
    for (int j = 0; j < n; ++j) {
        for (int l = 0; l < n; ++l) {
            if (l != j) {
                f[j] *= pts[j] - pts[l];
            }
        }
    }
    out->m = m;
    out->r = r;
    out->alpha = alpha;
    // B^T = V^-T, row j scaled by f_j: bt[j][i] = vinv[i][j] * f_j
    out->bt.assign((size_t)alpha * alpha, 0.0);
    for (int j = 0; j < alpha; ++j) {
        for (int i = 0; i < alpha; ++i) {
            double e = vinv[(size_t)i * alpha + j] * f[j];
            const double rounded = nearbyint(e * 1024.0) / 1024.0;  // exact dyadic values: drop the inversion's noise
            out->bt[(size_t)j * alpha + i] = fabs(e - rounded) < 1e-9 ? rounded : e;
        }
    }
    out->at.assign((size_t)m * alpha, 0.0);
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
            out->at[(size_t)i * alpha + j] = pow(pts[j], i);
        }
        out->at[(size_t)i * alpha + n] = i == m - 1 ? 1.0 : 0.0;
    }
    out->g.assign((size_t)alpha * r, 0.0);
    for (int j = 0; j < n; ++j) {
        for (int k = 0; k < r; ++k) {
            out->g[(size_t)j * r + k] = pow(pts[j], k) / f[j];
        }
    }
    out->g[(size_t)n * r + r - 1] = 1.0;
    return true;
}

bool makeStride2WinogradMatrices(int m, WinogradMatrices* out) {
    WinogradMatrices e;
    if (m < 1 || 2 * m + 1 > 12 || !makeWinogradMatrices(m, 2, &e)) {
        return false;
    }
    const int alpha = 2 * m + 1, ae = m + 1;
    out->m = m;
    out->r = 3;
    out->alpha = alpha;
    out->bt.assign((size_t)alpha * alpha, 0.0);
    out->at.assign((size_t)m * alpha, 0.0);
    out->g.assign((size_t)alpha * 3, 0.0);
    for (int a = 0; a < ae; ++a) {
        for (int i = 0; i < ae; ++i) {
            out->bt[(size_t)a * alpha + 2 * i] = e.bt[(size_t)a * ae + i];
        }
        for (int i = 0; i < m; ++i) {
            out->at[(size_t)i * alpha + a] = e.at[(size_t)i * ae + a];
        }
        out->g[(size_t)a * 3 + 0] = e.g[(size_t)a * 2 + 0];
        out->g[(size_t)a * 3 + 2] = e.g[(size_t)a * 2 + 1];
    }
    for (int j = 0; j < m; ++j) {
        const int a = ae + j;
        out->bt[(size_t)a * alpha + 2 * j + 1] = 1.0;
        out->at[(size_t)j * alpha + a] = 1.0;
        out->g[(size_t)a * 3 + 1] = 1.0;
    }
    return true;
}

}  // namespace MNN
