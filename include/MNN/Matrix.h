// MNN::CV::Matrix: a 3x3 transform for 2-D points, in the style of Skia's SkMatrix.
#ifndef MNN_CV_MATRIX_H
#define MNN_CV_MATRIX_H

#include <MNN/MNNDefine.h>
#include <MNN/Rect.h>

namespace MNN {
namespace CV {

/**
 * A 3x3 matrix mapping (x, y, 1) column vectors:
 *
 *     | scaleX  skewX   transX |   | x |
 *     | skewY   scaleY  transY | * | y |
 *     | persp0  persp1  persp2 |   | 1 |
 *
 * x' = (scaleX*x + skewX*y + transX) / w, y' = (skewY*x + scaleY*y + transY) / w with
 * w = persp0*x + persp1*y + persp2 (w is 1 for affine matrices).
 *
 * Composition follows Skia: preConcat(M) makes this = this * M (M is applied to points FIRST),
 * postConcat(M) makes this = M * this (M is applied LAST). preXxx / postXxx do the same with a
 * scale / translate / rotate / skew matrix. Angles are in degrees; with y pointing down a
 * positive angle turns clockwise on screen (x axis towards y axis).
 */
class MNN_PUBLIC Matrix {
public:
    enum {
        kMScaleX = 0,
        kMSkewX  = 1,
        kMTransX = 2,
        kMSkewY  = 3,
        kMScaleY = 4,
        kMTransY = 5,
        kMPersp0 = 6,
        kMPersp1 = 7,
        kMPersp2 = 8
    };
    /** indices for set9 / get9 / setAffine in the affine-only (6 value) form */
    enum { kAScaleX = 0, kASkewY = 1, kASkewX = 2, kAScaleY = 3, kATransX = 4, kATransY = 5 };

    /** the identity */
    Matrix();

    static Matrix MakeScale(float sx, float sy);
    static Matrix MakeScale(float scale);
    static Matrix MakeTrans(float dx, float dy);
    static Matrix MakeAll(float scaleX, float skewX, float transX, float skewY, float scaleY, float transY,
                          float pers0, float pers1, float pers2);

    bool isIdentity() const;
    /** true when the last row is (0, 0, 1) */
    bool isAffine() const;
    /** true when there is no rotation, skew or perspective (only scale and translate) */
    bool isScaleTranslate() const;
    bool isTranslate() const;
    bool hasPerspective() const {
        return !isAffine();
    }

    float operator[](int index) const {
        return fMat[index];
    }
    /** value at index 0..8 (see kMScaleX...); 0 for an index out of range */
    float get(int index) const;
    float getScaleX() const {
        return fMat[kMScaleX];
    }
    float getScaleY() const {
        return fMat[kMScaleY];
    }
    float getSkewX() const {
        return fMat[kMSkewX];
    }
    float getSkewY() const {
        return fMat[kMSkewY];
    }
    float getTranslateX() const {
        return fMat[kMTransX];
    }
    float getTranslateY() const {
        return fMat[kMTransY];
    }
    float getPerspX() const {
        return fMat[kMPersp0];
    }
    float getPerspY() const {
        return fMat[kMPersp1];
    }
    /** copies the 9 values (row-major) into buffer */
    void get9(float buffer[9]) const;

    /** sets value at index 0..8; an index out of range is ignored */
    void set(int index, float value);
    void setScaleX(float v) {
        set(kMScaleX, v);
    }
    void setScaleY(float v) {
        set(kMScaleY, v);
    }
    void setSkewX(float v) {
        set(kMSkewX, v);
    }
    void setSkewY(float v) {
        set(kMSkewY, v);
    }
    void setTranslateX(float v) {
        set(kMTransX, v);
    }
    void setTranslateY(float v) {
        set(kMTransY, v);
    }
    void setPerspX(float v) {
        set(kMPersp0, v);
    }
    void setPerspY(float v) {
        set(kMPersp1, v);
    }
    void setAll(float scaleX, float skewX, float transX, float skewY, float scaleY, float transY, float persp0,
                float persp1, float persp2);
    /** sets the 9 values from a row-major buffer */
    void set9(const float buffer[9]);

    /** identity */
    void reset();
    void setIdentity() {
        reset();
    }

    void setTranslate(float dx, float dy);
    void setTranslate(const Point& v) {
        setTranslate(v.fX, v.fY);
    }
    /** scale by (sx, sy) about the pivot (px, py), which stays fixed */
    void setScale(float sx, float sy, float px, float py);
    void setScale(float sx, float sy);
    /** rotation by `degrees` about the pivot (px, py) */
    void setRotate(float degrees, float px, float py);
    void setRotate(float degrees);
    void setSinCos(float sinValue, float cosValue, float px, float py);
    void setSinCos(float sinValue, float cosValue);
    /** skew: x' = x + kx*(y - py), y' = y + ky*(x - px) */
    void setSkew(float kx, float ky, float px, float py);
    void setSkew(float kx, float ky);
    /** this = a * b (b applied first) */
    void setConcat(const Matrix& a, const Matrix& b);

    void preTranslate(float dx, float dy);
    void preScale(float sx, float sy, float px, float py);
    void preScale(float sx, float sy);
    void preRotate(float degrees, float px, float py);
    void preRotate(float degrees);
    void preSkew(float kx, float ky, float px, float py);
    void preSkew(float kx, float ky);
    void preConcat(const Matrix& other);

    void postTranslate(float dx, float dy);
    void postScale(float sx, float sy, float px, float py);
    void postScale(float sx, float sy);
    void postRotate(float degrees, float px, float py);
    void postRotate(float degrees);
    void postSkew(float kx, float ky, float px, float py);
    void postSkew(float kx, float ky);
    void postConcat(const Matrix& other);

    /**
     * Maps src[i] to dst[i] for 0 <= i < count (0..4 points):
     * 0 points: identity; 1: translation; 2: rotation + uniform scale + translation;
     * 3: affine; 4: perspective. Returns false (matrix unchanged) for count outside 0..4, null
     * arrays with count > 0, or degenerate points (coincident, collinear).
     */
    bool setPolyToPoly(const Point src[], const Point dst[], int count);

    /** how setRectToRect fits src into dst: kFill scales x and y apart to fill dst exactly; the
     * others scale both by the smaller ratio (src keeps its aspect) and align it to dst's left /
     * top (kStart), centre (kCenter) or right / bottom (kEnd) */
    enum ScaleToFit { kFill_ScaleToFit, kStart_ScaleToFit, kCenter_ScaleToFit, kEnd_ScaleToFit };

    /** maps rectangle src onto rectangle dst by scale + translate (fills dst exactly);
     * false (and identity) when src is empty */
    bool setRectToRect(const Rect& src, const Rect& dst);
    /** as above, fitted by stf; an empty dst gives the matrix that maps everything to (0, 0) */
    bool setRectToRect(const Rect& src, const Rect& dst, ScaleToFit stf);
    /** a matrix mapping src onto dst (identity when src is empty) */
    static Matrix MakeRectToRect(const Rect& src, const Rect& dst, ScaleToFit stf);

    /** writes the inverse into *inverse (when not null); false for a singular matrix */
    bool invert(Matrix* inverse) const;

    /** maps count points; src and dst may be the same array */
    void mapPoints(Point dst[], const Point src[], int count) const;
    void mapPoints(Point pts[], int count) const {
        mapPoints(pts, pts, count);
    }
    void mapXY(float x, float y, Point* result) const;
    Point mapXY(float x, float y) const {
        Point p;
        mapXY(x, y, &p);
        return p;
    }
    /** bounds of the 4 mapped corners of src */
    void mapRect(Rect* dst, const Rect& src) const;

    /** prints the 9 values */
    void dump() const;

    friend MNN_PUBLIC bool operator==(const Matrix& a, const Matrix& b);
    friend bool operator!=(const Matrix& a, const Matrix& b) {
        return !(a == b);
    }
    /** a * b */
    friend MNN_PUBLIC Matrix operator*(const Matrix& a, const Matrix& b);

private:
    float fMat[9];
};

} // namespace CV
} // namespace MNN

#endif
