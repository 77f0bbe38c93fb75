// Winograd / Toom-Cook transform matrices for F(m, r), generated from interpolation points.
//   y = A^T [ (G g) .* (B^T d) ]      (1-D correlation of d (alpha = m + r - 1) with g (r))
// Points: 0, 1, -1, 2, -2, 1/2, -1/2, 3, -3, 1/3, -1/3 (the first alpha - 1 of them) plus infinity.
// With V the alpha x alpha evaluation matrix of a degree-(alpha - 1) polynomial at those points
// (the point at infinity picks the leading coefficient), B^T = V^-T; A^T[i][j] = a_j^i (infinity:
// 1 in the last row); G[j][k] = a_j^k (infinity: 1 in the last column). Row j of B^T is scaled by
// f_j = prod_{l != j} (a_j - a_l) and row j of G by 1 / f_j, which keeps B^T's entries small
// integers / halves (the elementwise product is unchanged).
#ifndef MNN_CPU_WINOGRADMATRICES_HPP
#define MNN_CPU_WINOGRADMATRICES_HPP

#include <vector>

namespace MNN {

struct WinogradMatrices {
    int m = 0, r = 0, alpha = 0;
    std::vector<double> at;  // m x alpha
    std::vector<double> bt;  // alpha x alpha
    std::vector<double> g;   // alpha x r
};

/** false when alpha = m + r - 1 is outside [2, 12] or the system is singular */
bool makeWinogradMatrices(int m, int r, WinogradMatrices* out);

}  // namespace MNN
#endif
