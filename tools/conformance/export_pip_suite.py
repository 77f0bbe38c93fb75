#!/usr/bin/env python3
"""Write the node test cases of the pip `onnx` package as folders MNNOnnxSuite can run.

The Debian package libonnx-testdata holds the suite of onnx 1.12. Newer onnx releases on PyPI
build their node cases in Python (onnx.backend.test.loader.load_model_tests(kind="node") returns the
models and numpy data, no files), so this script serializes them into the usual layout:

    OUT/pip-node/<case>/model.onnx
    OUT/pip-node/<case>/test_data_set_0/input_<i>.pb, output_<i>.pb

Run it with the pyenv python3 (not /usr/bin/python3, whose onnx is Debian's 1.12):
    python3 -m pip install onnx
    python3 tools/conformance/export_pip_suite.py --out /tmp/onnx-pip-suite
    build/tools/conformance/MNNOnnxSuite /tmp/onnx-pip-suite/pip-node
"""
import argparse
import os
import shutil
import sys
import warnings


def to_proto(value, type_proto, name):
    """The protobuf for one test value, chosen by the graph's declared type."""
    from onnx import TensorProto, numpy_helper

    if type_proto.HasField("map_type"):
        return numpy_helper.from_dict(value, name)
    if type_proto.HasField("sequence_type"):
        return numpy_helper.from_list(value, name)
    if type_proto.HasField("optional_type"):
        return numpy_helper.from_optional(value, name)
    if isinstance(value, TensorProto):
        return value
    return numpy_helper.from_array(value, name)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output root; cases go to OUT/pip-node/<case>")
    ap.add_argument("--filter", default="", help="only cases whose name contains this")
    args = ap.parse_args()

    warnings.filterwarnings("ignore")
    import onnx
    from onnx.backend.test import loader

    cases = loader.load_model_tests(kind="node")
    root = os.path.join(args.out, "pip-node")
    os.makedirs(root, exist_ok=True)
    written, skipped = 0, []
    for case in cases:
        if args.filter and args.filter not in case.name:
            continue
        if case.model is None or not case.data_sets:
            skipped.append((case.name, "no model or data"))
            continue
        d = os.path.join(root, case.name)
        if os.path.exists(d):
            shutil.rmtree(d)
        data_dir = os.path.join(d, "test_data_set_0")
        os.makedirs(data_dir)
        try:
            graph = case.model.graph
            inputs, outputs = case.data_sets[0]
            # the values belong to the graph inputs in order (initializers come after, if any)
            for j, value in enumerate(inputs):
                proto = to_proto(value, graph.input[j].type, graph.input[j].name)
                with open(os.path.join(data_dir, f"input_{j}.pb"), "wb") as f:
                    f.write(proto.SerializeToString())
            for j, value in enumerate(outputs):
                proto = to_proto(value, graph.output[j].type, graph.output[j].name)
                with open(os.path.join(data_dir, f"output_{j}.pb"), "wb") as f:
                    f.write(proto.SerializeToString())
            with open(os.path.join(d, "model.onnx"), "wb") as f:
                f.write(case.model.SerializeToString())
            written += 1
        except Exception as ex:  # noqa: BLE001 - report and go on
            shutil.rmtree(d, ignore_errors=True)
            skipped.append((case.name, f"{type(ex).__name__}: {ex}"))
    print(f"onnx {onnx.__version__}: wrote {written} node cases to {root}; skipped {len(skipped)}")
    for name, why in skipped:
        print(f"  skipped {name}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
