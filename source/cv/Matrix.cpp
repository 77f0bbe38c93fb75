// MNN::CV::Matrix: 3x3 point transforms (see include/MNN/Matrix.h).
#include <MNN/Matrix.h>
#include <math.h>
#include <string.h>

namespace MNN {
namespace CV {

namespace {
// Products are accumulated in double so that concatenation and inversion lose little precision.
void multiply(const float a[9], const float b[9], float out[9]) {
    float r[9];
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            double s = 0.0;
            for (int k = 0; k < 3; ++k) {
                s += (double)a[i * 3 + k] * (double)b[k * 3 + j];
            }
            r[i * 3 + j] = (float)s;
        }
    }
    ::memcpy(out, r, sizeof(r));
}

// Solves the n x n system A x = b (row-major A) by Gaussian elimination with partial pivoting.
bool solve(double* a, double* b, int n, double* x) {
    for (int col = 0; col < n; ++col) {
        int pivot    = col;
        double best  = fabs(a[col * n + col]);
        for (int r = col + 1; r < n; ++r) {
            double v = fabs(a[r * n + col]);
            if (v > best) {
                best  = v;
                pivot = r;
            }
        }
        if (!(best > 1e-12)) {
            return false;
        }
        if (pivot != col) {
            for (int k = 0; k < n; ++k) {
                double t          = a[col * n + k];
                a[col * n + k]    = a[pivot * n + k];
                a[pivot * n + k]  = t;
            }
            double t  = b[col];
            b[col]    = b[pivot];
            b[pivot]  = t;
        }
        for (int r = col + 1; r < n; ++r) {
            double f = a[r * n + col] / a[col * n + col];
            for (int k = col; k < n; ++k) {
                a[r * n + k] -= f * a[col * n + k];
            }
            b[r] -= f * b[col];
        }
    }
    for (int r = n - 1; r >= 0; --r) {
        double s = b[r];
        for (int k = r + 1; k < n; ++k) {
            s -= a[r * n + k] * x[k];
        }
        x[r] = s / a[r * n + r];
    }
    for (int i = 0; i < n; ++i) {
        if (!isfinite(x[i])) {
            return false;
        }
    }
    return true;
}
} // namespace

Matrix::Matrix() {
    reset();
}

Matrix Matrix::MakeScale(float sx, float sy) {
    Matrix m;
    m.setScale(sx, sy);
    return m;
}

Matrix Matrix::MakeScale(float scale) {
    return MakeScale(scale, scale);
}

Matrix Matrix::MakeTrans(float dx, float dy) {
    Matrix m;
    m.setTranslate(dx, dy);
    return m;
}

Matrix Matrix::MakeAll(float scaleX, float skewX, float transX, float skewY, float scaleY, float transY, float pers0,
                       float pers1, float pers2) {
    Matrix m;
    m.setAll(scaleX, skewX, transX, skewY, scaleY, transY, pers0, pers1, pers2);
    return m;
}

bool Matrix::isAffine() const {
    return fMat[kMPersp0] == 0.0f && fMat[kMPersp1] == 0.0f && fMat[kMPersp2] == 1.0f;
}

bool Matrix::isScaleTranslate() const {
    return isAffine() && fMat[kMSkewX] == 0.0f && fMat[kMSkewY] == 0.0f;
}

bool Matrix::isTranslate() const {
    return isScaleTranslate() && fMat[kMScaleX] == 1.0f && fMat[kMScaleY] == 1.0f;
}

bool Matrix::isIdentity() const {
    return isTranslate() && fMat[kMTransX] == 0.0f && fMat[kMTransY] == 0.0f;
}

float Matrix::get(int index) const {
    return (index >= 0 && index < 9) ? fMat[index] : 0.0f;
}

void Matrix::get9(float buffer[9]) const {
    ::memcpy(buffer, fMat, sizeof(fMat));
}

void Matrix::set(int index, float value) {
    if (index >= 0 && index < 9) {
        fMat[index] = value;
    }
}

void Matrix::setAll(float scaleX, float skewX, float transX, float skewY, float scaleY, float transY, float persp0,
                    float persp1, float persp2) {
    fMat[kMScaleX] = scaleX;
    fMat[kMSkewX]  = skewX;
    fMat[kMTransX] = transX;
    fMat[kMSkewY]  = skewY;
    fMat[kMScaleY] = scaleY;
    fMat[kMTransY] = transY;
    fMat[kMPersp0] = persp0;
    fMat[kMPersp1] = persp1;
    fMat[kMPersp2] = persp2;
}

void Matrix::set9(const float buffer[9]) {
    ::memcpy(fMat, buffer, sizeof(fMat));
}

void Matrix::reset() {
    setAll(1, 0, 0, 0, 1, 0, 0, 0, 1);
}

void Matrix::setTranslate(float dx, float dy) {
    setAll(1, 0, dx, 0, 1, dy, 0, 0, 1);
}

void Matrix::setScale(float sx, float sy, float px, float py) {
    // x' = sx * (x - px) + px
    setAll(sx, 0, px - sx * px, 0, sy, py - sy * py, 0, 0, 1);
}

void Matrix::setScale(float sx, float sy) {
    setAll(sx, 0, 0, 0, sy, 0, 0, 0, 1);
}

void Matrix::setSinCos(float s, float c, float px, float py) {
    // rotation about the pivot: p' = R (p - pivot) + pivot
    setAll(c, -s, s * py + (1 - c) * px, s, c, -s * px + (1 - c) * py, 0, 0, 1);
}

void Matrix::setSinCos(float s, float c) {
    setAll(c, -s, 0, s, c, 0, 0, 0, 1);
}

static void sinCosDegrees(float degrees, float* s, float* c) {
    // exact values at multiples of 90 degrees so that quarter turns stay exact
    double d = fmod((double)degrees, 360.0);
    if (d < 0) {
        d += 360.0;
    }
    if (d == 0.0) {
        *s = 0.0f;
        *c = 1.0f;
    } else if (d == 90.0) {
        *s = 1.0f;
        *c = 0.0f;
    } else if (d == 180.0) {
        *s = 0.0f;
        *c = -1.0f;
    } else if (d == 270.0) {
        *s = -1.0f;
        *c = 0.0f;
    } else {
        double r = d * (M_PI / 180.0);
        *s       = (float)sin(r);
        *c       = (float)cos(r);
    }
}

void Matrix::setRotate(float degrees, float px, float py) {
    float s, c;
    sinCosDegrees(degrees, &s, &c);
    setSinCos(s, c, px, py);
}

void Matrix::setRotate(float degrees) {
    setRotate(degrees, 0, 0);
}

void Matrix::setSkew(float kx, float ky, float px, float py) {
    setAll(1, kx, -kx * py, ky, 1, -ky * px, 0, 0, 1);
}

void Matrix::setSkew(float kx, float ky) {
    setAll(1, kx, 0, ky, 1, 0, 0, 0, 1);
}

void Matrix::setConcat(const Matrix& a, const Matrix& b) {
    multiply(a.fMat, b.fMat, fMat);
}

void Matrix::preConcat(const Matrix& other) {
    multiply(fMat, other.fMat, fMat);
}

void Matrix::postConcat(const Matrix& other) {
    multiply(other.fMat, fMat, fMat);
}

void Matrix::preTranslate(float dx, float dy) {
    preConcat(MakeTrans(dx, dy));
}

void Matrix::preScale(float sx, float sy, float px, float py) {
    Matrix m;
    m.setScale(sx, sy, px, py);
    preConcat(m);
}

void Matrix::preScale(float sx, float sy) {
    preConcat(MakeScale(sx, sy));
}

void Matrix::preRotate(float degrees, float px, float py) {
    Matrix m;
    m.setRotate(degrees, px, py);
    preConcat(m);
}

void Matrix::preRotate(float degrees) {
    preRotate(degrees, 0, 0);
}

void Matrix::preSkew(float kx, float ky, float px, float py) {
    Matrix m;
    m.setSkew(kx, ky, px, py);
    preConcat(m);
}

void Matrix::preSkew(float kx, float ky) {
    preSkew(kx, ky, 0, 0);
}

void Matrix::postTranslate(float dx, float dy) {
    postConcat(MakeTrans(dx, dy));
}

void Matrix::postScale(float sx, float sy, float px, float py) {
    Matrix m;
    m.setScale(sx, sy, px, py);
    postConcat(m);
}

void Matrix::postScale(float sx, float sy) {
    postConcat(MakeScale(sx, sy));
}

void Matrix::postRotate(float degrees, float px, float py) {
    Matrix m;
    m.setRotate(degrees, px, py);
    postConcat(m);
}

void Matrix::postRotate(float degrees) {
    postRotate(degrees, 0, 0);
}

void Matrix::postSkew(float kx, float ky, float px, float py) {
    Matrix m;
    m.setSkew(kx, ky, px, py);
    postConcat(m);
}

void Matrix::postSkew(float kx, float ky) {
    postSkew(kx, ky, 0, 0);
}

bool Matrix::setPolyToPoly(const Point src[], const Point dst[], int count) {
    if (count < 0 || count > 4 || (count > 0 && (src == nullptr || dst == nullptr))) {
        return false;
    }
    if (count == 0) {
        reset();
        return true;
    }
    if (count == 1) {
        setTranslate(dst[0].fX - src[0].fX, dst[0].fY - src[0].fY);
        return true;
    }
    if (count == 2) {
        // similarity: (a + ib) = (d1 - d0) / (s1 - s0) as complex numbers
        double sx = (double)src[1].fX - src[0].fX, sy = (double)src[1].fY - src[0].fY;
        double dx = (double)dst[1].fX - dst[0].fX, dy = (double)dst[1].fY - dst[0].fY;
        double n  = sx * sx + sy * sy;
        if (!(n > 1e-12)) {
            return false;
        }
        double a  = (dx * sx + dy * sy) / n;
        double b  = (dy * sx - dx * sy) / n;
        double tx = dst[0].fX - (a * src[0].fX - b * src[0].fY);
        double ty = dst[0].fY - (b * src[0].fX + a * src[0].fY);
        setAll((float)a, (float)-b, (float)tx, (float)b, (float)a, (float)ty, 0, 0, 1);
        return true;
    }
    if (count == 3) {
        // x' = a x + b y + c and y' = d x + e y + f share the system matrix
        double A[9], B[3], X[3], Y[3];
        for (int i = 0; i < 3; ++i) {
            A[i * 3 + 0] = src[i].fX;
            A[i * 3 + 1] = src[i].fY;
            A[i * 3 + 2] = 1.0;
            B[i]         = dst[i].fX;
        }
        double A2[9];
        ::memcpy(A2, A, sizeof(A));
        if (!solve(A, B, 3, X)) {
            return false;
        }
        for (int i = 0; i < 3; ++i) {
            B[i] = dst[i].fY;
        }
        if (!solve(A2, B, 3, Y)) {
            return false;
        }
        setAll((float)X[0], (float)X[1], (float)X[2], (float)Y[0], (float)Y[1], (float)Y[2], 0, 0, 1);
        return true;
    }
    // 4 points: homography with h22 = 1; u = (a x + b y + c) / (g x + h y + 1) etc.
    double A[64], B[8], H[8];
    for (int i = 0; i < 4; ++i) {
        double x = src[i].fX, y = src[i].fY, u = dst[i].fX, v = dst[i].fY;
        double r0[8] = {x, y, 1, 0, 0, 0, -u * x, -u * y};
        double r1[8] = {0, 0, 0, x, y, 1, -v * x, -v * y};
        ::memcpy(A + (2 * i) * 8, r0, sizeof(r0));
        ::memcpy(A + (2 * i + 1) * 8, r1, sizeof(r1));
        B[2 * i]     = u;
        B[2 * i + 1] = v;
    }
    if (!solve(A, B, 8, H)) {
        return false;
    }
    setAll((float)H[0], (float)H[1], (float)H[2], (float)H[3], (float)H[4], (float)H[5], (float)H[6], (float)H[7], 1);
    return true;
}

bool Matrix::setRectToRect(const Rect& src, const Rect& dst) {
    return setRectToRect(src, dst, kFill_ScaleToFit);
}

bool Matrix::setRectToRect(const Rect& src, const Rect& dst, ScaleToFit stf) {
    if (src.isEmpty()) {
        reset();
        return false;
    }
    if (dst.isEmpty()) {
        setAll(0, 0, 0, 0, 0, 0, 0, 0, 1);
        return true;
    }
    float sx = dst.width() / src.width();
    float sy = dst.height() / src.height();
    float tx = dst.fLeft - src.fLeft * sx, ty = dst.fTop - src.fTop * sy;
    if (stf != kFill_ScaleToFit) {
        const float s = sx < sy ? sx : sy;
        sx = sy = s;
        // the room left in dst along each axis, given to the left / top by kStart, split by kCenter
        float roomX = dst.width() - src.width() * s, roomY = dst.height() - src.height() * s;
        float share = stf == kStart_ScaleToFit ? 0.0f : (stf == kCenter_ScaleToFit ? 0.5f : 1.0f);
        tx = dst.fLeft - src.fLeft * s + roomX * share;
        ty = dst.fTop - src.fTop * s + roomY * share;
    }
    setAll(sx, 0, tx, 0, sy, ty, 0, 0, 1);
    return true;
}

Matrix Matrix::MakeRectToRect(const Rect& src, const Rect& dst, ScaleToFit stf) {
    Matrix m;
    m.setRectToRect(src, dst, stf);
    return m;
}

bool Matrix::invert(Matrix* inverse) const {
    const float* m = fMat;
    double a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5], g = m[6], h = m[7], i = m[8];
    double c00 = e * i - f * h, c01 = c * h - b * i, c02 = b * f - c * e;
    double c10 = f * g - d * i, c11 = a * i - c * g, c12 = c * d - a * f;
    double c20 = d * h - e * g, c21 = b * g - a * h, c22 = a * e - b * d;
    double det = a * c00 + b * c10 + c * c20;
    // Skia's tolerance: |det| below (1/4096)^3 counts as singular
    const double nearlyZero = 1.0 / 4096.0;
    if (!isfinite(det) || fabs(det) <= nearlyZero * nearlyZero * nearlyZero) {
        return false;
    }
    double r = 1.0 / det;
    float out[9] = {(float)(c00 * r), (float)(c01 * r), (float)(c02 * r), (float)(c10 * r), (float)(c11 * r),
                    (float)(c12 * r), (float)(c20 * r), (float)(c21 * r), (float)(c22 * r)};
    if (isAffine()) {
        out[6] = 0.0f;
        out[7] = 0.0f;
        out[8] = 1.0f;
    }
    for (float v : out) {
        if (!isfinite(v)) {
            return false;
        }
    }
    if (inverse) {
        inverse->set9(out);
    }
    return true;
}

void Matrix::mapXY(float x, float y, Point* result) const {
    if (!result) {
        return;
    }
    const float* m = fMat;
    double X = (double)m[0] * x + (double)m[1] * y + m[2];
    double Y = (double)m[3] * x + (double)m[4] * y + m[5];
    if (!isAffine()) {
        double w = (double)m[6] * x + (double)m[7] * y + m[8];
        if (w != 0.0) {
            w = 1.0 / w;
        }
        X *= w;
        Y *= w;
    }
    result->fX = (float)X;
    result->fY = (float)Y;
}

void Matrix::mapPoints(Point dst[], const Point src[], int count) const {
    if (!dst || !src) {
        return;
    }
    for (int i = 0; i < count; ++i) {
        Point p;
        mapXY(src[i].fX, src[i].fY, &p);
        dst[i] = p;
    }
}

void Matrix::mapRect(Rect* dst, const Rect& src) const {
    if (!dst) {
        return;
    }
    Point pts[4] = {Point::Make(src.fLeft, src.fTop), Point::Make(src.fRight, src.fTop),
                    Point::Make(src.fRight, src.fBottom), Point::Make(src.fLeft, src.fBottom)};
    mapPoints(pts, 4);
    dst->setBounds(pts, 4);
}

void Matrix::dump() const {
    MNN_PRINT("[%8.4f %8.4f %8.4f][%8.4f %8.4f %8.4f][%8.4f %8.4f %8.4f]\n", fMat[0], fMat[1], fMat[2], fMat[3],
              fMat[4], fMat[5], fMat[6], fMat[7], fMat[8]);
}

bool operator==(const Matrix& a, const Matrix& b) {
    for (int i = 0; i < 9; ++i) {
        if (a.fMat[i] != b.fMat[i]) {
            return false;
        }
    }
    return true;
}

Matrix operator*(const Matrix& a, const Matrix& b) {
    Matrix r;
    r.setConcat(a, b);
    return r;
}

} // namespace CV
} // namespace MNN
