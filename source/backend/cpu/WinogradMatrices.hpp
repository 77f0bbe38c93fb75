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

/**
 * A 3-tap window at stride 2 as one transform of alpha = 2m + 1 values (r = 3): the window's even
 * samples x0, x2, .., x2m meet taps 0 and 2 as F(m, 2) (points 0..m: its B^T, A^T, G), the odd
 * samples x1, x3, .., x(2m-1) meet tap 1 directly (points m + 1 .. 2m: B^T picks sample 2j + 1,
 * A^T adds it to output j, G holds tap 1):
 *   y_i = w0 x(2i) + w1 x(2i+1) + w2 x(2i+2) = A^T [ (G g) .* (B^T d) ]
 * m x m tiles of a 3x3 stride-2 convolution take (2m + 1)^2 products for m^2 outputs (9 each
 * direct): 6.25 per output at m = 2, 5.44 at m = 3; rows m + 1 .. 2m of G are equal, so U holds
 * (m + 2)^2 distinct matrices of (2m + 1)^2. false when F(m, 2) cannot be built.
 */
bool makeStride2WinogradMatrices(int m, WinogradMatrices* out);

}  // namespace MNN
#endif
