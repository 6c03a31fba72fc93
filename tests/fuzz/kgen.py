#!/usr/bin/env python3
"""kgen: differential random-kernel fuzzer for the JIT (python3 standard library only).

Generates small random OpenCL C kernels (20-60 lines) that are well defined by
construction, compiles each at -O0 and -O2 (tests/compile_cl.sh: clang-15 +
llvm-spirv-15), runs it with the same inputs on `--backend interp` and
`--backend jit`, and compares the two runs byte for byte: every written buffer,
the exit status, and the diagnostics (status, fault and UB counts, the
diagnostic records, printf text).

The interpreter is the ground truth.  This is a differential test: there are
no hand-computed expected values, the expected output of every kernel is what
interp/ computes.  The generator only makes kernels whose result the
specification (and docs/semantics.md) defines, so a difference is a bug of one
backend, and the interpreter's run must itself be clean (exit 0, no
diagnostics): a kernel the interpreter faults on is a generator bug (or an
interpreter bug) and is reported as such.  A mismatch is confirmed by
computing the expected value independently (by hand or in Python) while
reducing it; reproducers go in tests/fuzz/repro/.

What keeps the kernels well defined:
  * every buffer index is masked to the buffer (`& (N-1)`), or an affine
    form (a*gid + b*lid + c*sl + C) whose maximum over the launch fits;
    local arrays are indexed `% lsz` after the barrier;
  * arithmetic on signed ints only where it cannot overflow (operands with a
    tracked bound), otherwise uint/ulong (wrapping is defined); shift
    amounts masked; divisors `| 1` or `+ 1`; float only on small integers,
    so every add, mul, reduction and scan is exact in any order;
  * no data races: a work-item writes only its own out[] slots, bout[gid]
    (block write), cout[] at its rank in the subgroup (stream compaction,
    once); local memory is written at [lid] and read by other lanes only
    after barrier(CLK_LOCAL_MEM_FENCE), with a barrier before the next write;
    bins[] and local bins only through atomics, read after a barrier;
  * barriers and work-group collectives only in work-group-uniform control
    flow, cl_khr_subgroups collectives and Intel shuffles only in
    subgroup-uniform control flow (uniformity is tracked per value and per
    block), with uniform broadcast ids / shuffle deltas; non-uniform
    operations (cl_khr_subgroup_non_uniform_*, ballot, elect) anywhere;
    lane indices `% get_sub_group_size()`; shuffles that reach past the
    subgroup (xor, down, up, block I/O) only in launches whose subgroups are
    all whole; find_lsb/msb only of ballots that include the elected lane.
  * one exception, deliberate and labelled in the kernel header: the old
    value returned by a *local* atomic, whose order is lane order by
    docs/semantics.md ("Atomics run lane by lane in increasing lane order",
    one thread per work-group in both backends).

Modes:
  kgen.py --emit SEED [--dir D]  print the kernel (its header names the launch
                                 and the command); with --dir, write it and its
                                 input files (in.bin, inl.bin, inf.bin) to D
  kgen.py --sgrun PATH --seeds A:B [-j 2] [--keep DIR] [--opt -O0,-O2]
                                 run seeds A..B-1; one line per finding with
                                 the seed, the first difference, the
                                 SPIRV_SG_JIT_* switches under which the JIT
                                 agrees, and a reproducing command; with
                                 --keep, the kernel, inputs, both backends'
                                 buffers and reports and a repro.sh are saved
  --checks                       also run the interpreter's detectors
                                 (--check-all) on every kernel: a report is a
                                 generator bug (the kernels promise no race)
  --ext narrow, --sizes 8,16,32,64
                                 opt-in families for side campaigns (8/16-bit
                                 integers; more subgroup sizes); without them
                                 the kernels of a seed never change
Environment: SG_KGEN_SEEDS=A:B overrides --seeds (a longer run of the meson test).
Exit status: 0 no finding, 1 findings, 2 usage.
"""
import argparse
import concurrent.futures
import json
import re
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
COMPILE = os.path.join(HERE, "..", "compile_cl.sh")

NIN = 2048      # uint elements of in[]
NINL = 512      # ulong elements of inl[]
NINF = 256      # float elements of inf[] (small integers)
NBINS = 32      # bins[]: global atomics
NOUT = 8        # out[] slots per work-item
LT = 256        # local exchange arrays (largest work-group)
NLB = 32        # local atomic bins

U_CONST, U_WG, U_SG, U_LANE = 0, 1, 2, 3
UNAME = ["const", "wg", "sg", "lane"]

# JIT feature switches (docs/semantics.md, JIT): after a mismatch, which one
# makes the JIT agree with the interpreter points at the feature involved.
JIT_FLAGS = ["SPIRV_SG_JIT_CONV=0", "SPIRV_SG_JIT_NO_STRIDES=1", "SPIRV_SG_JIT_NO_AFFINE=1",
             "SPIRV_SG_JIT_NO_ONE_LANE=1", "SPIRV_SG_JIT_NO_UNISEL=1", "SPIRV_SG_JIT_NO_SELFLAG=1",
             "SPIRV_SG_JIT_NO_IFC_LOCAL=1", "SPIRV_SG_JIT_NO_UNIPERM=1", "SPIRV_SG_JIT_NO_VCOPY=1",
             "SPIRV_SG_JIT_NO_VSCAN=1", "SPIRV_SG_JIT_NO_CONDENDS=1", "SPIRV_SG_JIT_NO_REMAT=1",
             "SPIRV_SG_JIT_NO_REMAT_IFC=1", "SPIRV_SG_JIT_NO_COMPRESS=1",
             "SPIRV_SG_JIT_NO_PROMO_CONST=1", "SPIRV_SG_JIT_NO_PROMOTE=1", "SPIRV_SG_JIT_NO_PGATHER=1",
             "SPIRV_SG_JIT_PROMO_ZERO_ALL=1", "SPIRV_SG_JIT_NO_VPOPCNT=1",
             "SPIRV_SG_JIT_NO_BALLOT_BRANCH=1", "SPIRV_SG_JIT_NO_IFC_SCALAR=1",
             "SPIRV_SG_JIT_ZERO_ALL=1", "SPIRV_SG_JIT_PRED_ALWAYS=1", "SPIRV_SG_JIT_NO_DEFER=1",
             "SPIRV_SG_JIT_STEPS=1", "SPIRV_SG_JIT_NO_KCMP=1", "SPIRV_SG_JIT_NO_PHI_VEC=1",
             "SPIRV_SG_JIT_COLD_MEMORY=1", "SPIRV_SG_JIT_NO_MLOOP_LOCAL=1"]


# ---------------------------------------------------------------- launch

class Config:
    """One launch: NDRange, subgroup size, threads.  Chosen before the kernel,
    which may use shuffles past the subgroup only when `whole`."""

    def __init__(self, rng, sizes=None):
        self.reqd = rng.random() < 0.2
        self.S = 16 if self.reqd else rng.choice(sizes or [8, 16, 16, 32])
        self.dims = 2 if rng.random() < 0.12 else 1
        if self.dims == 1:
            mode = rng.random()
            if mode < 0.55:
                L = rng.choice([16, 32, 48, 64, 64, 96, 128, 128, 192, 256, 24, 40, 80, 112])
                G = L * rng.randint(1, max(1, min(6, 1024 // L)))
                self.local = (L,)
            elif mode < 0.78:       # non-uniform work-groups: the last one is smaller
                L = rng.choice([16, 32, 48, 64, 128, 256, 40])
                G = L * rng.randint(1, max(1, 1024 // L - 1)) + rng.randint(1, L - 1)
                self.local = (L,)
            else:                   # local size omitted: the tool picks the largest divisor <= 256
                G = rng.choice([rng.randint(16, 1024), rng.choice([100, 120, 200, 250, 72, 360,
                                                                   640, 1000, 96, 48, 999])])
                L = max(d for d in range(1, 257) if G % d == 0)
                self.local = None
            self.glob = (G,)
            self.G, self.L = G, L
            self.ngroups = (G + L - 1) // L
            self.uniform_wg = G % L == 0
        else:
            while True:
                LX = rng.choice([4, 8, 16, 32, 64])
                LY = rng.choice([1, 2, 3, 4, 8])
                if 8 <= LX * LY <= 256:
                    break
            GX = LX * rng.randint(1, 4)
            GY = LY * rng.randint(1, 3)
            while GX * GY > 1024:
                GY = max(LY, GY - LY)
                GX = max(LX, GX - LX)
            self.glob = (GX, GY)
            self.local = (LX, LY)
            self.G, self.L = GX * GY, LX * LY
            self.ngroups = (GX // LX) * (GY // LY)
            self.uniform_wg = True
        # every subgroup has S lanes: lane l ^ v, l + d, block I/O stay inside
        self.whole = self.uniform_wg and self.L % self.S == 0
        self.nsg = (self.L + self.S - 1) // self.S
        self.jobs = 2 if rng.random() < 0.3 else 1

    def describe(self):
        return "global %s local %s S %d%s jit -j %d" % (
            ",".join(map(str, self.glob)), ",".join(map(str, self.local)) if self.local else "(omitted: %d)" % self.L,
            self.S, " (reqd)" if self.reqd else "", self.jobs)


# ---------------------------------------------------------------- values

class Var:
    __slots__ = ("name", "ty", "u", "mut", "bits", "lim")

    def __init__(self, name, ty, u, mut=False, bits=32, lim=0):
        self.name, self.ty, self.u, self.mut, self.bits, self.lim = name, ty, u, mut, bits, lim


def pick(rng, items):
    """items: [(value, weight)], weight 0 drops it."""
    items = [(v, w) for v, w in items if w > 0]
    t = rng.random() * sum(w for _, w in items)
    for v, w in items:
        t -= w
        if t <= 0:
            return v
    return items[-1][0]


class Gen:
    MAXLINES = 46

    def __init__(self, rng, cfg, ext=()):
        self.r = rng
        self.c = cfg
        self.lines = []
        self.ind = 1
        self.scopes = [[]]
        self.cnt = 0
        self.loops = 0
        self.in_helper = False
        self.locals = []        # local array declarations
        self.used = set()       # features, for the header and the statistics
        self.written = set()    # out[] slots written
        self.helper = None
        self.compact_done = False
        r = rng
        # the kernel's theme: which families it draws from
        self.f_barrier = r.random() < 0.55
        self.f_sg = r.random() < 0.8
        self.f_intel = self.f_sg and r.random() < 0.55
        self.f_ballot = self.f_sg and r.random() < 0.45
        self.f_priv = r.random() < 0.4
        self.f_atomic = r.random() < 0.3
        self.f_vec = r.random() < 0.25
        self.f_float = r.random() < 0.3
        self.f_ulong = r.random() < 0.35
        self.f_int = r.random() < 0.5
        self.f_ptr = r.random() < 0.45
        self.f_else = r.random() < 0.6
        self.f_dloop = r.random() < 0.5     # loops with lane-varying trip counts / breaks
        self.f_switch = r.random() < 0.15
        self.f_wgcoll = self.f_barrier and r.random() < 0.25
        # convergent theme: no varying branch but if-then blocks (the JIT's
        # convergent mode: if-conversion, affine values, recomputation);
        # lane-varying selects are select() or branch-free ?: at -O2
        self.f_conv = r.random() < 0.35
        if self.f_conv:
            self.f_else = self.f_dloop = self.f_switch = False
            self.used.add("conv-theme")
        self.f_locret = self.f_atomic and r.random() < 0.3
        # opt-in (--ext narrow): 8- and 16-bit integers; off, it draws
        # nothing from rng, so the default kernels stay as they are
        self.f_narrow = "narrow" in ext and r.random() < 0.6

    # ---- helpers
    def name(self, p):
        self.cnt += 1
        return "%s%d" % (p, self.cnt)

    def emit(self, s):
        self.lines.append("  " * self.ind + s)

    def visible(self):
        for sc in self.scopes:
            for v in sc:
                yield v

    def declare(self, v):
        self.scopes[-1].append(v)
        return v

    def full(self):
        return len(self.lines) >= self.MAXLINES

    def cu(self):
        """a uint constant"""
        r = self.r
        k = pick(r, [(0, 5), (1, 3), (2, 2), (3, 1), (4, 1), (5, 1)])
        if k == 0:
            v = r.randint(0, 16)
        elif k == 1:
            v = r.randint(0, 255)
        elif k == 2:
            v = r.getrandbits(32)
        elif k == 3:
            v = 0xFFFFFFFF - r.randint(0, 40)
        elif k == 4:
            v = 0x7FFFFFFF + r.randint(-8, 8)
        else:
            v = 1 << r.randint(0, 31)
        return ("%du" % v) if v < 4096 else ("0x%Xu" % v)

    # ---- index expressions (value in [0, N-1])
    def bound(self, term):
        c = self.c
        return {"gid": c.G - 1, "lid": c.L - 1, "sl": c.S - 1, "grp": c.ngroups - 1,
                "sgid": c.nsg - 1}[term]

    def affine(self, N, mu):
        """a*x + b*y + C with its maximum below N, or None."""
        r = self.r
        terms = [t for t, u in (("gid", U_LANE), ("lid", U_LANE), ("sl", U_LANE), ("grp", U_WG),
                                ("sgid", U_SG)) if u <= mu]
        if not terms:
            return None
        parts, tot = [], 0
        for _ in range(r.choice([1, 1, 2])):
            t = r.choice(terms)
            co = r.choice([1, 1, 1, 2, 3, 4, 8])
            b = self.bound(t)
            if tot + co * b > N - 1:
                co = 1
                if tot + b > N - 1:
                    continue
            tot += co * b
            parts.append(t if co == 1 else "%s * %du" % (t, co))
        if not parts:
            return None
        if r.random() < 0.2 and len(parts) == 1 and "*" not in parts[0]:
            # negative stride: C - x
            b = tot
            C = r.randint(b, N - 1)
            self.used.add("affine-neg")
            t = "(%du - %s)" % (C, parts[0])
        else:
            C = r.randint(0, N - 1 - tot) if r.random() < 0.7 else 0
            self.used.add("affine")
            t = "(%s%s)" % (" + ".join(parts), (" + %du" % C) if C else "")
        words = set(re.findall(r"\w+", t))
        u = max([U_CONST] + [uu for w, uu in (("gid", U_LANE), ("lid", U_LANE), ("sl", U_LANE),
                                              ("sgid", U_SG), ("grp", U_WG)) if w in words])
        return t, u

    def index(self, N, mu, d=2):
        r = self.r
        k = pick(r, [("mask", 5), ("aff", 3 if not self.in_helper else 0), ("mod", 1), ("small", 1)])
        if k == "aff":
            a = self.affine(N, mu)
            if a:
                return a
        if k == "mod":
            e, u = self.eu(d, mu)
            return "(%s) %% %du" % (e, r.randint(1, N)), u
        if k == "small":
            e, u = self.eu(d, mu)
            return "(%s) & %du" % (e, r.choice([1, 3, 7, 15, 63]) & (N - 1)), u
        e, u = self.eu(d, mu)
        return "(%s) & %du" % (e, N - 1), u

    def tern(self, cty, c, uc, a, b):
        """c ? a : b; in the convergent theme a lane-varying c uses select(),
        which clang -O0 does not turn into a branch"""
        if self.f_conv and uc == U_LANE and self.r.random() < 0.6:
            return "select(%s, %s, (%s)(%s))" % (b, a, cty, c)
        return "(%s ? %s : %s)" % (c, a, b)

    # ---- uint expressions: (text, uniformity)
    def leaf_u(self, mu):
        r = self.r
        c = []
        for v in self.visible():
            if v.u > mu:
                continue
            if v.ty == "uint":
                c.append(((v.name, v.u), 6))
            elif v.ty == "int":
                c.append((("(uint)" + v.name, v.u), 1))
            elif v.ty == "ulong":
                c.append((("(uint)(%s >> %d)" % (v.name, r.choice([0, 7, 32, 45])), v.u), 1))
            elif v.ty == "float":
                c.append((("(uint)(int)" + v.name, v.u), 1))
            elif v.ty == "uint4":
                c.append((("%s.%s" % (v.name, r.choice("xyzw")), v.u), 1))
            elif v.ty in ("uchar", "char", "ushort", "short"):
                c.append((("(uint)" + v.name, v.u), 2))
            elif v.ty == "gptr":
                c.append((("%s[%d]" % (v.name, r.randint(0, v.lim)), v.u), 3))
            elif v.ty == "lptr":
                c.append((("%s[0]" % v.name, v.u), 3))
            elif v.ty == "parr" and mu == U_LANE:
                c.append((("parr", v), 3))
            elif v.ty == "larr":
                c.append((("larr", v), 3))
        c.append(("const", 3))
        c.append(("load", 3))
        if self.helper and not self.in_helper:
            c.append(("call", 1))
        k = pick(r, c)
        if k == "const":
            return self.cu(), U_CONST
        if k == "load":
            i, u = self.index(NIN, mu, 1)
            return "in[%s]" % i, u
        if k == "call":
            a, ua = self.eu(1, mu)
            b, ub = self.eu(1, mu)
            self.used.add("call")
            return "%s(in, %s, %s)" % (self.helper, a, b), max(ua, ub)
        if isinstance(k, tuple) and k[0] == "parr":
            v = k[1]
            i, _ = self.eu(1, mu)
            self.used.add("priv-read")
            return "%s%s[(%s) & %du]" % ("(uint)" if v.bits == 64 else "", v.name, i, v.lim - 1), U_LANE
        if isinstance(k, tuple) and k[0] == "larr":
            v = k[1]
            i, ui = self.eu(1, mu)
            return "%s[(%s) %% lsz]" % (v.name, i), max(U_WG, ui)
        return k

    def eu(self, d, mu):
        r = self.r
        if d <= 0 or r.random() < 0.22:
            return self.leaf_u(mu)
        k = pick(r, [("bin", 10), ("shift", 3), ("divmod", 2), ("sel", 3), ("minmax", 2),
                     ("int", 2 if self.f_int else 0), ("ulong", 1.5 if self.f_ulong else 0),
                     ("float", 1.5 if self.f_float else 0), ("bi", 2), ("cmp", 1),
                     ("narrow", 3 if self.f_narrow else 0)])
        if k == "narrow":
            return self.en(d, mu)
        if k == "bin":
            a, ua = self.eu(d - 1, mu)
            b, ub = self.eu(d - 1, mu)
            return "(%s %s %s)" % (a, r.choice("+-*^|&+^*"), b), max(ua, ub)
        if k == "shift":
            a, ua = self.eu(d - 1, mu)
            if r.random() < 0.5:
                return "(%s %s %d)" % (a, r.choice(["<<", ">>"]), r.randint(1, 31)), ua
            b, ub = self.eu(d - 1, mu)
            return "(%s %s (%s & 31u))" % (a, r.choice(["<<", ">>"]), b), max(ua, ub)
        if k == "divmod":
            a, ua = self.eu(d - 1, mu)
            b, ub = self.eu(d - 1, mu)
            if r.random() < 0.5:
                return "(%s / (%s | 1u))" % (a, b), max(ua, ub)
            return "(%s %% ((%s & 255u) + 1u))" % (a, b), max(ua, ub)
        if k == "sel":
            c, uc = self.cond(d - 1, mu)
            a, ua = self.eu(d - 1, mu)
            b, ub = self.eu(d - 1, mu)
            return self.tern("uint", c, uc, a, b), max(uc, ua, ub)
        if k == "minmax":
            a, ua = self.eu(d - 1, mu)
            if r.random() < 0.3:
                lo = r.randint(0, 1000)
                return "clamp(%s, %du, %du)" % (a, lo, lo + r.randint(0, 5000)), ua
            b, ub = self.eu(d - 1, mu)
            return "%s(%s, %s)" % (r.choice(["min", "max"]), a, b), max(ua, ub)
        if k == "int":
            a, ua, _ = self.ei(d - 1, mu)
            return "(uint)(%s)" % a, ua
        if k == "ulong":
            a, ua = self.el(d - 1, mu)
            return "(uint)(%s%s)" % (a, r.choice(["", " >> 32", " >> 17"])), ua
        if k == "float":
            a, ua, _ = self.ef(d - 1, mu, 22)
            self.used.add("float")
            return "(uint)(int)(%s)" % a, ua
        if k == "bi":
            f = r.choice(["popcount", "clz", "rotate", "mul_hi", "add_sat", "sub_sat", "hadd",
                          "rhadd", "abs_diff", "mad_hi"])
            a, ua = self.eu(d - 1, mu)
            if f in ("popcount", "clz"):
                return "%s(%s)" % (f, a), ua
            b, ub = self.eu(d - 1, mu)
            if f == "mad_hi":
                e, ue = self.eu(d - 1, mu)
                return "mad_hi(%s, %s, %s)" % (a, b, e), max(ua, ub, ue)
            return "%s(%s, %s)" % (f, a, b), max(ua, ub)
        c, uc = self.cond(d - 1, mu)
        return "(uint)(%s)" % c, uc

    # ---- 8/16-bit integer expressions, as uint (--ext narrow)
    def en(self, d, mu):
        r = self.r
        self.used.add("narrow")
        T = r.choice(["uchar", "char", "ushort", "short"])
        a, ua = self.eu(d - 1, mu)
        b, ub = self.eu(d - 1, mu)
        u = max(ua, ub)
        vs = [v for v in self.visible() if v.ty in ("uchar", "char", "ushort", "short") and v.u <= mu]
        if vs and r.random() < 0.4:
            v = r.choice(vs)
            T, a = v.ty, v.name
        else:
            a = "(%s)(%s)" % (T, a)
        b = "(%s)(%s)" % (T, b)
        k = r.randint(0, 8)
        if k <= 2:          # int promotion, then back to T
            op = r.choice("+-*^&|")
            if op == "*" and T == "ushort":     # 65535 * 65535 overflows int: multiply as uint
                a = "(uint)" + a
            return "(uint)(%s)(%s %s %s)" % (T, a, op, b), u
        if k == 3:
            return "(uint)(%s %s %s)" % (a, r.choice(["<", ">", "==", ">="]), b), u
        if k == 4:
            return "(uint)(%s >> %d)" % (a, r.randint(0, 7)), u
        if k == 5:
            f = r.choice(["add_sat", "sub_sat", "hadd", "rhadd", "rotate", "mul_hi", "abs_diff", "min", "max"])
            return "(uint)%s(%s, %s)" % (f, a, b), u
        if k == 6:
            return "(uint)%s(%s)" % (r.choice(["clz", "popcount", "abs"]), a), u
        if k == 7 and T in ("uchar", "char"):
            return "(uint)upsample(%s, (uchar)(%s))" % (a, b), u
        return "((uint)%s + (uint)%s)" % (a, b), u

    # ---- int expressions: (text, uniformity, magnitude bits)
    def ei(self, d, mu):
        r = self.r
        if d <= 0 or r.random() < 0.3:
            vs = [v for v in self.visible() if v.ty == "int" and v.u <= mu]
            k = pick(r, [("var", 4 if vs else 0), ("cast", 2), ("small", 3), ("const", 1)])
            if k == "var":
                v = r.choice(vs)
                return v.name, v.u, v.bits
            if k == "cast":
                a, ua = self.eu(d - 1, mu)
                return "(int)(%s)" % a, ua, 32
            if k == "small":
                a, ua = self.eu(d - 1, mu)
                return "((int)(%s & 0xffffu) - %d)" % (a, r.randint(0, 65535)), ua, 17
            v = r.randint(-1000, 1000)
            return ("%d" % v) if v >= 0 else "(%d)" % v, U_CONST, 11
        k = r.choice(["minmax", "shr", "div", "add", "mul", "sel", "clamp", "neg"])
        a, ua, ba = self.ei(d - 1, mu)
        if k == "minmax":
            b, ub, bb = self.ei(d - 1, mu)
            return "%s(%s, %s)" % (r.choice(["min", "max"]), a, b), max(ua, ub), max(ba, bb)
        if k == "shr":
            b, ub = self.eu(d - 1, mu)
            return "(%s >> (%s & 31u))" % (a, b), max(ua, ub), ba
        if k == "div":
            b, ub = self.eu(d - 1, mu)
            return "(%s %s ((int)(%s & 255u) + 1))" % (a, r.choice("/%"), b), max(ua, ub), ba
        if k == "add":
            b, ub, bb = self.ei(d - 1, mu)
            if ba <= 30 and bb <= 30:
                return "(%s %s %s)" % (a, r.choice("+-"), b), max(ua, ub), max(ba, bb) + 1
            return "min(%s, %s)" % (a, b), max(ua, ub), max(ba, bb)
        if k == "mul":
            b, ub, bb = self.ei(d - 1, mu)
            if ba + bb <= 31:
                return "(%s * %s)" % (a, b), max(ua, ub), ba + bb
            return "max(%s, %s)" % (a, b), max(ua, ub), max(ba, bb)
        if k == "sel":
            c, uc = self.cond(d - 1, mu)
            b, ub, bb = self.ei(d - 1, mu)
            return self.tern("int", c, uc, a, b), max(uc, ua, ub), max(ba, bb)
        if k == "clamp":
            lo = r.randint(-3000, 3000)
            return "clamp(%s, %d, %d)" % (a, lo, lo + r.randint(0, 6000)), ua, 14
        if ba <= 31:
            return "(-%s)" % a, ua, ba
        return "(int)abs(%s)" % a, ua, 32

    # ---- ulong expressions
    def el(self, d, mu):
        r = self.r
        self.used.add("ulong")
        if d <= 0 or r.random() < 0.3:
            vs = [v for v in self.visible() if v.ty == "ulong" and v.u <= mu]
            k = pick(r, [("var", 4 if vs else 0), ("load", 3), ("cvt", 2), ("pair", 1),
                         ("gid", 1 if mu == U_LANE and not self.in_helper else 0), ("const", 1)])
            if k == "var":
                v = r.choice(vs)
                return v.name, v.u
            if k == "load":
                i, u = self.index(NINL, mu, 1)
                return "inl[%s]" % i, u
            if k == "cvt":
                a, u = self.eu(d - 1, mu)
                return "(ulong)(%s)" % a, u
            if k == "pair":
                a, ua = self.eu(d - 1, mu)
                b, ub = self.eu(d - 1, mu)
                return "upsample(%s, %s)" % (a, b), max(ua, ub)
            if k == "gid":
                return "(ulong)gid", U_LANE
            return "0x%XUL" % r.getrandbits(64), U_CONST
        k = r.choice(["bin", "bin", "shift", "div", "minmax", "rot", "mulhi", "sel"])
        a, ua = self.el(d - 1, mu)
        if k == "shift":
            b, ub = self.eu(d - 1, mu)
            return "(%s %s (%s & 63u))" % (a, r.choice(["<<", ">>"]), b), max(ua, ub)
        if k == "sel":
            c, uc = self.cond(d - 1, mu)
            b, ub = self.el(d - 1, mu)
            return self.tern("ulong", c, uc, a, b), max(uc, ua, ub)
        b, ub = self.el(d - 1, mu)
        u = max(ua, ub)
        if k == "bin":
            return "(%s %s %s)" % (a, r.choice("+-*^|&"), b), u
        if k == "div":
            if r.random() < 0.5:
                return "(%s / (%s | 1UL))" % (a, b), u
            return "(%s %% ((%s & 0xffffUL) + 1UL))" % (a, b), u
        if k == "minmax":
            return "%s(%s, %s)" % (r.choice(["min", "max"]), a, b), u
        if k == "rot":
            return "rotate(%s, %s)" % (a, b), u
        return "mul_hi(%s, %s)" % (a, b), u

    # ---- float expressions on small integers: (text, uniformity, bits)
    def ef(self, d, mu, maxbits):
        r = self.r
        if d <= 0 or r.random() < 0.3:
            vs = [v for v in self.visible() if v.ty == "float" and v.u <= mu and v.bits <= maxbits]
            k = pick(r, [("var", 4 if vs else 0), ("cvt", 3), ("load", 3 if maxbits >= 11 else 0),
                         ("const", 1)])
            if k == "var":
                v = r.choice(vs)
                return v.name, v.u, v.bits
            if k == "load":
                i, u = self.index(NINF, mu, 1)
                return "inf[%s]" % i, u, 11
            if k == "cvt" and maxbits >= 4:
                b = r.randint(2, min(12, maxbits))
                a, u = self.eu(d - 1, mu)
                return "(float)(%s & %du)" % (a, (1 << b) - 1), u, b
            return "%d.0f" % r.randint(0, 7), U_CONST, 3
        k = r.choice(["add", "add", "mul", "minmax", "neg", "sel", "mad"])
        a, ua, ba = self.ef(d - 1, mu, maxbits)
        if k == "neg":
            return "(-%s)" % a, ua, ba
        if k == "sel":
            c, uc = self.cond(d - 1, mu)
            b, ub, bb = self.ef(d - 1, mu, maxbits)
            return self.tern("int", c, uc, a, b), max(uc, ua, ub), max(ba, bb)
        b, ub, bb = self.ef(d - 1, mu, maxbits)
        u = max(ua, ub)
        if k == "add" and max(ba, bb) + 1 <= maxbits:
            return "(%s %s %s)" % (a, r.choice("+-"), b), u, max(ba, bb) + 1
        if k == "mul" and ba + bb <= maxbits:
            return "(%s * %s)" % (a, b), u, ba + bb
        if k == "mad" and ba + bb + 1 <= maxbits:
            c, uc, bc = self.ef(0, mu, min(maxbits - 1, ba + bb))
            return "mad(%s, %s, %s)" % (a, b, c), max(u, uc), max(ba + bb, bc) + 1
        return "%s(%s, %s)" % (r.choice(["fmin", "fmax", "min", "max"]), a, b), u, max(ba, bb)

    # ---- uint4 expressions
    def ev(self, d, mu):
        r = self.r
        self.used.add("vec")
        if d <= 0 or r.random() < 0.35:
            vs = [v for v in self.visible() if v.ty == "uint4" and v.u <= mu]
            k = pick(r, [("var", 4 if vs else 0), ("vload", 3), ("ctor", 2), ("splat", 1)])
            if k == "var":
                v = r.choice(vs)
                return v.name, v.u
            if k == "vload":
                i, u = self.index(NIN // 4, mu, 1)
                return "vload4(%s, in)" % i, u
            if k == "ctor":
                es = [self.eu(d - 1, mu) for _ in range(4)]
                return "(uint4)(%s)" % ", ".join(e for e, _ in es), max(u for _, u in es)
            a, u = self.eu(d - 1, mu)
            return "(uint4)(%s)" % a, u
        k = r.choice(["bin", "bin", "shift", "swz", "minmax", "sel"])
        a, ua = self.ev(d - 1, mu)
        if k == "shift":
            return "(%s %s (uint4)(%du))" % (a, r.choice(["<<", ">>"]), r.randint(1, 31)), ua
        if k == "swz":
            return "%s.%s" % (a, r.choice(["wzyx", "s1032", "s2301", "xxyy", "s3012"])), ua
        b, ub = self.ev(d - 1, mu)
        u = max(ua, ub)
        if k == "bin":
            return "(%s %s %s)" % (a, r.choice("+-*^|&"), b), u
        if k == "minmax":
            return "%s(%s, %s)" % (r.choice(["min", "max"]), a, b), u
        return "select(%s, %s, %s < %s)" % (a, b, a, b), u

    # ---- conditions: (text, uniformity)
    def cond(self, d, mu):
        r = self.r
        forms = [("cmp", 4), ("mask", 3), ("scmp", 2 if self.f_int else 0), ("aff", 3 if mu == U_LANE and not self.in_helper else 0),
                 ("lane", 3 if mu == U_LANE and not self.in_helper else 0), ("fcmp", 1 if self.f_float else 0),
                 ("lcmp", 1 if self.f_ulong else 0), ("andor", 1 if d > 0 else 0),
                 ("uni", 2 if mu >= U_WG else 0)]
        k = pick(r, forms)
        if k == "cmp":
            a, ua = self.eu(max(d - 1, 0), mu)
            b, ub = self.eu(max(d - 1, 0), mu)
            return "(%s %s %s)" % (a, r.choice(["<", "<=", ">", ">=", "==", "!="]), b), max(ua, ub)
        if k == "mask":
            a, ua = self.eu(max(d - 1, 0), mu)
            m = r.choice([1, 3, 7, 15, 0x100, 0x80000000])
            return "((%s & %du) %s %du)" % (a, m, r.choice(["==", "!="]), m & r.choice([0, 1, 2, 3, m])), ua
        if k == "scmp":
            a, ua, _ = self.ei(max(d - 1, 0), mu)
            b, ub, _ = self.ei(max(d - 1, 0), mu)
            return "(%s %s %s)" % (a, r.choice(["<", ">", "<=", ">="]), b), max(ua, ub)
        if k == "aff":
            # compares of two lane-affine values, offsets near the wrap (cond_ends)
            self.used.add("affine-cmp")
            x = r.choice(["(uint)gid", "lid", "sl"])
            y = r.choice(["(uint)gid", "lid", "sl", "0u"])
            off = r.choice(["n", "m", self.cu(), "0x%Xu" % (0xFFFFFFFF - r.randint(0, 20)),
                            "0x%Xu" % (0x7FFFFFF0 + r.randint(0, 31))])
            a = "%s * %du + %s" % (x, r.choice([1, 1, 2, 3, 5, 0xFFFFFFFF]), off)
            b = "%s * %du + %s" % (y, r.choice([1, 2, 4]), r.choice(["m", "n", self.cu()]))
            if r.random() < 0.3:
                return "((int)(%s) %s (int)(%s))" % (a, r.choice(["<", ">="]), b), U_LANE
            return "(%s %s %s)" % (a, r.choice(["<", ">=", "<=", ">"]), b), U_LANE
        if k == "lane":
            S = self.c.S
            return r.choice(["(sl == %du)" % r.randint(0, S - 1), "(sl < %du)" % r.randint(1, S),
                             "(lid < lsz / 2u)", "(gid % 3 == 0)", "(((gid / %d) & 1) != 0)" % r.choice([2, 8, 16]),
                             "(sl > %du)" % r.randint(0, S - 1), "((lid & %du) == 0u)" % r.choice([1, 3, 7])]), U_LANE
        if k == "fcmp":
            a, ua, _ = self.ef(max(d - 1, 0), mu, 20)
            b, ub, _ = self.ef(max(d - 1, 0), mu, 20)
            return "(%s %s %s)" % (a, r.choice(["<", ">", "==", "!="]), b), max(ua, ub)
        if k == "lcmp":
            a, ua = self.el(max(d - 1, 0), mu)
            b, ub = self.el(max(d - 1, 0), mu)
            return "(%s %s %s)" % (a, r.choice(["<", ">", "!="]), b), max(ua, ub)
        if k == "andor":
            a, ua = self.cond(d - 1, mu)
            b, ub = self.cond(d - 1, mu)
            return "(%s %s %s)" % (a, r.choice(["&", "|"] if self.f_conv else ["&&", "||"]), b), max(ua, ub)
        t = r.choice([x for x in (U_CONST, U_WG, U_SG) if x <= mu])
        a, ua = self.eu(max(d - 1, 0), t)
        return "((%s & %du) != 0u)" % (a, r.choice([1, 2, 3, 4, 8])), ua

    def cond_lane(self, d=2):
        """a condition that varies between the lanes of a subgroup"""
        for _ in range(6):
            c, u = self.cond(d, U_LANE)
            if u == U_LANE:
                return c, u
        return "(sl < %du)" % self.r.randint(1, self.c.S - 1), U_LANE

    def cond_at(self, ctx):
        """a condition for a branch: mostly lane-varying, sometimes uniform."""
        t = pick(self.r, [(U_LANE, 5), (U_SG, 1.5), (U_WG, 2), (U_CONST, 1)])
        return self.cond_lane() if t == U_LANE and not self.in_helper else self.cond(2, t)

    # ---- typed value for a declaration
    def value(self, mu):
        r = self.r
        ty = pick(r, [("uint", 8), ("int", 2 if self.f_int else 0), ("ulong", 2 if self.f_ulong else 0),
                      ("float", 2 if self.f_float else 0), ("uint4", 1.5 if self.f_vec else 0),
                      ("narrow", 2 if self.f_narrow else 0)])
        if ty == "narrow":
            ty = r.choice(["uchar", "char", "ushort", "short"])
            e, u = self.eu(3, mu)
            return ty, "(%s)(%s)" % (ty, e), u, 16
        if ty == "uint":
            e, u = self.eu(3, mu)
            return ty, e, u, 32
        if ty == "int":
            return ("int",) + self.ei(3, mu)
        if ty == "ulong":
            e, u = self.el(3, mu)
            return ty, e, u, 64
        if ty == "float":
            e, u, b = self.ef(3, mu, 18)
            return ty, e, u, b
        e, u = self.ev(2, mu)
        return ty, e, u, 32

    def as_uint(self, v):
        if v.ty == "uint":
            return v.name
        if v.ty == "int":
            return "(uint)" + v.name
        if v.ty == "ulong":
            return "(uint)(%s ^ (%s >> 32))" % (v.name, v.name)
        if v.ty == "float":
            return "(uint)(int)" + v.name
        if v.ty == "uint4":
            return "(%s.x ^ %s.y * 3u ^ %s.z * 5u ^ %s.w * 7u)" % ((v.name,) * 4)
        if v.ty == "parr":
            return "(uint)%s[%d]" % (v.name, self.r.randrange(v.lim))
        if v.ty in ("uchar", "char", "ushort", "short"):
            return "(uint)" + v.name
        if v.ty in ("gptr", "lptr"):
            return "%s[0]" % v.name
        return None

    # ---- statements
    def block(self, ctx, n):
        self.scopes.append([])
        for _ in range(n):
            if self.full():
                break
            self.stmt(ctx)
        self.scopes.pop()

    def braced(self, head, ctx, n):
        self.emit(head + " {")
        self.ind += 1
        self.block(ctx, n)
        self.ind -= 1

    def stmt(self, ctx):
        r = self.r
        depth = self.ind - 1
        mut = [v for v in self.visible() if v.mut and v.u >= ctx]
        nest = depth < 3 and not self.full()
        k = pick(r, [
            ("decl", 5), ("update", 3 if mut else 0), ("out", 2 if not self.in_helper else 0),
            ("if", 3 if nest else 0), ("loop", 2 if nest and self.loops < 2 else 0),
            ("swap", 1 if nest and self.loops < 2 and not self.in_helper else 0),
            ("switch", 1 if nest and self.f_switch else 0),
            ("xchg", 3 if ctx <= U_WG and self.f_barrier else 0),
            ("barrier", 0.5 if ctx <= U_WG and self.f_barrier else 0),
            ("latomic", 1 if ctx <= U_WG and self.f_barrier and self.f_atomic else 0),
            ("wgcoll", 1 if ctx <= U_WG and self.f_wgcoll else 0),
            ("sgop", 5 if ctx <= U_SG and self.f_sg and not self.in_helper else 0),
            ("nusg", 1.5 if self.f_sg and not self.in_helper else 0),
            ("ballot", 2 if self.f_ballot and not self.in_helper else 0),
            ("ptrsel", 2 if self.f_ptr and not self.in_helper else 0),
            ("priv", 2 if self.f_priv else 0),
            ("gatomic", 1 if self.f_atomic and not self.in_helper else 0),
            ("vstore", 0.7 if self.f_vec and not self.in_helper else 0),
            ("onelane", 1 if ctx <= U_SG and not self.in_helper else 0),
            ("ret", 1 if self.in_helper else 0),
        ])
        getattr(self, "s_" + k)(ctx)

    def s_decl(self, ctx):
        ty, e, u, b = self.value(U_LANE if self.r.random() < 0.75 else self.r.choice([U_CONST, U_WG, U_SG]))
        v = self.declare(Var(self.name("v"), ty, u, mut=self.r.random() < 0.3 and ty in ("uint", "ulong"), bits=b))
        if v.mut:
            v.u = U_LANE if self.r.random() < 0.7 else max(u, ctx)
        self.emit("%s %s = %s;" % (ty, v.name, e))

    def s_update(self, ctx):
        r = self.r
        v = r.choice([x for x in self.visible() if x.mut and x.u >= ctx])
        if v.ty == "ulong":
            e, _ = self.el(2, v.u)
            self.emit("%s %s= %s;" % (v.name, r.choice("+^*-"), e))
            return
        e, _ = self.eu(2, v.u)
        k = r.randint(0, 4)
        if k == 0:
            self.emit("%s = %s * %du + %s;" % (v.name, v.name, r.choice([3, 5, 17, 0x9E3779B9]), e))
        elif k == 1:
            self.emit("%s = min(%s, %s);" % (v.name, v.name, e) if r.random() < 0.5 else
                      "%s = max(%s, %s);" % (v.name, v.name, e))
        elif k == 2:
            c, _ = self.cond(1, v.u)
            self.emit("%s = %s ? %s : %s;" % (v.name, c, e, v.name))
        else:
            self.emit("%s %s= %s;" % (v.name, r.choice("+^-|"), e))

    def slot(self):
        j = self.r.randrange(NOUT)
        self.written.add(j)
        return j

    def s_out(self, ctx):
        e, _ = self.eu(3, U_LANE)
        self.emit("out[ob + %d] = %s;" % (self.slot(), e))

    def s_vstore(self, ctx):
        e, _ = self.ev(2, U_LANE)
        q = self.r.randrange(NOUT // 4)
        for j in range(4):
            self.written.add(4 * q + j)
        self.emit("vstore4(%s, gid * %d + %d, out);" % (e, NOUT // 4, q))

    def s_if(self, ctx):
        r = self.r
        c, u = self.cond_at(ctx)
        inner = max(ctx, u)
        self.braced("if (%s)" % c, inner, r.randint(1, 3))
        if self.f_else and r.random() < 0.5 and not self.full():
            self.emit("} else {")
            self.ind += 1
            self.block(inner, r.randint(1, 3))
            self.ind -= 1
        self.emit("}")
        if u == U_LANE:
            self.used.add("divergent-if")

    def s_onelane(self, ctx):
        # if (sl == K) ...: one lane, if-converted for that lane alone
        r = self.r
        K = 0 if r.random() < 0.5 else r.randint(0, self.c.S - 1)
        self.used.add("one-lane")
        self.braced("if (sl == %du)" % K, U_LANE, r.randint(1, 2))
        self.emit("}")

    def s_loop(self, ctx):
        r = self.r
        i = self.name("i")
        kind = pick(r, [("const", 4), ("uni", 2), ("lane", 3 if self.f_dloop else 0)])
        if kind == "const":
            head, u = "for (uint %s = 0; %s < %du; %s++)" % (i, i, r.randint(1, 4), i), U_CONST
        elif kind == "uni":
            t = r.choice([U_CONST, U_WG, U_SG])
            e, u = self.eu(1, t)
            head = "for (uint %s = 0; %s < (%s & 3u) + 1u; %s++)" % (i, i, e, i)
        else:
            e, u = self.eu(1, U_LANE)
            if r.random() < 0.5:
                head = "for (uint %s = 0; %s < (%s & 3u); %s++)" % (i, i, e, i)
            else:
                head = "for (uint %s = (%s & 3u); %s < 4u; %s++)" % (i, e, i, i)
            u = U_LANE
            self.used.add("divergent-loop")
        inner = max(ctx, u)
        brk = self.f_dloop and r.random() < 0.3
        if brk:
            inner = U_LANE
        self.loops += 1
        self.emit(head + " {")
        self.ind += 1
        self.scopes.append([Var(i, "uint", u)])
        n = r.randint(1, 3)
        for j in range(n):
            if self.full():
                break
            if brk and j == n // 2:
                c, _ = self.cond(1, U_LANE)
                self.emit("if (%s) %s;" % (c, r.choice(["break", "continue"])))
                self.used.add("break")
            self.stmt(inner)
        self.scopes.pop()
        self.ind -= 1
        self.emit("}")
        self.loops -= 1

    def s_swap(self, ctx):
        # two (or three) values that rotate through a loop whose exit depends
        # on them: phis that read each other, read again after the loop.  At
        # -O2 `t = p % q; p = q; q = t;` is a pair of header phis where one
        # takes the other's value; lanes that leave early must keep theirs
        # (Euclid's loop found a wrong answer in the JIT's masked loops).
        r = self.r
        wide = self.f_ulong and r.random() < 0.35
        ty, suf = ("ulong", "ul") if wide else ("uint", "u")
        mu = U_LANE if (self.f_dloop and r.random() < 0.75) else r.choice([U_CONST, U_WG, U_SG])
        def ex():
            e, u = self.el(2, mu) if wide else self.eu(2, mu)
            if r.random() < 0.6:    # small values: lanes that leave after 0, 1, 2 trips
                e = "((%s) & %d%s)" % (e, r.choice([1, 3, 7, 15, 255]), suf)
            return e, u
        (e1, u1), (e2, u2) = ex(), ex()
        u = max(u1, u2, ctx)
        three = r.random() < 0.3
        p, q, k, t = self.name("p"), self.name("q"), self.name("k"), self.name("t")
        w = self.name("w") if three else None
        if three:
            e3, u3 = ex()
            u = max(u, u3)
            self.emit("%s %s = %s, %s = %s, %s = %s;" % (ty, p, e1, q, e2, w, e3))
        else:
            self.emit("%s %s = %s, %s = %s;" % (ty, p, e1, q, e2))
        self.emit("uint %s = 0u;" % k)
        step = r.randint(0, 3)
        M = r.choice([3, 7, 15])
        K = r.randint(0, M)
        if step == 0:       # Euclid: the divisor is the exit test
            cond, body = "%s != 0%s" % (q, suf), "%s %% %s" % (p, q)
        elif step == 1:     # Fibonacci-like
            cond, body = "(%s & %d%s) != %d%s" % (q, M, suf, K, suf), "%s + %s" % (p, q)
        elif step == 2:     # shift mix
            cond = "(%s & %d%s) != %d%s" % (q, M, suf, K, suf)
            body = "%s ^ (%s >> %d)" % (p, q, r.randint(1, 5))
        else:               # subtractive
            cond, body = "%s != 0%s" % (q, suf), "(%s > %s ? %s - %s : %s - %s)" % (p, q, p, q, q, p)
        lim = r.randint(2, 12)
        rot = ("%s = %s; %s = %s; %s = %s;" % (p, q, q, w, w, t) if three else
               "%s = %s; %s = %s;" % (p, q, q, t))
        form = r.randint(0, 3 if step == 0 else 2)
        if form == 3:       # Euclid needs no bound
            self.emit("while (%s) {" % cond)
        elif form == 0:
            self.emit("while (%s < %du && %s) {" % (k, lim, cond))
        elif form == 1:
            self.emit("for (;;) {")
            self.emit("  if (!(%s)) break;" % cond)
        else:               # the count read after the loop too
            self.emit("for (; %s < %du; %s++) {" % (k, lim, k))
            self.emit("  if (!(%s)) break;" % cond)
        self.ind += 1
        self.emit("%s %s = %s; %s" % (ty, t, body, rot))
        self.loops += 1
        if r.random() < 0.3 and not self.full():     # more work in the loop
            b = 64 if wide else 32
            self.scopes.append([Var(p, ty, u, bits=b), Var(q, ty, u, bits=b)])
            self.block(max(ctx, u), 1)
            self.scopes.pop()
        self.loops -= 1
        if form in (0, 3):
            self.emit("%s++;" % k)
        elif form == 1:
            self.emit("if (++%s >= %du) break;" % (k, lim))
        self.ind -= 1
        self.emit("}")
        if u == U_LANE:
            self.used.add("divergent-loop")
        self.used.add("swap-loop")
        b = 64 if wide else 32
        for v in (p, q) + ((w,) if three else ()):
            self.declare(Var(v, ty, u, bits=b))
        self.declare(Var(k, "uint", u, bits=4))
        self.emit("out[ob + %d] = %s;" % (self.slot(), self.as_uint(Var(p, ty, u, bits=b)) or p))

    def s_switch(self, ctx):
        r = self.r
        e, u = self.eu(2, U_LANE)
        inner = max(ctx, u)
        self.used.add("switch")
        self.emit("switch ((%s) & 3u) {" % e)
        for cs in ["case 0:", "case 1:", "case 2:", "default:"]:
            if r.random() < 0.3 and cs != "default:":
                continue
            self.emit(cs + " {")
            self.ind += 1
            self.block(inner, 1)
            if r.random() < 0.85:
                self.emit("break;")
            self.ind -= 1
            self.emit("}")
        self.emit("}")

    def bar(self):
        self.emit(self.r.choice(["barrier(CLK_LOCAL_MEM_FENCE);"] * 3 +
                                ["barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);",
                                 "work_group_barrier(CLK_LOCAL_MEM_FENCE);"]))
        self.used.add("barrier")
        if self.loops:
            self.used.add("barrier-in-loop")

    def s_barrier(self, ctx):
        self.bar()

    def s_xchg(self, ctx):
        """lt[lid] = x; barrier; read other lanes' slots"""
        r = self.r
        lt = self.name("lt")
        ty = pick(r, [("uint", 4), ("int", 1 if self.f_int else 0), ("float", 1 if self.f_float else 0)])
        self.locals.append("local %s %s[%d];" % (ty, lt, LT))
        if self.loops or r.random() < 0.3:
            self.bar()
        if ty == "uint":
            e, _ = self.eu(3, U_LANE)
        elif ty == "int":
            e, _, b = self.ei(3, U_LANE)
        else:
            e, _, b = self.ef(3, U_LANE, 18)
        self.emit("%s[lid] = %s;" % (lt, e))
        self.bar()
        v = self.name("v")
        idx = r.choice(["(lid + %du) %% lsz" % r.randint(1, 300), "lsz - 1u - lid", "(lid ^ %du) %% lsz" % r.randint(1, 31),
                        "%du %% lsz" % r.randint(0, 300), "(lid * %du + 1u) %% lsz" % r.choice([2, 3, 5, 7])])
        u = U_WG if "lid" not in idx else U_LANE
        if ty == "uint":
            self.emit("uint %s = %s[%s] + %s[(%s) %% lsz];" % (v, lt, idx, lt, self.eu(1, U_LANE)[0]))
            self.declare(Var(v, "uint", U_LANE))
        elif ty == "int":
            self.emit("int %s = %s[%s];" % (v, lt, idx))
            self.declare(Var(v, "int", u, bits=32))
        else:
            self.emit("float %s = %s[%s];" % (v, lt, idx))
            self.declare(Var(v, "float", u, bits=18))
        if ty == "uint":
            self.declare(Var(lt, "larr", U_LANE))
        self.used.add("local-xchg")

    def s_latomic(self, ctx):
        r = self.r
        lb = self.name("lb")
        self.locals.append("local uint %s[%d];" % (lb, NLB))
        if self.loops or r.random() < 0.3:
            self.bar()
        self.emit("for (uint j = lid; j < %du; j += lsz) %s[j] = 0u;" % (NLB, lb))
        self.bar()
        op = r.choice(["atomic_add", "atomic_add", "atomic_inc", "atomic_sub", "atomic_max", "atomic_min",
                       "atomic_or", "atomic_xor"])
        i, _ = self.eu(2, U_LANE)
        if op == "atomic_inc":
            call = "atomic_inc(&%s[(%s) & %du])" % (lb, i, NLB - 1)
        else:
            e, _ = self.eu(2, U_LANE)
            call = "%s(&%s[(%s) & %du], %s)" % (op, lb, i, NLB - 1, e)
        cond = None
        if r.random() < 0.4:
            cond, _ = self.cond(1, U_LANE)
        if self.f_locret and r.random() < 0.5:
            # the old value: lane order in both backends (docs/semantics.md)
            old = self.name("old")
            self.declare(Var(old, "uint", U_LANE))
            self.used.add("local-atomic-old")
            if cond:
                self.emit("uint %s = 0u;" % old)
                self.emit("if (%s) %s = %s;" % (cond, old, call))
            else:
                self.emit("uint %s = %s;" % (old, call))
        elif cond:
            self.emit("if (%s) %s;" % (cond, call))
        else:
            self.emit("%s;" % call)
        self.bar()
        v = self.name("v")
        j, u = self.eu(1, U_LANE)
        self.emit("uint %s = %s[(%s) & %du];" % (v, lb, j, NLB - 1))
        self.declare(Var(v, "uint", max(u, U_WG)))
        self.used.add("local-atomic")

    def s_wgcoll(self, ctx):
        r = self.r
        v = self.name("v")
        f = r.choice(["reduce_add", "reduce_min", "reduce_max", "scan_inclusive_add", "scan_exclusive_add",
                      "scan_inclusive_max", "scan_exclusive_min", "broadcast", "any", "all"])
        if f == "broadcast" and self.c.dims == 2:
            f = "reduce_max"
        if f in ("any", "all"):
            c, _ = self.cond(1, U_LANE)
            self.emit("int %s = work_group_%s(%s);" % (v, f, c))
            self.declare(Var(v, "int", U_WG, bits=1))
        elif f == "broadcast":
            e, _ = self.eu(2, U_LANE)
            i, _ = self.eu(1, U_WG)
            self.emit("uint %s = work_group_broadcast(%s, (size_t)((%s) %% lsz));" % (v, e, i))
            self.declare(Var(v, "uint", U_WG))
        else:
            e, _ = self.eu(2, U_LANE)
            self.emit("uint %s = work_group_%s(%s);" % (v, f, e))
            self.declare(Var(v, "uint", U_WG if f.startswith("reduce") else U_LANE))
        self.used.add("wg-collective")

    def sgval(self, mu=U_LANE, fbits=17):
        """(type, expr, bits) for a subgroup operation's operand"""
        r = self.r
        ty = pick(r, [("uint", 6), ("int", 2 if self.f_int else 0), ("ulong", 1.5 if self.f_ulong else 0),
                      ("float", 1.5 if self.f_float else 0), ("narrow", 3 if self.f_narrow else 0)])
        if ty == "narrow":
            ty = r.choice(["uchar", "ushort"])
            return ty, "(%s)(%s)" % (ty, self.eu(2, mu)[0]), 16
        if ty == "uint":
            return ty, self.eu(2, mu)[0], 32
        if ty == "int":
            a, _ = self.eu(1, mu)
            return ty, "((int)(%s & 0xfffffu) - %d)" % (a, r.randint(0, 1 << 20)), 21
        if ty == "ulong":
            return ty, self.el(2, mu)[0], 64
        e, _, b = self.ef(2, mu, fbits)
        return ty, e, b

    def s_sgop(self, ctx):
        r = self.r
        c = self.c
        v = self.name("v")
        whole = c.whole
        k = pick(r, [("arith", 4), ("bcast", 2), ("vote", 1.5), ("ishuf", 4 if self.f_intel else 0),
                     ("ixor", 2 if self.f_intel and whole else 0), ("idown", 2 if self.f_intel and whole else 0),
                     ("iup", 2 if self.f_intel and whole else 0), ("kshuf", 1), ("kxor", 1 if whole else 0),
                     ("clust", 1), ("bread", 1 if self.f_intel and whole and c.dims == 1 else 0),
                     ("bwrite", 1 if self.f_intel and whole and c.dims == 1 else 0)])
        if k == "arith":
            f = r.choice(["reduce_add", "reduce_min", "reduce_max", "scan_inclusive_add", "scan_inclusive_min",
                          "scan_inclusive_max", "scan_exclusive_add", "scan_exclusive_min", "scan_exclusive_max"])
            ty, e, b = self.sgval(U_LANE, 17)
            self.emit("%s %s = sub_group_%s(%s);" % (ty, v, f, e))
            bb = b if ty != "int" and ty != "float" else b + 6
            self.declare(Var(v, ty, U_SG if f.startswith("reduce") else U_LANE, bits=bb))
            self.used.add("sg-" + f.split("_")[0])
            return
        if k == "bcast":
            ty, e, b = self.sgval()
            i, _ = self.eu(1, U_SG)
            self.emit("%s %s = sub_group_broadcast(%s, (%s) %% sgsz);" % (ty, v, e, i))
            self.declare(Var(v, ty, U_SG, bits=b))
            self.used.add("sg-broadcast")
            return
        if k == "vote":
            cnd, _ = self.cond(1, U_LANE)
            self.emit("int %s = sub_group_%s(%s);" % (v, r.choice(["any", "all"]), cnd))
            self.declare(Var(v, "int", U_SG, bits=1))
            self.used.add("sg-vote")
            return
        if k == "clust":
            ty, e, b = self.sgval(U_LANE, 17)
            if ty == "float":
                ty, e, b = "uint", self.eu(2, U_LANE)[0], 32
            C = r.choice([s for s in (1, 2, 4, 8, 16, 32) if s <= c.S])
            self.emit("%s %s = sub_group_clustered_reduce_%s(%s, %d);" % (ty, v, r.choice(["add", "min", "max"]), e, C))
            self.declare(Var(v, ty, U_LANE, bits=b + 6 if ty == "int" else b))
            self.used.add("sg-clustered")
            return
        if k == "bread":
            i, _ = self.eu(1, U_SG)
            if r.random() < 0.5:
                self.emit("uint %s = intel_sub_group_block_read(in + ((%s) & 1023u));" % (v, i))
                self.declare(Var(v, "uint", U_LANE))
            else:
                self.emit("uint2 %s = intel_sub_group_block_read2(in + ((%s) & 1023u));" % (v, i))
                w = self.name("v")
                self.emit("uint %s = %s.x ^ (%s.y * 3u);" % (w, v, v))
                self.declare(Var(w, "uint", U_LANE))
            self.used.add("block-read")
            return
        if k == "bwrite":
            e, _ = self.eu(2, U_LANE)
            self.emit("intel_sub_group_block_write(bout + (gid - sl), %s);" % e)
            self.used.add("block-write")
            return
        ty, e, b = self.sgval(U_LANE, 22)
        if ty == "ulong" and k in ("kshuf", "kxor") and r.random() < 0.5:
            ty, e, b = "uint", self.eu(2, U_LANE)[0], 32
        S = c.S
        if k == "ishuf":
            i, ui = self.eu(1, U_LANE)
            self.emit("%s %s = intel_sub_group_shuffle(%s, (%s) %% sgsz);" % (ty, v, e, i))
            self.declare(Var(v, ty, U_SG if ui <= U_SG else U_LANE, bits=b))
            self.used.add("intel-shuffle")
        elif k == "kshuf":
            i, ui = self.eu(1, U_LANE)
            self.emit("%s %s = sub_group_shuffle(%s, (%s) %% sgsz);" % (ty, v, e, i))
            self.declare(Var(v, ty, U_SG if ui <= U_SG else U_LANE, bits=b))
            self.used.add("khr-shuffle")
        elif k in ("ixor", "kxor"):
            d = self.delta(S - 1, U_SG)
            fn = "intel_sub_group_shuffle_xor" if k == "ixor" else "sub_group_shuffle_xor"
            self.emit("%s %s = %s(%s, %s);" % (ty, v, fn, e, d))
            self.declare(Var(v, ty, U_LANE, bits=b))
            self.used.add(fn.replace("_sub_group", "").replace("sub_group_", "khr_"))
        else:
            t2, e2, b2 = ty, None, b
            if ty == "uint":
                e2 = self.eu(2, U_LANE)[0]
            elif ty == "int":
                e2 = "((int)(%s & 0xfffffu) - %d)" % (self.eu(1, U_LANE)[0], r.randint(0, 1 << 20))
            elif ty == "ulong":
                e2 = self.el(2, U_LANE)[0]
            elif ty in ("uchar", "ushort"):
                e2 = "(%s)(%s)" % (ty, self.eu(2, U_LANE)[0])
            else:
                e2, _, b2 = self.ef(2, U_LANE, b)
            d = self.delta(S, U_SG)
            if k == "idown":
                self.emit("%s %s = intel_sub_group_shuffle_down(%s, %s, %s);" % (ty, v, e, e2, d))
            else:
                self.emit("%s %s = intel_sub_group_shuffle_up(%s, %s, %s);" % (ty, v, e, e2, d))
            self.declare(Var(v, ty, U_LANE, bits=max(b, b2)))
            self.used.add("intel-" + k[1:])

    def delta(self, hi, mu):
        """a uniform shuffle delta in [0, hi]"""
        r = self.r
        if r.random() < 0.6:
            return "%du" % r.randint(0, hi)
        e, _ = self.eu(1, mu)
        if hi & (hi + 1) == 0:
            return "((%s) & %du)" % (e, hi)
        return "((%s) %% %du)" % (e, hi + 1)

    def s_nusg(self, ctx):
        r = self.r
        v = self.name("v")
        k = pick(r, [("arith", 4), ("elect", 1), ("first", 1), ("vote", 1)])
        # the result is uniform among the lanes that ran it: in a divergent
        # block that is not the subgroup, so it counts as lane-varying there
        ures = U_SG if ctx <= U_SG else U_LANE
        if k == "arith":
            ty, e, b = self.sgval(U_LANE, 17)
            ops = ["add", "min", "max"] + (["and", "or", "xor", "mul"] if ty in ("uint", "ulong") else [])
            f = "%s_%s" % (r.choice(["reduce", "scan_inclusive", "scan_exclusive"]), r.choice(ops))
            self.emit("%s %s = sub_group_non_uniform_%s(%s);" % (ty, v, f, e))
            self.declare(Var(v, ty, ures if f.startswith("reduce") else U_LANE,
                             bits=b + 6 if ty in ("int", "float") else b))
        elif k == "elect":
            self.emit("int %s = sub_group_elect();" % v)
            self.declare(Var(v, "int", U_LANE, bits=1))
        elif k == "first":
            ty, e, b = self.sgval()
            self.emit("%s %s = sub_group_broadcast_first(%s);" % (ty, v, e))
            self.declare(Var(v, ty, ures, bits=b))
        else:
            c, _ = self.cond(1, U_LANE)
            f = r.choice(["all", "any"])
            if r.random() < 0.3:
                self.emit("int %s = sub_group_non_uniform_all_equal(%s);" % (v, self.eu(1, U_LANE)[0]))
            else:
                self.emit("int %s = sub_group_non_uniform_%s(%s);" % (v, f, c))
            self.declare(Var(v, "int", ures, bits=1))
        self.used.add("sg-nonuniform")

    def s_ballot(self, ctx):
        """sub_group_ballot and its bit counts; non-uniform, so any block.
        Sometimes a branch on the ballot's predicate (ballot-branch) or stream
        compaction (compress store)."""
        r = self.r
        p = self.name("p")
        c, _ = self.cond(2, U_LANE)
        self.emit("int %s = %s;" % (p, c))
        b = self.name("b")
        self.emit("uint4 %s = sub_group_ballot(%s);" % (b, p))
        self.used.add("ballot")
        v = self.name("v")
        k = r.choice(["count", "incl", "excl", "extract", "lsb", "msb", "words"])
        if k == "count":
            self.emit("uint %s = sub_group_ballot_bit_count(%s);" % (v, b))
        elif k == "incl":
            self.emit("uint %s = sub_group_ballot_inclusive_scan(%s);" % (v, b))
        elif k == "excl":
            self.emit("uint %s = sub_group_ballot_exclusive_scan(%s);" % (v, b))
        elif k == "extract":
            self.emit("uint %s = sub_group_ballot_bit_extract(%s, (%s) & 127u);" % (v, b, self.eu(1, U_LANE)[0]))
        elif k in ("lsb", "msb"):
            # elect is set in one active lane: never an empty ballot
            self.emit("uint %s = sub_group_ballot_find_%s(sub_group_ballot(%s || sub_group_elect()));" % (v, k, p))
        else:
            self.emit("uint %s = %s.x ^ (%s.y * 7u) ^ %s.z ^ %s.w;" % (v, b, b, b, b))
        self.declare(Var(v, "uint", U_LANE))
        self.declare(Var(p, "int", U_LANE, bits=1))
        if r.random() < 0.35 and not self.full():
            self.used.add("ballot-branch")
            self.braced("if (%s)" % p, U_LANE, r.randint(1, 2))
            self.emit("}")
        elif (ctx <= U_SG and self.c.dims == 1 and not self.compact_done and not self.loops
              and r.random() < 0.5):
            # stream compaction: each kept lane writes its rank's slot of its
            # subgroup's range of cout[] (gid - sl is lane 0's gid in 1-D)
            self.compact_done = True
            x, _ = self.eu(2, U_LANE)
            self.emit("if (%s) cout[(gid - sl) + sub_group_ballot_exclusive_scan(%s)] = %s;" % (p, b, x))
            self.used.add("compaction")

    def s_ptrsel(self, ctx):
        """a pointer chosen by a select, dereferenced later (maybe after a barrier)"""
        r = self.r
        c, uc = self.cond_lane() if r.random() < 0.75 else self.cond_at(ctx)
        p = self.name("p")
        lim = r.randint(0, 3)
        larr = [v for v in self.visible() if v.ty == "larr"]
        parr = [v for v in self.visible() if v.ty == "parr" and v.lim >= 8 and v.bits == 32]
        k = pick(r, [("same", 6), ("diff", 2), ("masked", 1.5), ("local", 2 if larr else 0),
                     ("priv", 1 if parr else 0)])
        if k == "local":
            lt = r.choice(larr).name
            self.emit("local uint *%s = %s ? %s + lid : %s + (lid + %du) %% lsz;" % (p, c, lt, lt, r.randint(1, 40)))
            self.declare(Var(p, "lptr", U_LANE))
            self.used.add("ptrsel-local")
            return
        if k == "priv":
            pa = r.choice(parr)
            self.emit("uint *%s = %s ? %s + %d : %s + %d;" % (p, c, pa.name, r.randint(0, 4), pa.name, r.randint(0, 4)))
            self.declare(Var(p, "gptr", U_LANE, lim=min(lim, pa.lim - 5)))
            self.used.add("ptrsel-private")
            return
        span = NIN - 1 - lim
        if k == "same":
            base = None
            if r.random() < 0.6:    # consecutive elements: the lanes' accesses are one block
                x = r.choice(["gid", "gid", "lid", "sl"])
                u = r.choice(["", "", " + grp", " + sgid * %du" % self.c.S])
                mx = self.bound(x) + (self.bound("grp") if "grp" in u else 0) + (
                    self.bound("sgid") * self.c.S if "sgid" in u else 0)
                if mx <= span - 600:
                    base = "(%s%s + %du)" % (x, u, r.randint(0, span - 600 - mx))
            for _ in range(4):      # a lane-varying base: the arms step by its stride
                if base:
                    break
                base = (self.affine(span - 600, U_LANE) or ("gid",))[0]
                if not re.search(r"\b(gid|lid|sl)\b", base):
                    base = None
            base = base or "gid"
            C = r.randint(1, 512)
            a, b = "in + %s" % base, "in + %s + %d" % (base, C)
            if r.random() < 0.5:
                a, b = b, a
            self.used.add("ptrsel-same-stride")
        elif k == "diff":
            a = "in + %s" % (self.affine(span, U_LANE) or ("(uint)gid",))[0]
            b = "in + %s" % (self.affine(span, U_LANE) or ("lid",))[0]
            self.used.add("ptrsel-diff-stride")
        else:
            e1, _ = self.eu(1, U_LANE)
            e2, _ = self.eu(1, U_SG)
            a, b = "in + ((%s) & 1023u)" % e1, "in + ((%s) & 1023u)" % e2
            self.used.add("ptrsel-masked")
        self.emit("global const uint *%s = %s ? %s : %s;" % (p, c, a, b))
        self.declare(Var(p, "gptr", U_LANE, lim=lim))
        if ctx <= U_WG and self.f_barrier and r.random() < 0.6:
            self.bar()
            self.used.add("ptrsel-barrier")
            if r.random() < 0.85:       # dereferenced right after the barrier
                v = self.name("v")
                e, _ = self.eu(1, U_LANE)
                self.emit("uint %s = %s[%d] %s %s;" % (v, p, r.randint(0, lim), r.choice("+^"), e))
                self.declare(Var(v, "uint", U_LANE))

    def s_priv(self, ctx):
        r = self.r
        arrs = [v for v in self.visible() if v.ty == "parr"]
        if not arrs or r.random() < 0.25:
            N = r.choice([4, 8, 8, 16])
            pa = self.name("pa")
            ty = "ulong" if self.f_ulong and r.random() < 0.25 else "uint"
            if r.random() < 0.5:
                e, _ = self.eu(2, U_LANE)
                self.emit("%s %s[%d];" % (ty, pa, N))
                self.emit("for (uint j = 0; j < %du; j++) %s[j] = (%s) * (j + %du);" % (N, pa, e, r.randint(1, 9)))
            else:
                es = [self.eu(1, U_LANE)[0] for _ in range(N)]
                self.emit("%s %s[%d] = {%s};" % (ty, pa, N, ", ".join(es)))
            self.declare(Var(pa, "parr", U_LANE, lim=N, bits=64 if ty == "ulong" else 32))
            self.used.add("private-array")
            return
        pa = r.choice(arrs)
        if r.random() < 0.4:
            i, _ = self.eu(1, U_SG)        # uniform index
            self.used.add("priv-uniform-index")
        else:
            i, _ = self.eu(2, U_LANE)
            self.used.add("priv-lane-index")
        e, _ = self.eu(2, U_LANE)
        self.emit("%s[(%s) & %du] %s= %s;" % (pa.name, i, pa.lim - 1, r.choice(["", "+", "^"]), e))

    def s_gatomic(self, ctx):
        r = self.r
        i, _ = self.eu(2, U_LANE)
        op = r.choice(["atomic_add", "atomic_add", "atomic_inc", "atomic_sub", "atomic_dec"])
        if op in ("atomic_inc", "atomic_dec"):
            self.emit("%s(&bins[(%s) & %du]);" % (op, i, NBINS - 1))
        else:
            e, _ = self.eu(2, U_LANE)
            self.emit("%s(&bins[(%s) & %du], %s);" % (op, i, NBINS - 1, e))
        self.used.add("global-atomic")

    def s_ret(self, ctx):
        c, _ = self.cond(1, U_LANE)
        e, _ = self.eu(2, U_LANE)
        self.emit("if (%s) return %s;" % (c, e))
        self.used.add("early-return")

    # ---- whole kernel
    def make_helper(self):
        self.in_helper = True
        name = "h%d" % self.r.randint(0, 99)
        saved = self.lines
        self.lines = []
        self.scopes = [[Var("a", "uint", U_LANE), Var("b", "uint", U_LANE)]]
        fs = (self.f_barrier, self.f_sg, self.f_atomic, self.f_float, self.f_ulong, self.f_ptr)
        self.f_barrier = self.f_sg = self.f_atomic = self.f_float = self.f_ulong = self.f_ptr = False
        self.ind = 1
        self.block(U_LANE, self.r.randint(2, 4))
        self.emit("return %s;" % self.eu(2, U_LANE)[0])
        body = self.lines
        self.lines = saved
        (self.f_barrier, self.f_sg, self.f_atomic, self.f_float, self.f_ulong, self.f_ptr) = fs
        self.in_helper = False
        self.used.add("helper")
        self.helper = name
        return ["uint %s(global const uint *in, uint a, uint b)" % name, "{"] + body + ["}"]

    def kernel(self):
        r = self.r
        c = self.c
        small = r.random() < 0.3       # a few statements: focused, quick to reduce
        helper = self.make_helper() if r.random() < 0.2 and not self.f_conv and not small else []
        self.MAXLINES = (14 if small else 46) - len(helper)
        top = [Var("(uint)gid", "uint", U_LANE), Var("lid", "uint", U_LANE), Var("sl", "uint", U_LANE),
               Var("lsz", "uint", U_WG), Var("grp", "uint", U_WG), Var("sgid", "uint", U_SG),
               Var("sgsz", "uint", U_SG), Var("n", "uint", U_CONST), Var("m", "uint", U_CONST)]
        self.scopes = [top, []]
        self.ind = 1
        # loop-carried accumulators (some uniform ones, updated only in uniform blocks)
        for _ in range(r.randint(1, 3)):
            uni = r.random() < 0.3
            v = self.name("acc")
            e, u = self.eu(2, U_WG if uni else U_LANE)
            self.emit("uint %s = %s;" % (v, e))
            self.declare(Var(v, "uint", U_WG if uni else U_LANE, mut=True))
        for _ in range(r.randint(2, 4) if small else r.randint(5, 12)):
            if self.full():
                break
            self.stmt(U_WG)
        # epilogue: every top-level value reaches out[]
        vals = [self.as_uint(v) for v in self.scopes[-1]]
        vals = [x for x in vals if x]
        r.shuffle(vals)
        slots = list(range(NOUT))
        r.shuffle(slots)
        for j, s in enumerate(slots):
            part = vals[j::NOUT]
            if not part:
                continue
            expr = " ^ ".join("(%s) * %du" % (x, 2 * k + 1) if k else x for k, x in enumerate(part))
            self.emit("out[ob + %d] %s %s;" % (s, "^=" if s in self.written else "=", expr))
        body = self.lines
        if c.dims == 1:
            pro = ["size_t gid = get_global_id(0);", "uint lid = get_local_id(0);",
                   "uint lsz = get_local_size(0);", "uint grp = get_group_id(0);"]
        else:
            pro = ["size_t gid = get_global_id(1) * get_global_size(0) + get_global_id(0);",
                   "uint lid = get_local_id(1) * get_local_size(0) + get_local_id(0);",
                   "uint lsz = get_local_size(0) * get_local_size(1);",
                   "uint grp = get_group_id(1) * get_num_groups(0) + get_group_id(0);"]
        pro += ["uint sl = get_sub_group_local_id();", "uint sgid = get_sub_group_id();",
                "uint sgsz = get_sub_group_size();", "size_t ob = gid * %d;" % NOUT]
        text = "\n".join(body + self.locals)
        words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", "\n".join(body + helper)))
        keep = []
        for p in pro:
            nm = re.match(r"\w+ (\w+) =", p).group(1)
            if nm in words or (nm == "gid" and "ob" in words) or (nm == "lsz" and "lsz" in text):
                keep.append(p)
        # lsz is needed by the local arrays' zeroing loops; gid by ob
        head = []
        if self.f_intel and any(("intel_" in l) for l in body):
            head.append("#pragma OPENCL EXTENSION cl_intel_subgroups : enable")
            if self.f_narrow:
                head.append("#pragma OPENCL EXTENSION cl_intel_subgroups_short : enable")
        if any("sub_group" in l for l in body):
            head.append("#pragma OPENCL EXTENSION cl_khr_subgroups : enable")
        if helper:
            head += helper
        if c.reqd:
            head.append("__attribute__((intel_reqd_sub_group_size(16)))")
        head.append("kernel void kgen(global const uint *in, global const ulong *inl, global const float *inf,")
        head.append("                 global uint *out, global uint *bins, global uint *bout, global uint *cout,")
        head.append("                 uint n, uint m)")
        head.append("{")
        src = head + ["  " + x for x in keep] + ["  " + x for x in self.locals] + body + ["}"]
        return "\n".join(src) + "\n"


# ---------------------------------------------------------------- a case

class Case:
    """Everything one seed makes: launch, inputs, kernel."""

    def __init__(self, seed, sizes=None, ext=()):
        self.seed = seed
        r = random.Random(seed)
        self.cfg = Config(r, sizes)
        ri = random.Random(seed * 7919 + 1)
        ins = []
        for _ in range(NIN):
            k = ri.random()
            if k < 0.3:
                ins.append(ri.randint(0, 255))
            elif k < 0.4:
                ins.append(ri.randint(0, 15))
            elif k < 0.5:
                ins.append(0xFFFFFFFF - ri.randint(0, 300))
            elif k < 0.55:
                ins.append(0x80000000 + ri.randint(-100, 100))
            else:
                ins.append(ri.getrandbits(32))
        self.in_bytes = struct.pack("<%dI" % NIN, *ins)
        self.inl_bytes = struct.pack("<%dQ" % NINL, *[ri.getrandbits(64) if ri.random() < 0.7
                                                      else ri.randint(0, 1000) for _ in range(NINL)])
        self.inf_bytes = struct.pack("<%df" % NINF, *[float(ri.randint(-1024, 1023)) for _ in range(NINF)])
        self.n = ri.choice([ri.randint(0, 64), ri.getrandbits(32), 0xFFFFFFFF - ri.randint(0, 64),
                            0x7FFFFFFF - ri.randint(0, 64), ri.randint(0, 2000)])
        self.m = ri.choice([ri.randint(0, 64), ri.randint(0, 1024), ri.getrandbits(32)])
        g = Gen(r, self.cfg, ext)
        self.src = g.kernel()
        self.features = sorted(g.used)
        c = self.cfg
        hdr = ["// kgen seed %d: %s" % (seed, c.describe()),
               "// features: %s" % " ".join(self.features),
               "// %s" % " ".join(self.run_args("kgen-%d.cl" % seed, "-O2"))]
        self.src = "\n".join(hdr) + "\n" + self.src

    def run_args(self, kfile, opt, backend="jit", outs=True):
        c = self.cfg
        a = ["spirv-sgrun", "--backend", backend]
        if backend == "jit":
            a += ["-j", str(c.jobs)]
        a += [opt, "--global", ",".join(map(str, c.glob))]
        if c.local:
            a += ["--local", ",".join(map(str, c.local))]
        if not c.reqd:
            a += ["--subgroup-size", str(c.S)]
        a += ["--arg", "in=file:in.bin", "--arg", "inl=file:inl.bin", "--arg", "inf=file:inf.bin",
              "--arg", "out=zero:%d" % (c.G * NOUT), "--arg", "bins=zero:%d" % NBINS,
              "--arg", "bout=zero:%d" % c.G, "--arg", "cout=zero:%d" % c.G,
              "--arg", "n=%d" % self.n, "--arg", "m=%d" % self.m]
        if outs:
            a += ["--write", "out=out.bin", "--write", "bins=bins.bin", "--write", "bout=bout.bin",
                  "--write", "cout=cout.bin"]
        return a + [kfile]

    def write_inputs(self, d):
        for nm, b in (("in.bin", self.in_bytes), ("inl.bin", self.inl_bytes), ("inf.bin", self.inf_bytes)):
            with open(os.path.join(d, nm), "wb") as f:
                f.write(b)


# ---------------------------------------------------------------- driver

OUTS = ["out", "bins", "bout", "cout"]


def run_backend(o, case, d, spv, opt, backend, env_extra=None, jobs=None, extra=None):
    """Runs one backend in folder d; returns a result dict."""
    args = case.run_args(spv, opt, backend)
    args[0] = o.sgrun
    args[1:1] = extra or []
    if jobs is not None and backend == "jit":
        args[args.index("-j") + 1] = str(jobs)
    args.insert(1, "--json")
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = os.path.join(d, "cache")
    env["SPIRV_SG_NO_PROGRESS"] = "1"
    for kv in env_extra or []:
        k, v = kv.split("=", 1)
        env[k] = v
    for nm in OUTS:
        p = os.path.join(d, nm + ".bin")
        if os.path.exists(p):
            os.remove(p)
    t0 = time.time()
    try:
        p = subprocess.run(args, cwd=d, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=o.timeout)
        rc, out, err = p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        rc, out, err = "timeout", "", "timed out after %ds" % o.timeout
    res = {"rc": rc, "stderr": err, "secs": time.time() - t0, "bufs": {}, "json": None}
    try:
        res["json"] = json.loads(out)
    except ValueError:
        pass
    for nm in OUTS:
        p = os.path.join(d, nm + ".bin")
        if os.path.exists(p):
            with open(p, "rb") as f:
                res["bufs"][nm] = f.read()
    return res


def key(res):
    """what must be identical between the backends"""
    j = res["json"] or {}
    return (res["rc"], j.get("status"), j.get("faults"), j.get("ub"), j.get("printf"),
            json.dumps(j.get("diagnostics"), sort_keys=True), tuple(sorted(res["bufs"].items())))


def first_diff(a, b):
    if a["rc"] != b["rc"]:
        return "exit status %s vs %s" % (a["rc"], b["rc"])
    ja, jb = a["json"] or {}, b["json"] or {}
    for k in ("status", "faults", "ub", "printf"):
        if ja.get(k) != jb.get(k):
            return "%s: %r vs %r" % (k, ja.get(k), jb.get(k))
    if ja.get("diagnostics") != jb.get("diagnostics"):
        return "diagnostics: %s vs %s" % (json.dumps(ja.get("diagnostics"))[:300],
                                          json.dumps(jb.get("diagnostics"))[:300])
    for nm in OUTS:
        x, y = a["bufs"].get(nm), b["bufs"].get(nm)
        if x != y:
            if x is None or y is None or len(x) != len(y):
                return "%s: missing or size differs" % nm
            xs = struct.unpack("<%dI" % (len(x) // 4), x)
            ys = struct.unpack("<%dI" % (len(y) // 4), y)
            bad = [i for i in range(len(xs)) if xs[i] != ys[i]]
            i = bad[0]
            w = ("work-item %d slot %d" % (i // NOUT, i % NOUT)) if nm == "out" else "[%d]" % i
            return "%s%s: interp 0x%08x jit 0x%08x (%d words differ)" % (nm, w if nm != "out" else " " + w,
                                                                         xs[i], ys[i], len(bad))
    return "?"


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.runs = {}          # (opt, S) -> kernels compared
        self.declined = 0
        self.convergent = 0
        self.jitruns = 0
        self.findings = []
        self.features = {}
        self.seeds = 0
        self.genfail = 0
        self.skipped = 0
        self.invalid = 0

    def add(self, k, n=1):
        with self.lock:
            self.runs[k] = self.runs.get(k, 0) + n


def do_seed(o, seed, st):
    case = Case(seed, o.sizes, o.ext)
    c = case.cfg
    d = tempfile.mkdtemp(prefix="kgen-%d-" % seed, dir=o.work)
    found = []
    try:
        kf = os.path.join(d, "kgen-%d.cl" % seed)
        with open(kf, "w") as f:
            f.write(case.src)
        case.write_inputs(d)
        for opt in o.opts:
            spv = "kgen-%d%s.spv" % (seed, opt)
            try:
                p = subprocess.run(["sh", COMPILE, kf, os.path.join(d, spv), opt], stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, timeout=o.timeout)
                ok = p.returncode == 0
                msg = p.stdout.decode(errors="replace")
            except subprocess.TimeoutExpired:
                ok, msg = False, "clang timed out"
            if not ok and ("llvm-spirv-15:" in msg or "Can't translate" in msg) and "error:" not in msg:
                # llvm-spirv-15 has no translation for LLVM's freeze (which
                # clang -O2 makes from some loops) and asserts on some
                # switches clang -O2 forms: the toolchain's, skipped
                with st.lock:
                    st.skipped += 1
                continue
            if not ok:
                with st.lock:
                    st.genfail += 1
                lines = msg.strip().splitlines()
                found.append(("compile", seed, opt, ([x for x in lines if "error" in x] or lines)[:3], d))
                continue
            ri = run_backend(o, case, d, spv, opt, "interp")
            invalid = "does not validate" in ri["stderr"]
            if invalid:
                # llvm-spirv-15 sometimes lays a loop's blocks out with a
                # phi's block after a block that uses it (spirv-val: "ID has
                # not been defined"; the loader warns and runs it).  Still
                # compared; a finding on such a module says so
                with st.lock:
                    st.invalid += 1
            if o.checks:
                # the generator's promise, checked: no data race, no lane
                # of a subgroup reading another's write unsynchronized, no
                # uninitialized value used (the interpreter's detectors)
                rc = run_backend(o, case, d, spv, opt, "interp", extra=["--check-all"])
                jc = rc["json"] or {}
                if rc["rc"] != 0 or jc.get("diagnostics"):
                    ds = jc.get("diagnostics") or []
                    found.append(("check", {"kind": "check", "seed": seed, "opt": opt, "S": c.S, "flags": [],
                                            "dir": None, "what": "interp --check-all: exit %s, %s" % (
                                                rc["rc"], "; ".join(x.get("message", "")[:200] for x in ds[:2])),
                                            "cmd": " ".join(case.run_args("kgen-%d.cl" % seed, opt, "interp",
                                                                         outs=False)) + " --check-all"}))
            rj = run_backend(o, case, d, spv, opt, "jit")
            st.add((opt, c.S))
            with st.lock:
                st.jitruns += 1
                jj = rj["json"] or {}
                if jj.get("backend") != "jit":
                    st.declined += 1
                if (jj.get("jit") or {}).get("convergent"):
                    st.convergent += 1
            problems = []
            ji = ri["json"] or {}
            if ri["rc"] != 0 or ji.get("diagnostics") or ji.get("faults") or ji.get("ub"):
                problems.append(("interp-not-clean", "interp: exit %s, %s" % (
                    ri["rc"], (json.dumps(ji.get("diagnostics"))[:300] if ji else ri["stderr"][-300:]))))
            for res, nm in ((ri, "interp"), (rj, "jit")):
                if res["rc"] == "timeout":
                    problems.append(("timeout", "%s timed out" % nm))
                elif isinstance(res["rc"], int) and (res["rc"] < 0 or res["rc"] >= 124):
                    problems.append(("crash", "%s exit %d: %s" % (nm, res["rc"], res["stderr"][-300:])))
            if jj.get("backend") not in (None, "jit"):
                problems.append(("declined", "jit declined: %s" % jj.get("fallback_reason")))
            if key(ri) != key(rj):
                problems.append(("mismatch", first_diff(ri, rj)))
            for kind, what in problems:
                if kind == "declined" and not o.report_declined:
                    continue
                if invalid:
                    what += " [module fails spirv-val]"
                info = {"kind": kind, "seed": seed, "opt": opt, "S": c.S, "what": what, "dir": None,
                        "cmd": " ".join(case.run_args("kgen-%d.cl" % seed, opt, "jit", outs=False)), "flags": []}
                if kind == "mismatch" and o.bisect:
                    for fl in JIT_FLAGS:
                        rf = run_backend(o, case, d, spv, opt, "jit", [fl])
                        if key(rf) == key(ri):
                            info["flags"].append(fl)
                    if c.jobs != 1:
                        rf = run_backend(o, case, d, spv, opt, "jit", jobs=1)
                        if key(rf) == key(ri):
                            info["flags"].append("-j 1")
                if o.keep and kind != "declined":
                    kd = os.path.join(o.keep, "seed-%d%s-%s" % (seed, opt, kind))
                    os.makedirs(kd, exist_ok=True)
                    shutil.copy(kf, kd)
                    case.write_inputs(kd)
                    for res, nm in ((ri, "interp"), (rj, "jit")):
                        for b, data in res["bufs"].items():
                            with open(os.path.join(kd, "%s.%s.bin" % (b, nm)), "wb") as f:
                                f.write(data)
                        with open(os.path.join(kd, "%s.json" % nm), "w") as f:
                            json.dump({"rc": res["rc"], "json": res["json"], "stderr": res["stderr"]}, f, indent=1)
                    with open(os.path.join(kd, "repro.sh"), "w") as f:
                        f.write("# %s\ncd \"$(dirname \"$0\")\"\nexport XDG_CACHE_HOME=/tmp/kgen-cache\n" % what)
                        for be in ("interp", "jit"):
                            f.write("%s\n" % " ".join(case.run_args("kgen-%d.cl" % seed, opt, be, outs=False)).replace(
                                "spirv-sgrun", "${SGRUN:-spirv-sgrun}", 1))
                    info["dir"] = kd
                found.append((kind, info))
        with st.lock:
            st.seeds += 1
            for f in case.features:
                st.features[f] = st.features.get(f, 0) + 1
    finally:
        if not o.keep_work:
            shutil.rmtree(d, ignore_errors=True)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sgrun", default=os.path.join(HERE, "..", "..", "build", "src", "spirv-sgrun"))
    ap.add_argument("--seeds", default="0:40", help="A:B runs seeds A..B-1 (env SG_KGEN_SEEDS overrides)")
    ap.add_argument("--emit", type=int, default=None, metavar="SEED", help="print SEED's kernel and exit")
    ap.add_argument("--dir", default=None, help="with --emit: write kgen-SEED.cl and the input files there")
    ap.add_argument("-j", type=int, default=2, help="seeds run at once (each runs one process at a time)")
    ap.add_argument("--opt", default="-O0,-O2", help="clang optimization levels (comma-separated)")
    ap.add_argument("--keep", default=None, help="save each finding's kernel, inputs and outputs here")
    ap.add_argument("--work", default=None, help="scratch folder (default: a temporary one)")
    ap.add_argument("--keep-work", action="store_true", help="do not delete the per-seed scratch folders")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per spirv-sgrun run")
    ap.add_argument("--no-bisect", dest="bisect", action="store_false",
                    help="do not rerun a mismatch with each SPIRV_SG_JIT_* switch")
    ap.add_argument("--report-declined", action="store_true", help="list kernels the JIT declined")
    ap.add_argument("--stats", action="store_true", help="print run counts and feature counts")
    ap.add_argument("--ext", default=None,
                    help="opt-in kernel families beyond the default: narrow (8/16-bit integers)")
    ap.add_argument("--checks", action="store_true",
                    help="also run the interpreter with --check-all (races, lockstep, uninitialized): "
                         "any report is a generator bug")
    ap.add_argument("--sizes", default=None,
                    help="subgroup sizes a seed picks from, e.g. 8,16,32,64 (default 8,16,16,32; "
                         "kernels with intel_reqd_sub_group_size(16) keep 16)")
    o = ap.parse_args()
    o.sizes = [int(x) for x in o.sizes.split(",")] if o.sizes else None
    o.ext = tuple(x for x in (o.ext or "").split(",") if x)
    if o.emit is not None:
        case = Case(o.emit, o.sizes, o.ext)
        if o.dir:
            os.makedirs(o.dir, exist_ok=True)
            with open(os.path.join(o.dir, "kgen-%d.cl" % o.emit), "w") as f:
                f.write(case.src)
            case.write_inputs(o.dir)
        else:
            sys.stdout.write(case.src)
        return 0
    seeds = os.environ.get("SG_KGEN_SEEDS") or o.seeds
    a, b = (int(x, 0) for x in seeds.split(":"))
    o.opts = [x.strip() for x in o.opt.split(",") if x.strip()]
    o.sgrun = os.path.abspath(o.sgrun)
    if not os.path.exists(o.sgrun):
        print("error: spirv-sgrun not found at %s (build first, or pass --sgrun)" % o.sgrun)
        return 2
    own_work = o.work is None
    if own_work:
        o.work = tempfile.mkdtemp(prefix="kgen-")
    os.makedirs(o.work, exist_ok=True)
    if o.keep:
        o.keep = os.path.abspath(o.keep)
        os.makedirs(o.keep, exist_ok=True)
    st = Stats()
    t0 = time.time()
    bad = 0
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, o.j)) as ex:
            futs = {ex.submit(do_seed, o, s, st): s for s in range(a, b)}
            for fu in concurrent.futures.as_completed(futs):
                s = futs[fu]
                try:
                    found = fu.result()
                except Exception as e:          # a generator or driver bug: report, go on
                    print("ERROR seed=%d: %r" % (s, e), flush=True)
                    bad += 1
                    continue
                for f in found:
                    if f[0] == "compile":
                        _, seed, opt, msg, _ = f
                        print("GENFAIL seed=%d %s: clang: %s" % (seed, opt, " | ".join(msg)), flush=True)
                        bad += 1
                        continue
                    kind, info = f
                    if kind != "declined":
                        bad += 1
                    print("%s seed=%d %s S=%d: %s%s\n    repro: python3 %s --emit %d%s --dir D && cd D && "
                          "XDG_CACHE_HOME=/tmp/kgen-cache %s --print out%s" % (
                              kind.upper(), info["seed"], info["opt"], info["S"], info["what"],
                              ("\n    JIT agrees with: " + ", ".join(info["flags"])) if info["flags"] else "",
                              os.path.abspath(__file__), info["seed"],
                              ((" --sizes " + ",".join(map(str, o.sizes))) if o.sizes else "") +
                              ((" --ext " + ",".join(o.ext)) if o.ext else ""), info["cmd"],
                              ("\n    kept in %s" % info["dir"]) if info["dir"] else ""), flush=True)
    finally:
        if own_work:
            shutil.rmtree(o.work, ignore_errors=True)
    dt = time.time() - t0
    runs = ", ".join("%s S=%d: %d" % (k[0], k[1], v) for k, v in sorted(st.runs.items()))
    print("kgen: seeds %d:%d, %d kernels compared (%s); %d not compiled (llvm-spirv-15 limits), %d invalid SPIR-V (spirv-val); "
          "JIT declined %d, convergent %d of %d; %d findings; %.1f s" % (
              a, b, sum(st.runs.values()), runs, st.skipped, st.invalid, st.declined, st.convergent, st.jitruns, bad, dt))
    if o.stats:
        for k, v in sorted(st.features.items(), key=lambda x: -x[1]):
            print("  %-24s %d" % (k, v))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
