#!/usr/bin/python3
"""OpenCV oracle for test/cv (run by the C++ tests with Debian's /usr/bin/python3 + python3-opencv).

Each command reads raw uint8 / float32 files written by the test and writes the OpenCV result as raw
bytes. Formats are MNN::CV::ImageFormat names.

  cvt    SRC_FMT DST_FMT W H IN OUT                 cv2.cvtColor (YUV planar input is (H*3/2) x W)
  warp   W H C OW OH INTERP BORDER PAD M(6|9) IN OUT  cv2.warpAffine / warpPerspective, WARP_INVERSE_MAP
  resize W H C OW OH INTERP DTYPE IN OUT            cv2.resize (DTYPE u8 or f32)
  prep   SRC DST W H OW OH MEAN0..3 NORMAL0..3 IN OUT
         classifier preprocessing: cvtColor to DST (uint8), float32 cv2.resize INTER_LINEAR,
         (x - mean) * normal per DST channel, written as float32 NCHW
  batch  FILE                                       runs each line of FILE as one of the commands above
Exit status 3: cv2 is not importable.
"""
import sys

try:
    import cv2
    import numpy as np
except ImportError:
    sys.exit(3)

CHANNELS = {"RGBA": 4, "RGB": 3, "BGR": 3, "GRAY": 1, "BGRA": 4, "YCrCb": 3, "YUV": 3, "HSV": 3, "XYZ": 3,
            "BGR555": 2, "BGR565": 2, "HSV_FULL": 3}
PLANAR = ("YUV_NV21", "YUV_NV12", "YUV_I420")
INTERP = {"NEAREST": cv2.INTER_NEAREST, "BILINEAR": cv2.INTER_LINEAR, "BICUBIC": cv2.INTER_CUBIC}
BORDER = {"CLAMP_TO_EDGE": cv2.BORDER_REPLICATE, "ZERO": cv2.BORDER_CONSTANT, "REPEAT": cv2.BORDER_WRAP}


INVERSE = ("YCrCb", "YUV", "HSV", "HSV_FULL", "XYZ")


def cvt_code(src, dst):
    if src == "HSV_FULL":
        return getattr(cv2, "COLOR_HSV2%s_FULL" % dst)
    if src in PLANAR:
        return getattr(cv2, "COLOR_YUV2%s_%s" % (dst, src[4:]))
    base = src
    if dst in ("YCrCb", "YUV", "HSV", "HSV_FULL", "XYZ") and src in ("RGBA", "BGRA"):
        base = src[:3]  # OpenCV's RGB2xxx / BGR2xxx accept 4-channel input
    if dst == "HSV_FULL":
        return getattr(cv2, "COLOR_%s2HSV_FULL" % base)
    return getattr(cv2, "COLOR_%s2%s" % (base, dst))


def load(path, h, w, c, dtype=np.uint8):
    a = np.fromfile(path, dtype=dtype)
    return a.reshape((h, w, c)) if c > 1 else a.reshape((h, w))


def main(argv):
    cmd = argv[1]
    if cmd == "batch":
        with open(argv[2]) as f:
            for line in f:
                if line.strip():
                    rc = main([argv[0]] + line.split())
                    if rc:
                        return rc
        return 0
    if cmd == "cvt":
        src, dst, w, h, inp, out = argv[2], argv[3], int(argv[4]), int(argv[5]), argv[6], argv[7]
        if src in PLANAR:
            img = np.fromfile(inp, dtype=np.uint8).reshape((h * 3 // 2, w))
        else:
            img = load(inp, h, w, CHANNELS[src])
        if src in INVERSE and dst == "GRAY":
            # OpenCV has no direct code: go through RGB (as ImageProcess does)
            res = cv2.cvtColor(cv2.cvtColor(img, cvt_code(src, "RGB")), cv2.COLOR_RGB2GRAY)
        elif src in INVERSE and dst in ("RGBA", "BGRA"):
            res = cv2.cvtColor(img, cvt_code(src, dst[:3]), dstCn=4)
        else:
            res = cv2.cvtColor(img, cvt_code(src, dst))
        np.ascontiguousarray(res).astype(np.uint8).tofile(out)
    elif cmd == "warp":
        w, h, c, ow, oh = map(int, argv[2:7])
        interp, border, pad = INTERP[argv[7]], BORDER[argv[8]], float(argv[9])
        rest = argv[10:]
        m = [float(v) for v in rest[:-2]]
        inp, out = rest[-2], rest[-1]
        img = load(inp, h, w, c)
        flags = interp | cv2.WARP_INVERSE_MAP
        if len(m) == 6:
            res = cv2.warpAffine(img, np.array(m, np.float64).reshape(2, 3), (ow, oh), flags=flags,
                                 borderMode=border, borderValue=(pad, pad, pad, pad))
        else:
            res = cv2.warpPerspective(img, np.array(m, np.float64).reshape(3, 3), (ow, oh), flags=flags,
                                      borderMode=border, borderValue=(pad, pad, pad, pad))
        np.ascontiguousarray(res).tofile(out)
    elif cmd == "resize":
        w, h, c, ow, oh = map(int, argv[2:7])
        interp, dtype, inp, out = INTERP[argv[7]], argv[8], argv[9], argv[10]
        img = load(inp, h, w, c)
        if dtype == "f32":
            img = img.astype(np.float32)
        res = cv2.resize(img, (ow, oh), interpolation=interp)
        np.ascontiguousarray(res).tofile(out)
    elif cmd == "prep":
        src, dst = argv[2], argv[3]
        w, h, ow, oh = map(int, argv[4:8])
        mean = np.array([float(v) for v in argv[8:12]], np.float32)
        normal = np.array([float(v) for v in argv[12:16]], np.float32)
        inp, out = argv[16], argv[17]
        if src in PLANAR:
            img = np.fromfile(inp, dtype=np.uint8).reshape((h * 3 // 2, w))
        else:
            img = load(inp, h, w, CHANNELS[src])
        if src != dst:
            img = cv2.cvtColor(img, cvt_code(src, dst))
        res = cv2.resize(img.astype(np.float32), (ow, oh), interpolation=cv2.INTER_LINEAR)
        if res.ndim == 2:
            res = res[:, :, None]
        c = res.shape[2]
        res = (res - mean[:c]) * normal[:c]
        np.ascontiguousarray(res.transpose(2, 0, 1)).astype(np.float32).tofile(out)
    else:
        print("unknown command", cmd, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
