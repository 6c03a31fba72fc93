# sg_model.py - plain-Python reference of the subgroup mapping and operations,
# written from cl_khr_subgroups / cl_khr_subgroup_* / cl_intel_subgroups and
# docs/semantics.md "Subgroup operations".  Not a test by itself (no .cl):
# the sg_*.py specs load it with
#     exec(open(os.path.join(os.path.dirname(__file__), "sg_model.py")).read())
#
# Mapping: linear local id lid -> subgroup lid // S, lane lid % S; the last
# subgroup of a work-group may be partial.  A non-uniform op sees the lanes
# that reached it together ("active").
import math
import struct

U32 = 0xFFFFFFFF
INT_TYPES = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"]
SIGNED = {"char", "short", "int", "long"}
BITS = {"char": 8, "uchar": 8, "short": 16, "ushort": 16, "int": 32, "uint": 32,
        "long": 64, "ulong": 64, "half": 16, "float": 32, "double": 64}


def subgroups(L, S):
    """Subgroups of a work-group of L work-items: lists of linear local ids."""
    return [list(range(b, min(b + S, L))) for b in range(0, L, S)]


def wg_sizes(G, Lr):
    """Work-group sizes of a 1D NDRange (non-uniform last group allowed)."""
    return [min(Lr, G - b) for b in range(0, G, Lr)]


def tmax(t):
    b = BITS[t]
    return (1 << (b - 1)) - 1 if t in SIGNED else (1 << b) - 1


def tmin(t):
    return -(1 << (BITS[t] - 1)) if t in SIGNED else 0


# --- arithmetic of one step in type t (values: Python ints for integer
# types, Python floats for float/double, half *bits* for half)
def h2f(b):
    return struct.unpack("<e", struct.pack("<H", b & 0xFFFF))[0]


def f2h(x):
    try:
        return struct.unpack("<H", struct.pack("<e", x))[0]
    except OverflowError:
        return 0xFC00 if x < 0 else 0x7C00


def rnd(t, x):
    if t == "float":
        try:
            return struct.unpack("<f", struct.pack("<f", x))[0]
        except OverflowError:
            return math.copysign(math.inf, x)
    return x


def op2(t, op, a, b):
    if t == "half":
        x, y = h2f(a), h2f(b)
        if op == "add":
            return f2h(x + y)
        if op == "mul":
            return f2h(x * y)
        if op == "min":
            return a if (x < y or (x == y and (a & 0x8000))) else b
        if op == "max":
            return a if (x > y or (x == y and not (a & 0x8000))) else b
    if t in ("float", "double"):
        if op == "add":
            return rnd(t, a + b)
        if op == "mul":
            return rnd(t, a * b)
        if op == "min":
            if math.isnan(a):
                return b
            if math.isnan(b):
                return a
            if a == b:
                return a if math.copysign(1, a) < 0 else b
            return min(a, b)
        if op == "max":
            if math.isnan(a):
                return b
            if math.isnan(b):
                return a
            if a == b:
                return b if math.copysign(1, a) < 0 else a
            return max(a, b)
    # integers
    if op == "add":
        return wrapt(t, a + b)
    if op == "mul":
        return wrapt(t, a * b)
    if op == "min":
        return min(a, b)
    if op == "max":
        return max(a, b)
    m = (1 << BITS[t]) - 1
    if op == "and":
        return wrapt(t, (a & m) & (b & m))
    if op == "or":
        return wrapt(t, (a & m) | (b & m))
    if op == "xor":
        return wrapt(t, (a & m) ^ (b & m))
    if op == "land":
        return int(bool(a) and bool(b))
    if op == "lor":
        return int(bool(a) or bool(b))
    if op == "lxor":
        return int(bool(a) != bool(b))
    raise ValueError(op)


def wrapt(t, v):
    b = BITS[t]
    v &= (1 << b) - 1
    if t in SIGNED and v >> (b - 1):
        v -= 1 << b
    return v


def identity(t, op):
    if op in ("add", "or", "xor", "lor", "lxor"):
        return f2h(0.0) if t == "half" else (0.0 if t in ("float", "double") else 0)
    if op == "mul":
        return f2h(1.0) if t == "half" else (1.0 if t in ("float", "double") else 1)
    if op == "min":
        return 0x7C00 if t == "half" else (math.inf if t in ("float", "double") else tmax(t))
    if op == "max":
        return 0xFC00 if t == "half" else (-math.inf if t in ("float", "double") else tmin(t))
    if op == "and":
        return wrapt(t, -1)
    if op == "land":
        return 1
    raise ValueError(op)


def reduce_(t, op, vals):
    acc = vals[0]
    for v in vals[1:]:
        acc = op2(t, op, acc, v)
    return acc


def scan_incl(t, op, vals):
    out, acc = [], None
    for v in vals:
        acc = v if acc is None else op2(t, op, acc, v)
        out.append(acc)
    return out


def scan_excl(t, op, vals):
    out, acc = [], None
    for v in vals:
        out.append(identity(t, op) if acc is None else acc)
        acc = v if acc is None else op2(t, op, acc, v)
    return out


def ballot_bits(preds):
    """preds: dict lane -> bool (active lanes only) -> integer bit mask."""
    return sum(1 << l for l, p in preds.items() if p)


def popcount(x):
    return bin(x).count("1")
