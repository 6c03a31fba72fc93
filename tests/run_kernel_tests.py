#!/usr/bin/env python3
"""Golden kernel tests for spirv-sgrun (python3 standard library only).

Each test is a pair in tests/kernels/ (or tests/subgroup/, tests/spvasm/):  NAME.cl (OpenCL C)
or NAME.spvasm (hand-written SPIR-V assembly, run as is, no optimisation levels) and NAME.py (the
spec).  The spec is plain Python run with the helpers below already defined;
it describes one launch at top level, or several in CASES = [dict(...), ...]:

    kernel = "saxpy"            # optional when the module has one kernel
    std = "CL1.2"               # CL1.2 | CL2.0 | CL3.0   (default CL1.2)
    global_size = (64,)         # 1, 2 or 3 values
    local_size = (16,)          # default: 1 in every dimension
    global_offset = (0,)        # optional (passed as --offset X,Y,Z)
    args = [In("float", xs), Out("float", n, expect=[...], ulp=0),
            InOut("int", data, expect=[...]), Scalar("int", 5),
            Local(256), Null()]
    printf = "text"             # optional: exact printf output
    exit = 0                    # expected exit code of spirv-sgrun
    diag = ["out-of-bounds"]    # substrings each matched by some diagnostic
    subgroup_sizes = [None, 8]  # None: the tool's default
    opts = ["-O0", "-O2"]       # optimisation levels (default both)
    defines = {"N": 4}          # -D for clang
    extra_flags = ["-m32"]      # more compile_cl.sh flags (-m32: 32-bit spir triple, Physical32)
    sweep = True                # also run every std from `std` up to CL3.0 at -O0..-O3
                                # (tests in SWEEP_TESTS below get this too; see --sweep)
    spec_constants = {1: 5}     # --spec ID=VALUE for each entry
    run_flags = ["--step-limit", "1000"]   # more spirv-sgrun flags
    cli = True                  # launch with --global/--local/--arg instead of a run file;
                                # work_dim is then len(global_size) (run files are always 3-D)
    stderr = ["warning"]        # substrings each found in spirv-sgrun's stderr
    error = "OpImageSample"     # substring of the JSON "error" (runs that fail before launch);
                                # a list: any one of them
    jobs_compare = [1, 2]       # run with each -j N (text and --json) and require identical
                                # dumps, printf text and diagnostics
    env = {"SPIRV_SG_JIT_X": "1"}  # more environment variables for every spirv-sgrun run
                                # (a JIT switch that brings back a code shape)
In/Out/InOut take flags="ro" or "wo" (run-file header tokens: read-only, write-only).
Image arguments: Image(width, height, order="RGBA", format="UNORM_INT8", type="uchar",
values=[...] | None, expect=[...], dump=False) (type = element type of the data, one value
per channel); Sampler("normalized address=clamp filter=nearest").

Expected values are computed in the spec by Python, never by running the tool.
Integers are compared exactly (after wrapping to the type); floats bit-exactly
unless ulp=N is given (NaN matches any NaN).  All backends must agree bit for
bit on every dumped output, the printf text and the exit code.
"""
import argparse
import concurrent.futures
import hashlib
import json
import math
import os
import random
import struct
import subprocess
import sys
import threading
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
KDIRS = ([os.environ["SG_KERNEL_DIR"]] if os.environ.get("SG_KERNEL_DIR") else
         [os.path.join(HERE, "kernels"), os.path.join(HERE, "subgroup"), os.path.join(HERE, "spvasm")])
COMPILE = os.path.join(HERE, "compile_cl.sh")

# type name -> (struct code, is_float)
TYPES = {
    "char": ("b", False), "uchar": ("B", False),
    "short": ("h", False), "ushort": ("H", False),
    "int": ("i", False), "uint": ("I", False),
    "long": ("q", False), "ulong": ("Q", False),
    "float": ("f", True), "double": ("d", True),
}
UNSIGNED_OF = {"float": "uint", "double": "ulong"}


def tsize(t):
    return struct.calcsize("<" + TYPES[t][0])


# ---------------------------------------------------------------- helpers
# Everything here is visible to the spec modules.

def f32(x):
    """Round a Python float to the nearest float32 (ties to even)."""
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def f16_bits(x):
    """Bits of the nearest half (round to nearest even)."""
    try:
        return struct.unpack("<H", struct.pack("<e", x))[0]
    except OverflowError:
        return 0xFC00 if x < 0 else 0x7C00


def f16_from_bits(b):
    return struct.unpack("<e", struct.pack("<H", b & 0xFFFF))[0]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f32_from_bits(b):
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def wrap(t, v):
    """Wrap an integer to type t (two's complement)."""
    bits = tsize(t) * 8
    v &= (1 << bits) - 1
    if t in ("char", "short", "int", "long") and v >> (bits - 1):
        v -= 1 << bits
    return v


def sat(t, v):
    bits = tsize(t) * 8
    if t in ("char", "short", "int", "long"):
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    else:
        lo, hi = 0, (1 << bits) - 1
    return max(lo, min(hi, v))


def round_frac(q, p, emin):
    """Round an exact rational q to the nearest binary float with p significant
    bits and minimum normal exponent emin (ties to even); returns a Python float
    (inf on overflow for the format: p=24 float, p=53 double, p=11 half)."""
    from fractions import Fraction
    q = Fraction(q)
    if q == 0:
        return 0.0
    sign = -1 if q < 0 else 1
    q = abs(q)
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    e = max(e, emin)
    scale = Fraction(2) ** (p - 1 - e)
    m = q * scale
    n = m.numerator // m.denominator
    r = m - n
    if r > Fraction(1, 2) or (r == Fraction(1, 2) and n % 2 == 1):
        n += 1
    v = Fraction(n) / scale
    emax = {24: 127, 53: 1023, 11: 15}.get(p, 10**9)
    if v >= Fraction(2) ** (emax + 1):
        return sign * math.inf
    return sign * float(v)


def fma32(a, b, c):
    from fractions import Fraction
    return round_frac(Fraction(a) * Fraction(b) + Fraction(c), 24, -126)


def fma64(a, b, c):
    from fractions import Fraction
    return round_frac(Fraction(a) * Fraction(b) + Fraction(c), 53, -1022)


def cdiv(a, b):
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def crem(a, b):
    return a - cdiv(a, b) * b


def rand_ints(n, lo, hi, seed=1):
    r = random.Random(seed)
    return [r.randint(lo, hi) for _ in range(n)]


def rand_floats(n, lo, hi, seed=1, digits=None):
    """Random float32 values; digits=k keeps k fractional bits (exact sums)."""
    r = random.Random(seed)
    out = []
    for _ in range(n):
        v = r.uniform(lo, hi)
        if digits is not None:
            v = round(v * (1 << digits)) / (1 << digits)
        out.append(f32(v))
    return out


class Arg:
    kind = None

    def __init__(self, type, values=None, count=None, expect=None, ulp=0,
                 fill=None, check=None, name=None):
        if type not in TYPES:
            raise ValueError("unknown type %r" % type)
        self.type = type
        self.values = list(values) if values is not None else None
        self.count = count if count is not None else (len(self.values) if self.values is not None else None)
        self.expect = list(expect) if expect is not None else None
        self.ulp = ulp
        self.fill = fill
        self.check = check  # optional callable(list) -> error string or None
        self.name = name
        self.flags = ""     # more run-file header tokens of a buffer ("ro", "wo")


def In(type, values, flags=""):
    a = Arg(type, values=values)
    a.kind = "in"
    a.flags = flags
    return a


def Out(type, count, expect=None, ulp=0, fill=0, check=None, flags=""):
    a = Arg(type, count=count, expect=expect, ulp=ulp, fill=fill, check=check)
    a.kind = "out"
    a.flags = flags
    return a


def InOut(type, values, expect=None, ulp=0, check=None, flags=""):
    a = Arg(type, values=values, expect=expect, ulp=ulp, check=check)
    a.kind = "inout"
    a.flags = flags
    return a


def Scalar(type, value):
    a = Arg(type, values=value if isinstance(value, (list, tuple)) else [value])
    a.kind = "scalar"
    return a


class Image(Arg):
    """An image argument (docs/runfile.md, EXTENSIONS): values are the stored
    channel values in memory order, as elements of `type`."""
    kind = "image"

    def __init__(self, width, height=1, order="RGBA", format="UNORM_INT8", type="uchar",
                 values=None, expect=None, ulp=0, dump=None, check=None):
        Arg.__init__(self, type, values=values, expect=expect, ulp=ulp, check=check)
        self.width, self.height, self.order, self.format = width, height, order, format
        self.dump = dump if dump is not None else (expect is not None or check is not None)
        if self.count is None:
            self.count = width * height * IMAGE_CHANNELS.get(order, 4)


IMAGE_CHANNELS = {"R": 1, "A": 1, "RG": 2, "RA": 2, "RGB": 3, "RGBA": 4, "BGRA": 4,
                  "ARGB": 4, "ABGR": 4, "INTENSITY": 1, "LUMINANCE": 1}


class Sampler:
    kind = "sampler"

    def __init__(self, tokens=""):
        self.tokens = tokens


def dumped(a):
    return a.kind in ("out", "inout") or (a.kind == "image" and a.dump)


class Local:
    kind = "local"

    def __init__(self, nbytes):
        self.nbytes = nbytes


class Null:
    kind = "null"


SPEC_HELPERS = dict(f32=f32, f16_bits=f16_bits, f16_from_bits=f16_from_bits,
                    f32_bits=f32_bits, f32_from_bits=f32_from_bits,
                    f64_bits=f64_bits, wrap=wrap, sat=sat, cdiv=cdiv, crem=crem, round_frac=round_frac, fma32=fma32, fma64=fma64,
                    rand_ints=rand_ints, rand_floats=rand_floats,
                    In=In, Out=Out, InOut=InOut, Scalar=Scalar, Local=Local,
                    Null=Null, Image=Image, Sampler=Sampler, math=math, struct=struct)

# Representative tests that also run at -O1 and -O3 and in every OpenCL C
# version from their own up to CL3.0 (issue #2: modules from OpenCL C 1.2, 2.0
# and 3.0 at -O0..-O3 must load and run).  --sweep=all does it for every test.
SWEEP_TESTS = {"saxpy", "switch_stmt", "loop_divergent", "atomics_local", "reduce_local",
               "private_struct", "vec4_swizzle", "deep_calls", "printf_basic",
               "generic_ptr", "sg_compact", "double_arith", "early_return"}
STDS = ["CL1.2", "CL2.0", "CL3.0"]
OPTS = ["-O0", "-O1", "-O2", "-O3"]

CASE_KEYS = ("kernel", "std", "global_size", "local_size", "global_offset",
             "args", "printf", "exit", "diag", "subgroup_sizes", "opts",
             "defines", "name", "extra_flags", "sweep", "spec_constants", "run_flags",
             "cli", "stderr", "error", "jobs_compare", "jit_fallback", "env")


def load_spec(path):
    g = dict(SPEC_HELPERS)
    g["__file__"] = path
    with open(path) as f:
        code = compile(f.read(), path, "exec")
    exec(code, g)
    base = {k: g[k] for k in CASE_KEYS if k in g}
    cases = g.get("CASES")
    if cases is None:
        cases = [base]
    else:
        cases = [dict(base, **c) for c in cases]
    out = []
    for i, c in enumerate(cases):
        c = dict(c)
        c.setdefault("std", "CL1.2")
        c.setdefault("local_size", None)
        c.setdefault("exit", 0)
        c.setdefault("diag", [])
        c.setdefault("subgroup_sizes", [None])
        c.setdefault("opts", ["-O0", "-O2"])
        c.setdefault("defines", {})
        c.setdefault("name", str(i) if len(cases) > 1 else "")
        if "args" not in c or "global_size" not in c:
            raise ValueError("%s: case %d needs args and global_size" % (path, i))
        out.append(c)
    return out


# ---------------------------------------------------------------- .sim writing

def fmt_value(t, v):
    if TYPES[t][1]:
        if t == "float":
            return "%.9g" % f32(float(v))
        return "%.17g" % float(v)
    return str(wrap(t, int(v)))


def sim_text(case, kernel_file, kernel_name):
    gs = list(case["global_size"]) + [1] * (3 - len(case["global_size"]))
    ls = case["local_size"] or [1] * len(case["global_size"])
    ls = list(ls) + [1] * (3 - len(ls))
    lines = ["# generated by tests/run_kernel_tests.py", kernel_file, kernel_name,
             " ".join(map(str, gs)), " ".join(map(str, ls))]
    for a in case["args"]:
        lines.append("")
        if a.kind == "local":
            lines.append("<size=%d>" % a.nbytes)
        elif a.kind == "null":
            lines.append("<null>")
        elif a.kind == "sampler":
            lines.append("<%s>" % a.tokens)
        elif a.kind == "image":
            hdr = "width=%d height=%d order=%s format=%s %s" % (
                a.width, a.height, a.order, a.format, a.type)
            if a.values is None:
                hdr += " noinit"
            if a.dump:
                hdr += " dump"
            lines.append("<%s>" % hdr)
            if a.values is not None:
                for i in range(0, len(a.values), 16):
                    lines.append(" ".join(fmt_value(a.type, v) for v in a.values[i:i + 16]))
        elif a.kind == "out" and a.fill is not None:
            fill = fmt_value(a.type, a.fill)
            lines.append("<size=%d %s fill=%s dump%s>" % (a.count * tsize(a.type), a.type, fill,
                                                        " " + a.flags if a.flags else ""))
        else:
            t = a.type
            vals = a.values
            # Non-finite inputs have no portable decimal form: write their bits.
            if TYPES[t][1] and any(math.isnan(v) or math.isinf(v) for v in vals):
                code = TYPES[t][0]
                ut = UNSIGNED_OF[t]
                vals = [struct.unpack("<" + TYPES[ut][0], struct.pack("<" + code, v))[0] for v in vals]
                t = ut
            dump = (" dump" if a.kind == "inout" else "") + (" " + a.flags if a.flags else "")
            if a.kind in ("inout",) and t != a.type:
                raise ValueError("inout buffers cannot hold non-finite values")
            lines.append("<size=%d %s%s>" % (len(vals) * tsize(t), t, dump))
            row = []
            for v in vals:
                row.append(fmt_value(t, v))
                if len(row) == 16:
                    lines.append(" ".join(row))
                    row = []
            if row:
                lines.append(" ".join(row))
    return "\n".join(lines) + "\n"


def cli_args(case):
    """--global/--local/--arg flags for a launch without a run file."""
    gs = list(case["global_size"])
    out = ["--global", ",".join(map(str, gs))]
    if case["local_size"]:
        out += ["--local", ",".join(map(str, case["local_size"]))]
    for a in case["args"]:
        if a.kind == "local":
            spec = "local:%d" % a.nbytes
        elif a.kind == "null":
            spec = "null"
        elif a.kind == "out":
            spec = "fill:%s:%d" % (fmt_value(a.type, a.fill or 0), a.count)
        elif a.kind in ("in", "inout", "scalar"):
            if TYPES[a.type][1] and any(math.isnan(v) or math.isinf(v) for v in a.values):
                raise ValueError("cli launches cannot pass non-finite values")
            spec = ",".join(fmt_value(a.type, v) for v in a.values)
        else:
            raise ValueError("cli launches cannot pass %s arguments" % a.kind)
        out += ["--arg", spec]
    return out


# ---------------------------------------------------------------- comparison

def json_to_bits(t, v):
    """A JSON value of type t -> comparable key (ints, or float bits)."""
    code, isf = TYPES[t]
    if isf:
        if isinstance(v, str):
            v = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(v.lower())
            if v is None:
                raise ValueError("bad float string")
        v = float(v)
        if math.isnan(v):
            return "nan"
        return struct.unpack("<" + ("I" if t == "float" else "Q"), struct.pack("<" + code, v))[0]
    if isinstance(v, float):
        if v != int(v):
            raise ValueError("non-integer %r" % v)
        v = int(v)
    return wrap(t, v)


def ordered(t, bits):
    """Map float bits to a monotonic integer line (for ULP distance)."""
    n = 32 if t == "float" else 64
    sign = 1 << (n - 1)
    return (sign - (bits & ~sign)) if bits & sign else (sign + bits)


def compare(a, got):
    """Return a list of error strings for output arg a."""
    errs = []
    if len(got) != a.count:
        errs.append("%d values dumped, expected %d" % (len(got), a.count))
        return errs
    if a.check is not None:
        e = a.check(got)
        if e:
            errs.append(e)
    if a.expect is None:
        return errs
    if len(a.expect) != a.count:
        errs.append("spec error: %d expected values for %d" % (len(a.expect), a.count))
        return errs
    isf = TYPES[a.type][1]
    bad = 0
    for i, (e, g) in enumerate(zip(a.expect, got)):
        if e is None:
            continue
        try:
            gb = json_to_bits(a.type, g)
        except (ValueError, TypeError) as ex:
            errs.append("[%d] unreadable value %r (%s)" % (i, g, ex))
            bad += 1
            continue
        if isf:
            eb = json_to_bits(a.type, f32(e) if a.type == "float" else e)
            if eb == "nan" or gb == "nan":
                ok = eb == gb
            elif a.ulp:
                ok = abs(ordered(a.type, eb) - ordered(a.type, gb)) <= a.ulp
            else:
                ok = eb == gb
        else:
            eb = wrap(a.type, int(e))
            ok = eb == gb
        if not ok:
            bad += 1
            if bad <= 4:
                errs.append("[%d] got %r expected %r%s" % (
                    i, g, e, (" (tolerance %d ulp)" % a.ulp) if a.ulp else ""))
    if bad > 4:
        errs.append("... %d mismatches in all" % bad)
    return errs


# ---------------------------------------------------------------- running

class Runner:
    def __init__(self, opts):
        self.o = opts
        self.locks = {}
        self.lock = threading.Lock()
        self.check_reports = []
        os.makedirs(opts.work, exist_ok=True)
        with open(COMPILE, "rb") as f:
            self.compile_hash = hashlib.sha1(f.read()).hexdigest()

    def compile(self, test, case, opt):
        if case.get("_asm"):
            return case["_asm"]
        src = case["_cl"]
        with open(src, "rb") as f:
            text = f.read()
        flags = [opt, "-cl-std=" + case["std"]]
        flags += ["-D%s=%s" % (k, v) for k, v in sorted(case["defines"].items())]
        flags += case.get("extra_flags", [])
        h = hashlib.sha1(text + repr(flags).encode() + self.compile_hash.encode()).hexdigest()[:16]
        out = os.path.join(self.o.work, "%s%s-%s.spv" % (test, opt, h))
        with self.lock:
            lk = self.locks.setdefault(out, threading.Lock())
        with lk:
            if not os.path.exists(out):
                tmp = out + ".tmp"
                p = subprocess.run(["sh", COMPILE, src, tmp] + flags,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                if p.returncode != 0:
                    raise RuntimeError("compile failed:\n" + p.stdout.decode(errors="replace"))
                os.replace(tmp, out)
        return out

    def run_oclgrind(self, test, case, opt):
        """Cross-check a spec against Oclgrind (validates the expected values
        themselves; floats are printed with 6 digits there, so compared
        loosely)."""
        sim = os.path.join(self.o.work, "%s.%s.og.sim" % (test, case["name"] or "0"))
        with open(sim, "w") as f:
            f.write(sim_text(case, case["_cl"], case.get("kernel") or test))
        bopts = "-cl-opt-disable -cl-std=%s %s" % (case["std"], " ".join(
            "-D%s=%s" % kv for kv in sorted(case["defines"].items())))
        cmd = ["oclgrind-kernel", "--build-options", bopts, sim]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
        out = p.stdout.decode(errors="replace")
        dumps = []
        for line in out.splitlines():
            if line.startswith("Argument '"):
                dumps.append([])
            elif dumps and line.startswith("  ") and "] = " in line:
                v = line.split("] = ", 1)[1].strip()
                try:
                    dumps[-1].append(int(v))
                except ValueError:
                    dumps[-1].append(float(v.replace("-nan", "nan")))
        errs = []
        if p.returncode != 0:
            errs.append("oclgrind exit %d: %s" % (p.returncode, p.stderr.decode(errors="replace")[:500]))
        k = 0
        for i, a in enumerate(case["args"]):
            if not dumped(a):
                continue
            if k >= len(dumps):
                errs.append("arg %d not dumped by oclgrind" % i)
                break
            got = dumps[k]
            k += 1
            if a.expect is None or len(got) != len(a.expect):
                if a.expect is not None:
                    errs.append("arg %d: %d values" % (i, len(got)))
                continue
            bad = 0
            for j, (e, g) in enumerate(zip(a.expect, got)):
                if e is None:
                    continue
                if TYPES[a.type][1]:
                    e = float(e)
                    ok = (math.isnan(e) and math.isnan(g)) or e == g or abs(e - g) <= 2e-5 * max(abs(e), 1e-30) + 1e-37
                else:
                    ok = wrap(a.type, int(e)) == wrap(a.type, int(g))
                if not ok:
                    bad += 1
                    if bad <= 4:
                        errs.append("arg %d [%d]: oclgrind %r, spec %r" % (i, j, g, e))
            if bad > 4:
                errs.append("arg %d: %d mismatches" % (i, bad))
        if "printf" in case and self.o.verbose:
            errs.append("(printf, check by eye)\n" + out)
        if p.stderr.strip() and case["exit"] == 0:
            errs.append("oclgrind stderr: " + p.stderr.decode(errors="replace")[:800])
        return not errs, errs

    def run_one(self, sim, backend, sg, case, jobs=None, json_out=True):
        cmd = [self.o.sgrun] + (["--json"] if json_out else []) + ["--backend", backend]
        if jobs is not None:
            cmd += ["-j", str(jobs)]
        for k, v in sorted(case.get("spec_constants", {}).items()):
            cmd += ["--spec", "%s=%s" % (k, v)]
        cmd += case.get("run_flags", []) + (self.o.extra_flag or [])
        if case.get("global_offset"):
            cmd += ["--offset", ",".join(map(str, case["global_offset"]))]
        if sg is not None:
            cmd += ["--subgroup-size", str(sg)]
        if isinstance(sim, list):     # a launch without a run file
            cmd += sim
        else:
            cmd.append(sim)
        try:
            env = dict(os.environ, **case["env"]) if case.get("env") else None
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=self.o.timeout, env=env)
        except subprocess.TimeoutExpired:
            return cmd, None, "", "timed out after %ds" % self.o.timeout, None
        out = p.stdout.decode(errors="replace")
        err = p.stderr.decode(errors="replace")
        res = None
        if not json_out:
            return cmd, p.returncode, out, err, None
        try:
            res = json.loads(out, parse_int=lambda s: -0.0 if s == "-0" else int(s))
        except ValueError:
            pass
        if self.o.extra_flag and isinstance(res, dict):
            with self.lock:    # detector reports seen (--extra-flag --check-all: false positives)
                for d in res.get("diagnostics", []):
                    if d.get("class") == "check":
                        self.check_reports.append((" ".join(cmd[-1:] if not isinstance(sim, list) else sim[:1]),
                                                   d.get("kind"), d.get("message")))
        return cmd, p.returncode, out, err, res

    def check_run(self, case, rc, out, err, res):
        """Errors for one backend's result; and a canonical key for agreement."""
        errs = []
        if rc is None:
            return [err], None
        if rc < 0:
            errs.append("killed by signal %d" % -rc)
        if "AddressSanitizer" in err or "runtime error:" in err or "LeakSanitizer" in err:
            errs.append("sanitizer report: " + err.strip().splitlines()[0][:200])
        if rc != case["exit"]:
            msg = (res or {}).get("error") if isinstance(res, dict) else None
            errs.append("exit %s, expected %d%s" % (rc, case["exit"],
                        (": " + msg) if msg else (": " + err.strip()[:300] if err.strip() else "")))
        for want in case.get("stderr", []):
            if want.lower() not in err.lower():
                errs.append("stderr lacks %r: %s" % (want, err.strip()[:300] or "(empty)"))
        if res is None or not isinstance(res, dict):
            errs.append("no JSON on stdout: " + (out.strip()[:200] or "(empty)"))
            return errs, None
        if case.get("error") is not None:
            want = case["error"] if isinstance(case["error"], (list, tuple)) else [case["error"]]
            if not any(w.lower() in str(res.get("error", "")).lower() for w in want):
                errs.append("JSON error %r lacks %s" % (res.get("error"), " or ".join(map(repr, want))))
        if "error" in res and "outputs" not in res:
            if case["exit"] in (0, 1):
                errs.append("tool error: %s" % res["error"])
            return errs, (rc, res.get("error"))
        outs = res.get("outputs", [])
        by_arg = {}
        for o in outs:
            if isinstance(o, dict) and "arg" in o:
                by_arg[o["arg"]] = o
        key = [rc, res.get("printf", ""), res.get("status")]
        for i, a in enumerate(case["args"]):
            if not dumped(a):
                continue
            o = by_arg.get(i)
            if o is None:
                errs.append("arg %d not dumped" % i)
                continue
            vals = o.get("values", [])
            e = compare(a, vals)
            errs += ["arg %d: %s" % (i, x) for x in e]
            try:
                key.append([json_to_bits(a.type, v) for v in vals])
            except (ValueError, TypeError):
                key.append(repr(vals))
        if "printf" in case:
            got = res.get("printf", "")
            if got != case["printf"]:
                errs.append("printf text differs:\n--- expected\n%s--- got\n%s" % (case["printf"], got))
        diags = res.get("diagnostics", []) or []
        for want in case["diag"]:
            if not any(want.lower() in (str(d.get("kind", "")) + " " + str(d.get("message", ""))).lower()
                       for d in diags if isinstance(d, dict)):
                errs.append("no diagnostic matching %r (got %s)" % (
                    want, [d.get("kind") for d in diags if isinstance(d, dict)]))
        if case["exit"] == 0 and res.get("faults", 0):
            errs.append("%s fault(s): %s" % (res.get("faults"), "; ".join(
                str(d.get("message", d.get("kind"))) for d in diags[:3] if isinstance(d, dict))))
        return errs, key

    def check_jobs(self, sim, be, sg, case):
        """Run with each -j N of case["jobs_compare"], with and without --json:
        the dumps, printf text and diagnostics must be identical."""
        errs = []
        first = {}
        for j in case["jobs_compare"]:
            for js in (True, False):
                cmd, rc, out, err, res = self.run_one(sim, be, sg, case, jobs=j, json_out=js)
                if js:
                    e, _ = self.check_run(case, rc, out, err, res)
                    errs += ["-j %d: %s" % (j, x) for x in e]
                    if not isinstance(res, dict):
                        continue
                    got = json.dumps([res.get(k) for k in ("status", "outputs", "printf",
                                                           "diagnostics", "faults", "ub")])
                else:
                    got = "%s\n%s" % (rc, out)
                if js not in first:
                    first[js] = (j, got)
                elif first[js][1] != got:
                    errs.append("%s output differs between -j %d and -j %d" % (
                        "--json" if js else "text", first[js][0], j))
        return errs

    def unit(self, test, case, opt):
        """Run one case at one optimisation level on every backend."""
        lines = []
        if self.o.oclgrind:
            if case.get("_asm") or case.get("cli"):
                return True, ["  (skipped: oclgrind runs only .cl tests through run files)"]
            return self.run_oclgrind(test, case, opt)
        try:
            spv = self.compile(test, case, opt)
        except RuntimeError as e:
            return False, [str(e)]
        kernel = case.get("kernel") or test
        cname = ("." + case["name"]) if case["name"] else ""
        if case.get("cli"):
            sim = [spv, "-k", kernel] + cli_args(case)
        else:
            sim = os.path.join(self.o.work, "%s%s%s.sim" % (test, cname, opt))
            kfile = spv if case.get("_asm") else os.path.basename(spv)
            with open(sim, "w") as f:
                f.write(sim_text(case, kfile, kernel))
        ok = True
        for sg in case["subgroup_sizes"]:
            keys = {}
            for be in self.o.backends:
                cmd, rc, out, err, res = self.run_one(sim, be, sg, case)
                errs, key = self.check_run(case, rc, out, err, res)
                if be == "jit" and isinstance(res, dict) and res.get("backend") not in (None, "jit"):
                    # the JIT must run every kernel of the corpus; a spec may
                    # name a known gap ("jit_fallback": text of the reason)
                    why = res.get("fallback_reason") or "no reason given"
                    allowed = case.get("jit_fallback")
                    if not allowed or allowed not in why:
                        errs = errs + ["the JIT fell back to the interpreter: " + why]
                if not errs and case.get("jobs_compare"):
                    errs = self.check_jobs(sim, be, sg, case)
                tag = "%s%s" % (be, ("/sg%d" % sg) if sg else "")
                if errs:
                    ok = False
                    lines.append("  [%s] %s" % (tag, " ".join(cmd)))
                    lines += ["    " + l for e in errs for l in e.splitlines()]
                elif self.o.verbose:
                    lines.append("  [%s] ok: %s" % (tag, " ".join(cmd)))
                if isinstance(res, dict) and res.get("backend") and res.get("backend") != be and self.o.verbose:
                    lines.append("  [%s] note: ran on backend %s" % (tag, res.get("backend")))
                keys[tag] = key
            vals = [k for k in keys.values() if k is not None]
            if len(vals) > 1 and any(v != vals[0] for v in vals[1:]):
                ok = False
                lines.append("  backends disagree: %s" % ", ".join(
                    t for t, k in keys.items() if k != vals[0]))
        return ok, lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sgrun", default=os.path.join(HERE, "..", "build", "src", "spirv-sgrun"))
    ap.add_argument("--work", default=None, help="cache/work folder (default: next to --sgrun)")
    ap.add_argument("--filter", default="", help="run tests whose name contains this")
    ap.add_argument("--backend", action="append", help="interp, jit (default both)")
    ap.add_argument("--opt", action="append", help="-O0, -O2 (default both)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--dir", action="append", help="folder of NAME.cl|NAME.spvasm + NAME.py tests "
                    "(default: tests/kernels, tests/subgroup and tests/spvasm)")
    ap.add_argument("--sweep", choices=["none", "default", "all"], default="default",
                    help="-O0..-O3 x every std from the test's up to CL3.0: for no test, "
                    "the SWEEP_TESTS and `sweep = True` ones (default), or every test")
    ap.add_argument("--extra-flag", action="append",
                    help="one more spirv-sgrun flag for every run (repeatable); detector reports "
                    "seen are listed at the end (tests/checks_corpus.py)")
    ap.add_argument("--oclgrind", action="store_true",
                    help="check the specs' expected values against oclgrind-kernel instead")
    o = ap.parse_args()
    o.backends = o.backend or ["interp", "jit"]
    o.sgrun = os.path.abspath(o.sgrun)
    if o.work is None:
        o.work = os.path.join(os.path.dirname(os.path.dirname(o.sgrun)), "tests", "kernel-work")
    if o.oclgrind:
        o.opt = ["-O2"]
    if not os.path.exists(o.sgrun) and not o.list and not o.oclgrind:
        print("error: spirv-sgrun not found at %s (build first, or pass --sgrun)" % o.sgrun)
        print("0 passed, 1 failed")
        return 1

    tests = []
    for d in (o.dir or KDIRS):
        if os.path.isdir(d):
            for f in sorted(os.listdir(d)):
                base, ext = os.path.splitext(f)
                if (ext in (".cl", ".spvasm") and os.path.exists(os.path.join(d, base + ".py"))
                        and o.filter in base):
                    tests.append((base, d, ext))
    units = []
    bad_specs = []
    for t, d, ext in tests:
        spec = os.path.join(d, t + ".py")
        try:
            cases = load_spec(spec)
        except Exception:
            bad_specs.append((t, traceback.format_exc(limit=2)))
            continue
        for c in cases:
            if ext == ".spvasm":
                c["_asm"] = os.path.abspath(os.path.join(d, t + ".spvasm"))
                units.append((t, c, "asm"))
                continue
            c["_cl"] = os.path.join(d, t + ".cl")
            variants = [(c, c["opts"])]
            if o.sweep == "all" or (o.sweep == "default" and (c.get("sweep") or t in SWEEP_TESTS)):
                variants[0] = (c, OPTS)
                for std in STDS[STDS.index(c["std"]) + 1:] if c["std"] in STDS else []:
                    variants.append((dict(c, std=std, name=(c["name"] + "." if c["name"] else "") + std),
                                     OPTS))
            for cv, opts in variants:
                for opt in opts:
                    if o.opt and opt not in o.opt:
                        continue
                    units.append((t, cv, opt))
    if o.list:
        for t, c, opt in units:
            print(t + (("." + c["name"]) if c["name"] else ""), opt)
        return 0

    runner = Runner(o)
    passed = failed = 0
    for t, tb in bad_specs:
        failed += 1
        print("FAIL %s (spec error)\n%s" % (t, tb))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, o.jobs)) as ex:
        futs = [(u, ex.submit(runner.unit, *u)) for u in units]
        for (t, c, opt), fut in futs:
            name = "%s%s %s" % (t, ("." + c["name"]) if c["name"] else "", opt)
            try:
                ok, lines = fut.result()
            except Exception:
                ok, lines = False, traceback.format_exc().splitlines()
            print("%s %s" % ("PASS" if ok else "FAIL", name))
            for l in lines:
                print(l)
            sys.stdout.flush()
            if ok:
                passed += 1
            else:
                failed += 1
    if o.extra_flag:
        seen = sorted(set(runner.check_reports))
        for r in seen:
            print("detector report: %s: %s: %s" % r)
        print("detector reports: %d distinct, %d in all" % (len(seen), len(runner.check_reports)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
