#!/usr/bin/env python3
"""Feed spirv-sgrun every kind of bad input a new user would give it.

Each case checks: the exit code the contract names (2 bad input/usage,
1 a fault while running), no crash (signal), no sanitizer report, no Python
traceback, and for exit 2 one clear error line on stderr (warning lines
aside), which must match the case's pattern when it has one.
"""
import argparse
import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMPILE = os.path.join(HERE, "..", "compile_cl.sh")

SIM_HEAD = """# a run file
{spv}
add_one
16 1 1
4 1 1
"""


def words(b):
    return list(struct.unpack("<%dI" % (len(b) // 4), b[:len(b) // 4 * 4]))


def pack(ws):
    return struct.pack("<%dI" % len(ws), *ws)


def patch_invalid_id(spv):
    """Point the first OpLoad's pointer operand at an id past the bound."""
    ws = words(spv)
    bound = ws[3]
    i = 5
    while i < len(ws):
        op, n = ws[i] & 0xFFFF, ws[i] >> 16
        if n == 0:
            break
        if op == 61 and n >= 4:          # OpLoad: type, result, pointer
            ws[i + 3] = bound + 100
            return pack(ws)
        i += n
    raise RuntimeError("no OpLoad in good.spv")


def make_inputs(work):
    os.makedirs(work, exist_ok=True)
    good = os.path.join(work, "good.spv")
    p = subprocess.run(["sh", COMPILE, os.path.join(HERE, "good.cl"), good, "-O0", "-cl-std=CL1.2"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        raise RuntimeError("cannot compile good.cl:\n" + p.stdout.decode(errors="replace"))
    spv = open(good, "rb").read()
    f = {}

    def put(name, data):
        path = os.path.join(work, name)
        with open(path, "wb" if isinstance(data, bytes) else "w") as fh:
            fh.write(data)
        f[name] = path
        return path

    put("empty.spv", b"")
    put("garbage.spv", bytes((i * 151 + 7) & 255 for i in range(333)))
    put("truncated.spv", spv[:len(spv) // 2 + 2])      # mid-instruction, not word aligned
    put("badmagic.spv", pack([0x12345678]) + spv[4:])
    put("badbound.spv", spv[:12] + pack([2]) + spv[16:])
    put("badid.spv", patch_invalid_id(spv))
    put("syntax.spvasm", "; a .spvasm with a syntax error\n"
        "               OpCapability Kernel\n"
        "               OpMemoryModel Physical64 OpenCL\n"
        "          %1 = OpTypeVoid 42 garbage(\n")
    put("compile_error.cl", "kernel void k(global int *p) { p[0] = undeclared_thing; }\n")
    args_ok = "<size=64 int>\n" + " ".join(str(i) for i in range(16)) + "\n<size=64 int fill=0 dump>\n<size=4 int>\n16\n"
    put("ok.sim", SIM_HEAD.format(spv="good.spv") + args_ok)
    put("few_args.sim", SIM_HEAD.format(spv="good.spv") + "<size=64 int fill=1>\n<size=64 int fill=0 dump>\n")
    put("many_args.sim", SIM_HEAD.format(spv="good.spv") + args_ok + "<size=4 int>\n5\n")
    # line 7 holds "1 2 zz 4" (lines: comment, spv, kernel, global, local, <hdr>, values)
    put("bad_number.sim", SIM_HEAD.format(spv="good.spv") + "<size=16 int>\n1 2 zz 4\n"
        "<size=64 int fill=0 dump>\n<size=4 int>\n16\n")
    put("small_buffer.sim", SIM_HEAD.format(spv="good.spv") +
        "<size=16 int>\n1 2 3 4\n<size=64 int fill=0 dump>\n<size=4 int>\n16\n")
    put("missing_kernel_file.sim", SIM_HEAD.format(spv="does_not_exist.spv") + args_ok)
    put("wrong_kernel.sim", SIM_HEAD.format(spv="good.spv").replace("add_one", "no_such_kernel") + args_ok)
    put("bad_header.sim", SIM_HEAD.format(spv="good.spv") + "<size=64 int bogus_token>\n" +
        " ".join("0" for _ in range(16)) + "\n<size=64 int fill=0 dump>\n<size=4 int>\n16\n")
    f["good.spv"] = good
    return f


def cases(f):
    # (name, argv after the tool, expected exit, stderr pattern or None, one_line)
    return [
        ("empty file", [f["empty.spv"]], 2, r"empty|too (small|short)|no |magic|header", True),
        ("garbage bytes", [f["garbage.spv"]], 2, None, True),
        ("truncated .spv", [f["truncated.spv"]], 2, None, True),
        ("wrong magic number", [f["badmagic.spv"]], 2, r"magic", True),
        ("id bound too small", [f["badbound.spv"]], 2, None, True),
        ("invalid id operand", [f["badid.spv"]], 2, None, True),
        ("spvasm syntax error", [f["syntax.spvasm"]], 2, None, True),
        ("OpenCL C compile error", [f["compile_error.cl"]], 2, None, False),
        ("kernel name that does not exist (-k)", ["-k", "nope", f["good.spv"]], 2, r"nope", True),
        ("kernel name that does not exist (.sim)", [f["wrong_kernel.sim"]], 2, r"no_such_kernel", True),
        ("too few args in .sim", [f["few_args.sim"]], 2, None, True),
        ("too many args in .sim", [f["many_args.sim"]], 2, None, True),
        ("bad number in .sim", [f["bad_number.sim"]], 2, r"(line\s*7\b|:7\b)", True),
        ("bad argument header in .sim", [f["bad_header.sim"]], 2, r"bogus_token", True),
        ("missing kernel file named by .sim", [f["missing_kernel_file.sim"]], 2, r"does_not_exist", True),
        ("missing file", [os.path.join(os.path.dirname(f["good.spv"]), "no_such_file.spv")], 2,
         r"no_such_file", True),
        ("unknown option", ["--frobnicate", f["good.spv"]], 2, r"frobnicate", True),
        ("no file at all", [], 2, None, False),
        ("bad --subgroup-size", ["--subgroup-size", "abc", f["ok.sim"]], 2, r"abc|subgroup", True),
        ("zero --subgroup-size", ["--subgroup-size", "0", f["ok.sim"]], 2, r"subgroup", True),
        ("bad --backend", ["--backend", "gpu", f["ok.sim"]], 2, r"gpu|backend", True),
        ("buffer too small (fault, not crash)", [f["small_buffer.sim"]], 1,
         r"out.of.bounds|fault", False),
        ("json error object", ["--json", f["badmagic.spv"]], 2, None, True),
        ("the good run file still runs", [f["ok.sim"]], 0, None, False),
    ]


BAD = [r"Traceback \(most recent", r"Segmentation fault", r"AddressSanitizer", r"LeakSanitizer",
       r"runtime error:", r"core dumped", r"Assertion .* failed", r"Aborted"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sgrun", default=os.path.join(HERE, "..", "..", "build", "src", "spirv-sgrun"))
    ap.add_argument("--work", default=None)
    ap.add_argument("-v", "--verbose", action="store_true")
    o = ap.parse_args()
    o.work = o.work or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(o.sgrun))),
                                    "tests", "bad-input-work")
    if not os.path.exists(o.sgrun):
        print("error: spirv-sgrun not found at %s" % o.sgrun)
        print("0 passed, 1 failed")
        return 1
    try:
        f = make_inputs(o.work)
    except RuntimeError as e:
        print("FAIL setup: %s" % e)
        print("0 passed, 1 failed")
        return 1
    passed = failed = 0
    for name, argv, want, pat, one_line in cases(f):
        cmd = [o.sgrun] + argv
        errs = []
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
            rc, out, err = p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
        except subprocess.TimeoutExpired:
            rc, out, err = None, "", ""
            errs.append("timed out")
        if rc is not None and rc < 0:
            errs.append("killed by signal %d" % -rc)
        elif rc is not None and rc != want:
            errs.append("exit %d, expected %d" % (rc, want))
        for b in BAD:
            if re.search(b, err + out):
                errs.append("output contains %r" % b)
        msg_lines = [l for l in err.splitlines() if l.strip() and "warning" not in l.lower()]
        if want == 2 and rc is not None:
            if "--json" in argv:
                if '"error"' not in out:
                    errs.append("--json: no {\"error\": ...} object on stdout")
            elif not msg_lines:
                errs.append("no error message on stderr")
            elif one_line and len(msg_lines) != 1:
                errs.append("%d error lines, expected one" % len(msg_lines))
        if pat and rc is not None and not re.search(pat, err + out, re.I):
            errs.append("message does not match /%s/" % pat)
        first = (msg_lines[0] if msg_lines else "").strip()
        if errs:
            failed += 1
            print("FAIL %s" % name)
            print("  $ %s" % " ".join(cmd))
            for e in errs:
                print("  " + e)
            for l in err.splitlines()[:6]:
                print("  | " + l)
        else:
            passed += 1
            print("PASS %s%s" % (name, ("  -> " + first[:100]) if (o.verbose and first) else ""))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
