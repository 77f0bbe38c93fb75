// MNN::CV::Point and MNN::CV::Rect: small geometry helpers used with MNN::CV::Matrix.
#ifndef MNN_CV_RECT_H
#define MNN_CV_RECT_H

#include <MNN/MNNDefine.h>

namespace MNN {
namespace CV {

/** a 2-D point with float coordinates */
struct MNN_PUBLIC Point {
    float fX;
    float fY;

    static Point Make(float x, float y) {
        Point p;
        p.fX = x;
        p.fY = y;
        return p;
    }
    float x() const {
        return fX;
    }
    float y() const {
        return fY;
    }
    void set(float x, float y) {
        fX = x;
        fY = y;
    }
    void offset(float dx, float dy) {
        fX += dx;
        fY += dy;
    }
    bool equals(float x, float y) const {
        return fX == x && fY == y;
    }
    friend bool operator==(const Point& a, const Point& b) {
        return a.fX == b.fX && a.fY == b.fY;
    }
    friend bool operator!=(const Point& a, const Point& b) {
        return !(a == b);
    }
};

/** an axis-aligned rectangle [fLeft, fRight) x [fTop, fBottom) */
struct MNN_PUBLIC Rect {
    float fLeft;
    float fTop;
    float fRight;
    float fBottom;

    static Rect MakeEmpty() {
        return MakeLTRB(0, 0, 0, 0);
    }
    static Rect MakeWH(float w, float h) {
        return MakeLTRB(0, 0, w, h);
    }
    static Rect MakeXYWH(float x, float y, float w, float h) {
        return MakeLTRB(x, y, x + w, y + h);
    }
    static Rect MakeLTRB(float l, float t, float r, float b) {
        Rect rc;
        rc.setLTRB(l, t, r, b);
        return rc;
    }

    float left() const {
        return fLeft;
    }
    float top() const {
        return fTop;
    }
    float right() const {
        return fRight;
    }
    float bottom() const {
        return fBottom;
    }
    float x() const {
        return fLeft;
    }
    float y() const {
        return fTop;
    }
    float width() const {
        return fRight - fLeft;
    }
    float height() const {
        return fBottom - fTop;
    }
    float centerX() const {
        return 0.5f * (fLeft + fRight);
    }
    float centerY() const {
        return 0.5f * (fTop + fBottom);
    }
    /** true when width or height is not positive (or NaN) */
    bool isEmpty() const {
        return !(fLeft < fRight && fTop < fBottom);
    }
    bool isSorted() const {
        return fLeft <= fRight && fTop <= fBottom;
    }

    void setEmpty() {
        setLTRB(0, 0, 0, 0);
    }
    void setLTRB(float l, float t, float r, float b) {
        fLeft   = l;
        fTop    = t;
        fRight  = r;
        fBottom = b;
    }
    void setXYWH(float x, float y, float w, float h) {
        setLTRB(x, y, x + w, y + h);
    }
    void setWH(float w, float h) {
        setLTRB(0, 0, w, h);
    }
    void offset(float dx, float dy) {
        fLeft += dx;
        fTop += dy;
        fRight += dx;
        fBottom += dy;
    }
    void offsetTo(float x, float y) {
        fRight += x - fLeft;
        fBottom += y - fTop;
        fLeft = x;
        fTop  = y;
    }
    /** shrinks by dx / dy on each side (negative values grow) */
    void inset(float dx, float dy) {
        fLeft += dx;
        fTop += dy;
        fRight -= dx;
        fBottom -= dy;
    }
    void outset(float dx, float dy) {
        inset(-dx, -dy);
    }
    /** swaps edges so that left <= right and top <= bottom */
    void sort() {
        if (fLeft > fRight) {
            float t = fLeft;
            fLeft   = fRight;
            fRight  = t;
        }
        if (fTop > fBottom) {
            float t = fTop;
            fTop    = fBottom;
            fBottom = t;
        }
    }
    bool contains(float x, float y) const {
        return x >= fLeft && x < fRight && y >= fTop && y < fBottom;
    }
    /** sets this to the bounds of `count` points (empty when count <= 0) */
    void setBounds(const Point pts[], int count) {
        if (count <= 0 || pts == nullptr) {
            setEmpty();
            return;
        }
        setLTRB(pts[0].fX, pts[0].fY, pts[0].fX, pts[0].fY);
        for (int i = 1; i < count; ++i) {
            fLeft   = pts[i].fX < fLeft ? pts[i].fX : fLeft;
            fTop    = pts[i].fY < fTop ? pts[i].fY : fTop;
            fRight  = pts[i].fX > fRight ? pts[i].fX : fRight;
            fBottom = pts[i].fY > fBottom ? pts[i].fY : fBottom;
        }
    }
    friend bool operator==(const Rect& a, const Rect& b) {
        return a.fLeft == b.fLeft && a.fTop == b.fTop && a.fRight == b.fRight && a.fBottom == b.fBottom;
    }
    friend bool operator!=(const Rect& a, const Rect& b) {
        return !(a == b);
    }
};

} // namespace CV
} // namespace MNN

#endif
