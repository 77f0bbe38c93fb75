// MNN::CV::Matrix against hand-computed values.
#include <MNN/Matrix.h>
#include <gtest/gtest.h>
#include <math.h>

using namespace MNN::CV;

namespace {
void expectMatrix(const Matrix& m, const float (&v)[9], float eps = 1e-5f) {
    for (int i = 0; i < 9; ++i) {
        EXPECT_NEAR(m[i], v[i], eps) << "index " << i;
    }
}
void expectPoint(const Point& p, float x, float y, float eps = 1e-4f) {
    EXPECT_NEAR(p.fX, x, eps);
    EXPECT_NEAR(p.fY, y, eps);
}
} // namespace

TEST(Matrix, IdentityAndSetters) {
    Matrix m;
    EXPECT_TRUE(m.isIdentity());
    expectMatrix(m, {1, 0, 0, 0, 1, 0, 0, 0, 1});
    m.setScale(2, 3);
    expectMatrix(m, {2, 0, 0, 0, 3, 0, 0, 0, 1});
    EXPECT_TRUE(m.isScaleTranslate());
    m.setScale(2, 3, 10, 20);  // pivot stays fixed: x' = 2(x - 10) + 10
    expectMatrix(m, {2, 0, -10, 0, 3, -40, 0, 0, 1});
    expectPoint(m.mapXY(10, 20), 10, 20);
    m.setTranslate(5, -7);
    expectMatrix(m, {1, 0, 5, 0, 1, -7, 0, 0, 1});
    EXPECT_TRUE(m.isTranslate());
    m.setRotate(90);
    expectMatrix(m, {0, -1, 0, 1, 0, 0, 0, 0, 1}, 0);  // exact for quarter turns
    expectPoint(m.mapXY(1, 0), 0, 1);                 // x axis turns towards y
    m.setRotate(30, 4, 5);
    const float c = cosf(30 * (float)M_PI / 180), s = sinf(30 * (float)M_PI / 180);
    expectMatrix(m, {c, -s, 4 - c * 4 + s * 5, s, c, 5 - s * 4 - c * 5, 0, 0, 1});
    expectPoint(m.mapXY(4, 5), 4, 5);
    m.setSkew(0.5f, 0.25f);
    expectPoint(m.mapXY(2, 4), 2 + 0.5f * 4, 4 + 0.25f * 2);
    m.setSkew(0.5f, 0.25f, 1, 2);
    expectPoint(m.mapXY(3, 6), 3 + 0.5f * (6 - 2), 6 + 0.25f * (3 - 1));
    m.reset();
    m.set(Matrix::kMTransX, 3);
    EXPECT_EQ(m.get(Matrix::kMTransX), 3);
    EXPECT_EQ(m.getTranslateX(), 3);
    m.set(42, 1);  // ignored
    EXPECT_EQ(m.get(42), 0);
    float buf[9];
    m.get9(buf);
    Matrix n;
    n.set9(buf);
    EXPECT_TRUE(m == n);
}

TEST(Matrix, PreAndPostConcat) {
    // pre: applied first. preScale then mapping (1,1): translate(scale(p))
    Matrix m;
    m.setTranslate(10, 20);
    m.preScale(2, 3);
    expectPoint(m.mapXY(1, 1), 12, 23);
    // post: applied last: scale(translate(p))
    Matrix n;
    n.setTranslate(10, 20);
    n.postScale(2, 3);
    expectPoint(n.mapXY(1, 1), 22, 63);
    Matrix r;
    r.setScale(2, 2);
    r.postTranslate(1, 1);
    expectPoint(r.mapXY(3, 4), 7, 9);
    r.setScale(2, 2);
    r.preTranslate(1, 1);
    expectPoint(r.mapXY(3, 4), 8, 10);
    Matrix q;
    q.setTranslate(1, 0);
    q.postRotate(90);  // (2, 0) -> (3, 0) -> (0, 3)
    expectPoint(q.mapXY(2, 0), 0, 3);
    q.setTranslate(1, 0);
    q.preRotate(90);  // (2, 0) -> (0, 2) -> (1, 2)
    expectPoint(q.mapXY(2, 0), 1, 2);
    Matrix a = Matrix::MakeAll(1, 2, 3, 4, 5, 6, 7, 8, 9), b = Matrix::MakeAll(9, 8, 7, 6, 5, 4, 3, 2, 1);
    Matrix ab = a * b;  // hand product
    expectMatrix(ab, {30, 24, 18, 84, 69, 54, 138, 114, 90});
    Matrix c = a;
    c.preConcat(b);
    EXPECT_TRUE(c == ab);
    c = b;
    c.postConcat(a);
    EXPECT_TRUE(c == ab);
}

TEST(Matrix, Invert) {
    Matrix m;
    m.setRotate(37, 3, 4);
    m.postScale(2, 0.5f);
    m.postTranslate(-7, 11);
    Matrix inv;
    ASSERT_TRUE(m.invert(&inv));
    Point p = m.mapXY(5, -3);
    expectPoint(inv.mapXY(p.fX, p.fY), 5, -3);
    Matrix affineInv;
    Matrix::MakeAll(2, 0, 4, 0, 4, 8, 0, 0, 1).invert(&affineInv);
    expectMatrix(affineInv, {0.5f, 0, -2, 0, 0.25f, -2, 0, 0, 1});
    Matrix singular = Matrix::MakeAll(1, 2, 3, 2, 4, 6, 0, 0, 1);
    EXPECT_FALSE(singular.invert(&inv));
    EXPECT_FALSE(Matrix::MakeScale(0, 1).invert(nullptr));
    Matrix persp = Matrix::MakeAll(1, 0.2f, 3, 0.1f, 1, -2, 0.001f, 0.002f, 1);
    ASSERT_TRUE(persp.invert(&inv));
    p = persp.mapXY(10, 20);
    expectPoint(inv.mapXY(p.fX, p.fY), 10, 20, 1e-3f);
}

TEST(Matrix, PolyToPoly) {
    Matrix m;
    Point src[4] = {Point::Make(0, 0), Point::Make(10, 0), Point::Make(10, 10), Point::Make(0, 10)};
    Point dst[4] = {Point::Make(5, 5), Point::Make(5, 15), Point::Make(-5, 15), Point::Make(-5, 5)};
    ASSERT_TRUE(m.setPolyToPoly(src, dst, 0));
    EXPECT_TRUE(m.isIdentity());
    ASSERT_TRUE(m.setPolyToPoly(src, dst, 1));
    expectMatrix(m, {1, 0, 5, 0, 1, 5, 0, 0, 1});
    ASSERT_TRUE(m.setPolyToPoly(src, dst, 2));  // 90 degree turn + translate
    expectMatrix(m, {0, -1, 5, 1, 0, 5, 0, 0, 1});
    ASSERT_TRUE(m.setPolyToPoly(src, dst, 3));
    expectMatrix(m, {0, -1, 5, 1, 0, 5, 0, 0, 1});
    // 4 points: a trapezoid needs perspective
    Point trap[4] = {Point::Make(0, 0), Point::Make(20, 0), Point::Make(15, 10), Point::Make(5, 10)};
    ASSERT_TRUE(m.setPolyToPoly(src, trap, 4));
    EXPECT_FALSE(m.isAffine());
    for (int i = 0; i < 4; ++i) {
        expectPoint(m.mapXY(src[i].fX, src[i].fY), trap[i].fX, trap[i].fY, 1e-3f);
    }
    // degenerate input: coincident / collinear points, bad counts
    Point same[2] = {Point::Make(1, 1), Point::Make(1, 1)};
    EXPECT_FALSE(m.setPolyToPoly(same, dst, 2));
    Point line[4] = {Point::Make(0, 0), Point::Make(1, 1), Point::Make(2, 2), Point::Make(3, 3)};
    EXPECT_FALSE(m.setPolyToPoly(line, dst, 3));
    EXPECT_FALSE(m.setPolyToPoly(line, dst, 4));
    EXPECT_FALSE(m.setPolyToPoly(src, dst, 5));
    EXPECT_FALSE(m.setPolyToPoly(nullptr, dst, 2));
}

TEST(Matrix, MapPointsAndRects) {
    Matrix m = Matrix::MakeAll(2, 0, 1, 0, 3, -1, 0, 0, 1);
    Point pts[3] = {Point::Make(0, 0), Point::Make(1, 1), Point::Make(-2, 4)};
    Point out[3];
    m.mapPoints(out, pts, 3);
    expectPoint(out[0], 1, -1);
    expectPoint(out[1], 3, 2);
    expectPoint(out[2], -3, 11);
    m.mapPoints(pts, 3);  // in place
    expectPoint(pts[2], -3, 11);
    Matrix p = Matrix::MakeAll(1, 0, 0, 0, 1, 0, 0.5f, 0, 1);  // w = 0.5 x + 1
    expectPoint(p.mapXY(2, 4), 1, 2);
    Rect r = Rect::MakeXYWH(1, 2, 3, 4);
    EXPECT_EQ(r.width(), 3);
    EXPECT_EQ(r.height(), 4);
    EXPECT_EQ(r.right(), 4);
    EXPECT_FALSE(r.isEmpty());
    EXPECT_TRUE(Rect::MakeLTRB(3, 0, 1, 5).isEmpty());
    Rect mapped;
    Matrix rot;
    rot.setRotate(90);
    rot.mapRect(&mapped, r);
    EXPECT_EQ(mapped, Rect::MakeLTRB(-6, 1, -2, 4));
    Matrix fit;
    ASSERT_TRUE(fit.setRectToRect(Rect::MakeWH(640, 480), Rect::MakeWH(224, 224)));
    expectPoint(fit.mapXY(640, 480), 224, 224);
    EXPECT_FALSE(fit.setRectToRect(Rect::MakeEmpty(), r));
}

// setRectToRect's fit modes, classic MNN / Skia semantics: a 640x480 source into a 300x300 box at
// (10, 20); uniform modes scale by min(300/640, 300/480) = 0.46875, leaving 75 px of height
TEST(Matrix, RectToRectFitModes) {
    const Rect src = Rect::MakeWH(640, 480), dst = Rect::MakeXYWH(10, 20, 300, 300);
    Matrix m;
    ASSERT_TRUE(m.setRectToRect(src, dst, Matrix::kFill_ScaleToFit));
    expectPoint(m.mapXY(0, 0), 10, 20);
    expectPoint(m.mapXY(640, 480), 310, 320);
    ASSERT_TRUE(m.setRectToRect(src, dst, Matrix::kStart_ScaleToFit));
    expectPoint(m.mapXY(0, 0), 10, 20);
    expectPoint(m.mapXY(640, 480), 310, 245);
    ASSERT_TRUE(m.setRectToRect(src, dst, Matrix::kCenter_ScaleToFit));
    expectPoint(m.mapXY(0, 0), 10, 57.5f);
    expectPoint(m.mapXY(640, 480), 310, 282.5f);
    auto e = Matrix::MakeRectToRect(src, dst, Matrix::kEnd_ScaleToFit);
    expectPoint(e.mapXY(0, 0), 10, 95);
    expectPoint(e.mapXY(640, 480), 310, 320);
    // an empty destination collapses everything to the origin; an empty source fails (identity)
    ASSERT_TRUE(m.setRectToRect(src, Rect::MakeEmpty(), Matrix::kCenter_ScaleToFit));
    expectPoint(m.mapXY(100, 50), 0, 0);
    EXPECT_FALSE(m.setRectToRect(Rect::MakeEmpty(), dst, Matrix::kStart_ScaleToFit));
    EXPECT_TRUE(m.isIdentity());
}
